import { describe, expect, it } from 'vitest';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { catalogue, fillRequest, workerRequest } from '../support/accreditation.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const BASE = '/api/acreditacionsolicitud';

/**
 * Indiscipline acts (Administration > Indiscipline): one recorded against a person blocks new
 * requests for them at every contractor of the client while it lasts, with its message and
 * nothing written; a lapsed one does not; an authoriser who rejects for indiscipline, choosing the
 * kind from the catalogue, records one (the kind's severity, until the day plus its days of
 * sanction); contractors do not read them.
 */
describe.each(DIALECTS)('indiscipline on %s', (dialect) => {
  const w = world(dialect, {
    users: { admin: 'ADMIN', requester: 'SOLICITANTE', authoriser: 'AUTORIZADOR' },
    division: SOUTH,
    ready: async () => {
      cat = await catalogue(w.app, tokens.admin);
      contract = (await cat.list('contract')).find(
        (c: Json) => c.NumeroContrato === 'CT-2026-001',
      ).IdContrato;
      run = (await cat.list('document-type')).find((d: Json) => d.Alias === 'RUN').IdTipoDocumento;
      kinds = await cat.list('indiscipline');
    },
  });
  const { as, tokens, db, table } = w;
  let cat: Awaited<ReturnType<typeof catalogue>>;
  let contract: number;
  let run: number;
  let kinds: Json[];
  const today = siteDate('PE');

  const person = async (document: string) =>
    (await db()
      .selectFrom(table('person'))
      .select(['IdPersona', 'IdCompania'])
      .where('Documento', '=', document)
      .executeTakeFirstOrThrow()) as Json;
  const file = (document: string, chilean: boolean, language = 'en') =>
    as(
      'requester',
      'POST',
      `${BASE}/crearsolicitante`,
      workerRequest(cat, contract, today, {
        Documento: document,
        Apellido: 'Torres López',
        Nombre: 'Pedro',
        Sexo: 'M',
        ...(chilean && { IdTipoDocumento: run, IdPaisNacimiento: 'CH', IdPaisResidencia: 'CH' }),
      }),
      { headers: { 'accept-language': language } },
    );
  /** Fills every line, attaches the PDFs and the photo, and sends the request. */
  const send = async (id: number) => {
    await fillRequest(w.app, tokens.requester, id, addDays(today, 200));
    const sent = await as('requester', 'POST', `${BASE}/cerrarsolicitud`, { IdSolicitud: id });
    expect(sent.body.result?.EstadoAprobacion, JSON.stringify(sent.body)).toBe('P');
  };

  it('refuses a request for a person with an indiscipline in force, recorded at another contractor, writing nothing', async () => {
    // The demo's: a positive breath test of a MIATAC worker, ceased since; SERMIPAC asks for him.
    const before = await person('101742180');
    const requests = await w.count('request');
    const refused = await file('101742180', true);
    expect(refused.status).toBe(400);
    expect(refused.body.messageKey).toBe('accreditation.refusals.indisciplineInForce');
    expect(refused.body.errors.Documento.message).toBe(
      'The person has an indiscipline in force (PRUEBA DE ALCOHOLEMIA POSITIVA, of 28/10/2026): they cannot be requested until 28/10/2027.',
    );
    const spanish = await file('101742180', true, 'es');
    expect(spanish.body.message).toContain('La persona tiene una indisciplina vigente');
    expect(await w.count('request')).toBe(requests);
    expect(await person('101742180')).toEqual(before);
  });

  it('lets a lapsed one pass; a rejection for indiscipline records one from the catalogue, which then blocks', async () => {
    const filed = await file('103563550', true);
    expect(filed.status, JSON.stringify(filed.body)).toBe(200);
    const id = filed.body.result.IdSolicitud;
    await send(id);
    const kind = kinds.find((k) => k.Descripcion === 'USO DEL CELULAR MIENTRAS CONDUCE');
    const rejected = await as('authoriser', 'POST', `${BASE}/actualizarsolicitanteautorizador`, {
      IdSolicitud: id,
      Accion: 'RECHAZAR',
      MotivoRechazo: kind.Descripcion,
      IndisciplinaRechazo: 'S',
      IdIndisciplina: kind.IdIndisciplina,
    });
    expect(rejected.body.result?.EstadoAprobacion, JSON.stringify(rejected.body)).toBe('R');
    const { IdPersona } = await person('103563550');
    const recorded = (
      await as(
        'admin',
        'GET',
        `/api/rest/person-indiscipline?filter=${encodeURIComponent(JSON.stringify({ IdPersona }))}`,
      )
    ).body as Json[];
    expect(recorded.find((r) => r.IdSolicitud === id)).toMatchObject({
      IdIndisciplina: kind.IdIndisciplina,
      Fecha: today,
      Gravedad: kind.Gravedad,
      FechaHasta: addDays(today, kind.DiasSancion),
    });
    const again = await file('103563550', true);
    expect(again.status).toBe(400);
    expect(again.body.messageKey).toBe('accreditation.refusals.indisciplineInForce');
    // Lifted (made inactive), the person may be requested again.
    const row = recorded.find((r) => r.IdSolicitud === id);
    const lifted = await as('admin', 'PUT', `/api/rest/person-indiscipline/${row.IdIndisciplinaPersona}`, {
      ...row,
      Activo: 'N',
    });
    expect(lifted.status, JSON.stringify(lifted.body)).toBe(200);
    expect((await file('103563550', true)).status).toBe(200);
  });

  it('records one by hand with the kind’s severity and days unless given; contractors do not read them', async () => {
    const { IdPersona } = await person('40126704');
    const kind = kinds.find((k) => k.Descripcion === 'EXCESO DE VELOCIDAD EN VÍAS INTERNAS');
    const made = await as('admin', 'POST', '/api/rest/person-indiscipline', {
      IdPersona,
      IdIndisciplina: kind.IdIndisciplina,
      Fecha: addDays(today, -20),
      Activo: 'S',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ Gravedad: 2, FechaHasta: addDays(today, -5) });
    const backwards = await as('admin', 'POST', '/api/rest/person-indiscipline', {
      IdPersona,
      IdIndisciplina: kind.IdIndisciplina,
      Fecha: today,
      FechaHasta: addDays(today, -1),
      Activo: 'S',
    });
    expect(backwards.status).toBe(400);
    expect(Object.keys(backwards.body.errors)).toContain('FechaHasta');
    expect((await as('requester', 'GET', '/api/rest/person-indiscipline')).status).toBe(403);
  });
});
