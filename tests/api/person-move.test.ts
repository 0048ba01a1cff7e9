/**
 * A worker moves between contractors of one client: a person is registered once per client and
 * document, and their employment with a company is a dated relation (person-employment). Another
 * company registering a current worker of a contractor is refused without a word of that
 * contractor's data; once the contractor records the cessation, the other company registers the
 * same person (no duplicate) with its own data, and the employments say who employed them when.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfill } from '../../src/server/features/administration/employment.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { catalogue } from '../support/accreditation.js';
import { call, signIn, startTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const DOCUMENT = '72900010';

describe.each(DIALECTS)('a worker moving between contractors on %s', (dialect) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let mine: number;
  let other: number;
  let dni: number;
  const today = siteDate('PE');

  const as = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    call(t.app, { method, url, token: tokens[who], payload });
  const employments = async (person: number) =>
    (await t.db.database.db
      .selectFrom(t.registry.require('person-employment').table)
      .selectAll()
      .where('IdPersona', '=', person)
      .orderBy('IdEmpleo')
      .execute()) as Json[];
  const people = async () =>
    (await t.db.database.db
      .selectFrom(t.registry.require('person').table)
      .selectAll()
      .where('Documento', '=', DOCUMENT)
      .execute()) as Json[];
  const person = (company: number, extra: object = {}) => ({
    IdTipoDocumento: dni,
    Documento: DOCUMENT,
    Apellido: 'Condori Mamani',
    Nombre: 'Rosa',
    IdCompania: company,
    Sexo: 'F',
    FechaNacimiento: '1991-02-03',
    IdPaisNacimiento: 'PE',
    IdPaisResidencia: 'PE',
    TelefonoMovil: '987650001',
    Condicion: 'T',
    Visita: 'N',
    ValidarRequisitosAcceso: 'S',
    Inactivo: 'N',
    ...extra,
  });

  /** The person's company records their cessation, today. */
  const cease = async (id: number) => {
    const reason = ((await as('admin', 'GET', '/api/rest/cessation-reason?range=[0,9]')).body as Json[])[0];
    const stored = (await as('admin', 'GET', `/api/rest/person/${id}`)).body;
    const ceased = await as('admin', 'PUT', `/api/rest/person/${id}`, {
      ...stored,
      Condicion: 'C',
      FechaCese: today,
      IdMotivoCese: reason.IdMotivo ?? reason.IdMotivoCese ?? reason.id,
    });
    expect(ceased.status, JSON.stringify(ceased.body)).toBe(200);
  };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    const admin = await signIn(t.app, 'ADMIN', { division: SOUTH });
    tokens.admin = admin.accessToken;
    const requester = await signIn(t.app, 'SOLICITANTE', { division: SOUTH });
    tokens.requester = requester.accessToken;
    mine = requester.perfil.IdCompania;
    const companies = (await as('admin', 'GET', '/api/rest/company?range=[0,999]')).body as Json[];
    other = companies.find((c) => c.IdCompania !== mine && c.Activo !== 'N').IdCompania;
    dni = ((await as('admin', 'GET', '/api/rest/document-type?range=[0,999]')).body as Json[]).find(
      (d) => d.Alias === 'DNI' && d.IdPais === 'PE',
    ).IdTipoDocumento;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a current worker of another company without showing its data, and moves a ceased one', async () => {
    // Another contractor's worker, with an address and an emergency contact of its records.
    const theirs = await as(
      'admin',
      'POST',
      '/api/rest/person',
      person(other, {
        FechaInicio: '2025-03-01',
        Direccion: 'Av. Los Olivos 123',
        EmergenciaNombre: 'Juan Condori',
        EmergenciaTelefono: '987650002',
      }),
    );
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
    const id = theirs.body.IdPersona;
    expect(await employments(id)).toMatchObject([
      { IdCompania: other, Vigente: 'S', FechaInicio: '2025-03-01' },
    ]);

    // Still employed there: refused on the document, nothing said of the other company's records.
    const refused = await as('requester', 'POST', '/api/rest/person', person(mine));
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body.messageKey).toBe('rules.personEmployedElsewhere');
    expect(refused.body.errors.Documento.messageKey).toBe('rules.personEmployedElsewhere');
    const said = JSON.stringify(refused.body);
    for (const secret of ['OLIVOS', 'JUAN', String(id), String(other)]) expect(said).not.toContain(secret);
    expect(await people()).toMatchObject([{ IdPersona: id, IdCompania: other }]);

    // The other company records the cessation; its employment ends on that date.
    await cease(id);
    expect(await employments(id)).toMatchObject([{ IdCompania: other, Vigente: 'N', FechaFin: today }]);

    // Now the requester's company registers her: the same person, with its own data only.
    const moved = await as(
      'requester',
      'POST',
      '/api/rest/person',
      person(mine, { TelefonoMovil: '987650009' }),
    );
    expect(moved.status, JSON.stringify(moved.body)).toBe(201);
    expect(moved.body.IdPersona).toBe(id);
    expect(moved.body).toMatchObject({ IdCompania: mine, Condicion: 'T', TelefonoMovil: '987650009' });
    expect(moved.body.Direccion ?? null).toBeNull();
    expect(moved.body.EmergenciaNombre ?? null).toBeNull();
    expect(moved.body.FechaCese ?? null).toBeNull();
    expect(await people()).toHaveLength(1);
    expect(await employments(id)).toMatchObject([
      { IdCompania: other, Vigente: 'N', FechaFin: today },
      { IdCompania: mine, Vigente: 'S', FechaInicio: today },
    ]);
    // She is on the company's list now, and her employment with it is the company's to read.
    const listed = (
      await as(
        'requester',
        'GET',
        `/api/rest/person?range=[0,999]&filter=${encodeURIComponent(JSON.stringify({ q: DOCUMENT }))}`,
      )
    ).body as Json[];
    expect(listed.map((p) => p.IdPersona)).toEqual([id]);
    const own = await as(
      'requester',
      'GET',
      `/api/rest/person-employment?range=[0,99]&filter=${encodeURIComponent(JSON.stringify({ IdPersona: id }))}`,
    );
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect((own.body as Json[]).map((e) => e.IdCompania)).toEqual([mine]);

    // Registered twice by the same company: its own duplicate, as before.
    const twice = await as('requester', 'POST', '/api/rest/person', person(mine));
    expect(twice.status).toBe(409);
  });

  it('holds one current employment per person in the database', async () => {
    const [stored] = await people();
    const table = t.registry.require('person-employment').table;
    await expect(
      t.db.database.db
        .insertInto(table)
        .values({
          IdCliente: stored.IdCliente,
          IdPersona: stored.IdPersona,
          IdCompania: other,
          FechaInicio: today,
          Vigente: 'S',
          IdUsuarioCreacion: 'PRUEBA',
          FechaCreacion: new Date().toISOString(),
        })
        .execute(),
    ).rejects.toThrow(/unique|UNIQUE/);
  });

  it('gives the people registered before employments were kept one each, once', async () => {
    const db = t.db.database.db;
    const table = t.registry.require('person-employment').table;
    const count = async () =>
      Number(
        (
          (await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirst()) as Json
        ).n,
      );
    const persons = Number(
      (
        (await db
          .selectFrom(t.registry.require('person').table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirst()) as Json
      ).n,
    );
    // Every demo person has one once the server is ready (the moved one has two).
    expect(await count()).toBe(persons + 1);
    // Run again (a second server starting), nobody gets another.
    await backfill(t.db.database, t.registry);
    expect(await count()).toBe(persons + 1);
  });

  it('moves a ceased worker named in a mobilisation request too, and refuses a current one there', async () => {
    const document = '72900011';
    const theirs = await as('admin', 'POST', '/api/rest/person', {
      ...person(other, { Direccion: 'Jr. Puno 456' }),
      Documento: document,
    });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
    const id = theirs.body.IdPersona;
    const cat = await catalogue(t.app, tokens.admin);
    const contract = (await cat.list('contract')).find(
      (c: Json) => c.NumeroContrato === 'CT-2026-001',
    ).IdContrato;
    const request = {
      IdEntidad: 'T',
      IdContrato: contract,
      IdPerfilAcreditacion: cat.worker,
      FechaInicio: today,
      FechaFin: addDays(today, 60),
      IdTipoDocumento: dni,
      Documento: document,
      Apellido: 'Ticona Flores',
      Nombre: 'Marco',
      Sexo: 'M',
      FechaNacimiento: '1989-09-09',
      IdPaisNacimiento: 'PE',
      IdPaisResidencia: 'PE',
      TelefonoMovil: '987650010',
    };
    const refused = await as('requester', 'POST', '/api/acreditacionsolicitud/crearsolicitante', request);
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body.errors.Documento.messageKey).toBe('rules.personEmployedElsewhere');
    expect(JSON.stringify(refused.body)).not.toContain('PUNO');
    await cease(id);
    const made = await as('requester', 'POST', '/api/acreditacionsolicitud/crearsolicitante', request);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.result.IdPersona).toBe(id);
    const now = (await as('requester', 'GET', `/api/rest/person/${id}`)).body;
    expect(now).toMatchObject({ IdCompania: mine, Apellido: 'TICONA FLORES', Condicion: 'T' });
    expect(now.Direccion ?? null).toBeNull();
    expect((await employments(id)).map((e) => [e.IdCompania, e.Vigente])).toEqual([
      [other, 'N'],
      [mine, 'S'],
    ]);
  });
});
