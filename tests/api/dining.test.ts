import { sign } from 'node:crypto';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recountDays } from '../../src/server/features/dining/tables.js';
import { buildServer } from '../../src/server/server.js';
import { DeviceKeys } from '../../src/server/services/site/device-keys.js';
import { signingKeys } from '../../src/server/services/site/signing-keys.js';
import { claimsBytes, tokenOf } from '../../src/shared/badge-token.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { anotherClientAdmin, call, signIn, startTestApp, type TestApp } from '../support/app.js';
import { testClock } from '../support/auth.js';
import { DIALECTS } from '../support/databases.js';
import { accreditCrew } from '../support/lodging.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const NORTH = 'PROYECTO CORDILLERA NORTE';
const ROOM = 'COMEDOR CENTRAL SAN GABRIEL';

/** The instant of a wall-clock time in Lima (UTC−5, no daylight saving) on a day. */
const lima = (day: string, hhmm: string) => Date.parse(`${day}T${hhmm}:00-05:00`);

describe.each(DIALECTS)('dining halls on %s', (dialect) => {
  let t: TestApp;
  // Tomorrow in Lima: the demo's meals (seeded up to the real time of today) are never later than the test's.
  const today = addDays(siteDate('PE'), 1);
  const clock = testClock(lima(today, '12:45'));
  const tokens: Record<string, string> = {};
  let key: string;
  let northKey: string;
  let room: number;
  let lunch: number;
  let crew: { people: number[]; accreditations: number[]; contract: number };
  const docs: string[] = [];
  const db = () => t.db.database.db;
  /** Past the two seconds a room's configuration is kept, on the app's clock. */
  const afterCache = () => clock.advance(2_500);

  const as = (who: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    call(t.app, { method, url, token: tokens[who], payload });
  const device = (url: string, payload: object, deviceKey = key, language = 'en') =>
    call(t.app, {
      method: 'POST',
      url,
      payload,
      headers: { authorization: `Device ${deviceKey}`, 'accept-language': language },
    });
  const lector = (deviceKey: string) =>
    call(t.app, {
      method: 'GET',
      url: '/api/comedor/lector',
      headers: { authorization: `Device ${deviceKey}` },
    });
  const decidir = (payload: object, deviceKey = key, language = 'en') =>
    device('/api/comedor/decidir', payload, deviceKey, language);
  const rows = async (where: Record<string, unknown>) => {
    let qb = db().selectFrom('dining_consumption').selectAll();
    for (const [column, value] of Object.entries(where)) qb = qb.where(column as never, '=', value as never);
    return (await qb.orderBy('IdConsumo').execute()) as Json[];
  };
  const idOf = async (table: string, column: string, where: Record<string, unknown>) => {
    let qb = db()
      .selectFrom(table)
      .select(column as never);
    for (const [c, v] of Object.entries(where)) qb = qb.where(c as never, '=', v as never);
    return Number(((await qb.executeTakeFirstOrThrow()) as Json)[column]);
  };
  const issueKey = async (equipment: string, division: string) => {
    const id = await idOf('system_equipment', 'IdEquipo', { Descripcion: equipment });
    const admin = tokens[division === SOUTH ? 'admin' : 'adminNorth'];
    const issued = await call(t.app, { method: 'POST', url: `/api/acceso/equipo/${id}/clave`, token: admin });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    return issued.body.result.key as string;
  };

  /** An active card for a person. */
  const giveCard = async (person: number, Numero: string) =>
    db()
      .insertInto('identification_credential')
      .values({
        IdCliente: 1,
        IdPersona: person,
        TipoTitular: 'P',
        IdTipoCredencial: await idOf('identification_credential_type', 'IdTipoCredencial', { Activo: 'S' }),
        IdMotivoEmision: await idOf('identification_identification_reason', 'IdMotivo', { Activo: 'S' }),
        Numero,
        FechaInicio: addDays(today, -10),
        FechaFin: addDays(today, 100),
        Impreso: 'N',
        Activo: 'S',
      } as never)
      .execute();

  beforeAll(async () => {
    // What a reader decides, not how fast: on a busy machine twenty decisions in one commit may
    // outlast the product's 200 ms, so these calls get a budget no machine reaches (the budget
    // itself is the gate's mechanism, tested in access-device.test.ts against a locked table).
    t = await startTestApp(dialect, { auth: { now: clock.now }, gateDecisionBudgetMs: 60_000 });
    tokens.dining = (await signIn(t.app, 'COMEDOR', { division: SOUTH })).accessToken;
    tokens.admin = (await signIn(t.app, 'ADMIN', { division: SOUTH })).accessToken;
    tokens.adminNorth = (await signIn(t.app, 'ADMIN', { division: NORTH })).accessToken;
    tokens.requester = (await signIn(t.app, 'SOLICITANTE', { division: SOUTH })).accessToken;
    tokens.hotel = (await signIn(t.app, 'HOTELERO', { division: SOUTH })).accessToken;
    key = await issueKey('LECTOR COMEDOR CENTRAL SAN GABRIEL', SOUTH);
    northKey = await issueKey('LECTOR COMEDOR CORDILLERA NORTE', NORTH);
    room = await idOf('dining_dining_room', 'IdComedor', { Descripcion: ROOM });
    lunch = await idOf('dining_dining_service', 'IdServicio', { IdComedor: room, Descripcion: 'ALMUERZO' });
    crew = await accreditCrew(db(), {
      company: 'SERMIPAC',
      division: 1,
      count: 12,
      prefix: `C${dialect[0].toUpperCase()}`,
      today,
    });
    const worker = await idOf('administration_position_type', 'IdTipoPosicion', { Descripcion: 'OBRERO' });
    for (const person of crew.people) {
      await db()
        .updateTable('administration_person')
        .set({ IdTipoPosicion: worker })
        .where('IdPersona', '=', person)
        .execute();
      const row = (await db()
        .selectFrom('administration_person')
        .select('Documento')
        .where('IdPersona', '=', person)
        .executeTakeFirstOrThrow()) as Json;
      docs.push(row.Documento);
    }
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('serves an accredited worker lunch once, costs it, and refuses the second lunch with its reason', async () => {
    const first = await decidir({ Documento: docs[0], IdMarca: 'm-1' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.result).toMatchObject({
      allow: true,
      reason: 'ALLOWED',
      servicio: { Descripcion: 'ALMUERZO', Fecha: today },
      consumos: { usados: 1, maximo: 1 },
      persona: { Documento: docs[0], Compania: 'SERVICIOS MINEROS DEL PACÍFICO S.A.C.' },
    });
    const [stored] = await rows({ IdConsumo: first.body.result.IdConsumo });
    // Lunch 18.90, OBRERO's assignment: the company bears it all.
    expect(stored).toMatchObject({
      Resultado: 'P',
      Origen: 'E',
      Fecha: today,
      Ranura: 1,
      ImporteTotal: 1890,
      ImporteCompania: 1890,
      ImporteTrabajador: 0,
      BaseCosto: 'P',
      IdPersona: crew.people[0],
    });
    // The same presentation sent again (the reader's retry) is answered as stored, nothing added.
    const again = await decidir({ Documento: docs[0], IdMarca: 'm-1' });
    expect(again.body.result).toMatchObject({ allow: true, duplicate: true, IdConsumo: stored.IdConsumo });
    const second = await decidir({ Documento: docs[0], IdMarca: 'm-2' }, key, 'es');
    expect(second.body.result).toMatchObject({
      allow: false,
      reason: 'ALREADY_SERVED',
      message: 'Ya consumió ALMUERZO (1 de 1)',
    });
    const refused = await rows({ IdConsumo: second.body.result.IdConsumo });
    expect(refused[0]).toMatchObject({ Resultado: 'D', CodigoMotivo: 'ALREADY_SERVED', Ranura: null });
    expect(refused[0].ImporteTotal).toBeNull();
  });

  it('serves exactly the consumption number when twenty readers present one card at once', async () => {
    // A card for the worker, and the lunch allowing three meals a person.
    await giveCard(crew.people[1], `FC-D${dialect[0]}-0001`);
    await db()
      .updateTable('dining_dining_service')
      .set({ NumeroConsumos: 3 })
      .where('IdServicio', '=', lunch)
      .execute();
    afterCache();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => decidir({ Credencial: `FC-D${dialect[0]}-0001` })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const served = answers.filter((a) => a.body.result.allow);
    expect(served).toHaveLength(3);
    expect(answers.filter((a) => a.body.result.reason === 'ALREADY_SERVED')).toHaveLength(17);
    const stored = await rows({ IdPersona: crew.people[1], IdServicio: lunch });
    expect(
      stored
        .filter((r) => r.Resultado === 'P')
        .map((r) => r.Ranura)
        .sort(),
    ).toEqual([1, 2, 3]);
    expect(stored.filter((r) => r.Resultado === 'D')).toHaveLength(17);
    await db()
      .updateTable('dining_dining_service')
      .set({ NumeroConsumos: 1 })
      .where('IdServicio', '=', lunch)
      .execute();
    afterCache();
  });

  it('reads a badge’s QR token back to its card, and refuses a forged one', async () => {
    const keys = await signingKeys(db());
    const claims = {
      IdCliente: 1,
      IdDivision: 1,
      IdCredencial: 1,
      Numero: `FC-D${dialect[0]}-0002`,
      Titular: `P:${crew.people[2]}`,
      Hasta: addDays(today, 100),
    };
    await giveCard(crew.people[2], claims.Numero);
    const token = tokenOf(claims, sign(null, claimsBytes(claims), keys.signer));
    const served = await decidir({ Credencial: token });
    expect(served.body.result).toMatchObject({ allow: true, persona: { Documento: docs[2] } });
    const forged = `${token.slice(0, -4)}AAAA`;
    const refused = await decidir({ Credencial: forged });
    expect(refused.body.result).toMatchObject({ allow: false, reason: 'TOKEN_FORGED' });
    // A genuine token past its own last day, though its card's row still runs: refused.
    const past = { ...claims, Hasta: addDays(today, -1) };
    const lapsed = await decidir({ Credencial: tokenOf(past, sign(null, claimsBytes(past), keys.signer)) });
    expect(lapsed.body.result).toMatchObject({ allow: false, reason: 'CREDENTIAL_EXPIRED' });
  });

  it('refuses, and stores with its reason: unknown, not in a group, demobilised, suspended, room full', async () => {
    const unknown = await decidir({ Documento: 'X0000000' });
    expect(unknown.body.result).toMatchObject({ allow: false, reason: 'UNKNOWN' });
    expect((await rows({ IdConsumo: unknown.body.result.IdConsumo }))[0]).toMatchObject({
      Resultado: 'D',
      Observacion: 'X0000000',
      IdPersona: null,
    });
    // A company in no group of the room: its accreditation moved to one.
    const members = (await db()
      .selectFrom('dining_dining_group_companias')
      .select('Valor')
      .execute()) as Json[];
    const outsider = (await db()
      .selectFrom('administration_company')
      .select('IdCompania')
      .where(
        'IdCompania',
        'not in',
        members.map((m) => Number(m.Valor)),
      )
      .executeTakeFirstOrThrow()) as Json;
    await db()
      .updateTable('accreditation_accreditation')
      .set({ IdCompania: outsider.IdCompania })
      .where('IdAcreditacion', '=', crew.accreditations[3])
      .execute();
    expect((await decidir({ Documento: docs[3] })).body.result.reason).toBe('NOT_IN_GROUP');
    // Demobilised and suspended: no meal on the client's account.
    await db()
      .updateTable('accreditation_accreditation')
      .set({ Estado: 'T' })
      .where('IdAcreditacion', '=', crew.accreditations[4])
      .execute();
    expect((await decidir({ Documento: docs[4] })).body.result.reason).toBe('ACCREDITATION_TERMINATED');
    await db()
      .updateTable('accreditation_accreditation')
      .set({ Estado: 'S' })
      .where('IdAcreditacion', '=', crew.accreditations[5])
      .execute();
    expect((await decidir({ Documento: docs[5] })).body.result.reason).toBe('ACCREDITATION_SUSPENDED');
    // A room whose capacity is what it has served already.
    const servedNow = (
      await rows({ IdComedor: room, Fecha: today, Resultado: 'P', Anulado: 'N', IdServicio: lunch })
    ).length;
    await db()
      .updateTable('dining_dining_room')
      .set({ Capacidad: servedNow })
      .where('IdComedor', '=', room)
      .execute();
    afterCache();
    const full = await decidir({ Documento: docs[6] });
    expect(full.body.result).toMatchObject({
      allow: false,
      reason: 'ROOM_FULL',
      params: { capacity: servedNow },
    });
    await db()
      .updateTable('dining_dining_room')
      .set({ Capacidad: 450 })
      .where('IdComedor', '=', room)
      .execute();
    afterCache();
    expect((await decidir({ Documento: docs[6] })).body.result.allow).toBe(true);
  });

  it('costs by the person’s cost category where the room’s type distributes by category, and keeps past costs', async () => {
    const employee = await idOf('dining_cost_category', 'IdCategoriaCosto', { Descripcion: 'EMPLEADO' });
    await db()
      .insertInto('dining_person_cost_category')
      .values({
        IdCliente: 1,
        IdPersona: crew.people[8],
        IdCategoriaCosto: employee,
        FechaInicio: addDays(today, -5),
        Activo: 'S',
      } as never)
      .execute();
    const meal = await decidir({ Documento: docs[8] });
    expect(meal.body.result.allow).toBe(true);
    // EMPLEADO's lunch: the worker bears 20 %.
    const [row] = await rows({ IdConsumo: meal.body.result.IdConsumo });
    expect(row).toMatchObject({
      ImporteTotal: 1890,
      ImporteCompania: 1512,
      ImporteTrabajador: 378,
      PorcentajeCompania: 80,
      BaseCosto: 'K',
      IdCategoriaCosto: employee,
    });
    // A later price does not rewrite it.
    await db()
      .updateTable('dining_dining_service')
      .set({ Costo: 21.5 })
      .where('IdServicio', '=', lunch)
      .execute();
    afterCache();
    const later = await decidir({ Documento: docs[9] });
    expect((await rows({ IdConsumo: later.body.result.IdConsumo }))[0].ImporteTotal).toBe(2150);
    expect((await rows({ IdConsumo: row.IdConsumo }))[0].ImporteTotal).toBe(1890);
  });

  it('takes a cost assignment by position type or by cost category, one of the two', async () => {
    const employee = await idOf('dining_cost_category', 'IdCategoriaCosto', { Descripcion: 'EMPLEADO' });
    const dinner = await idOf('dining_dining_service', 'IdServicio', {
      IdComedor: room,
      Descripcion: 'CENA',
    });
    const assignment = (fields: object) =>
      as('dining', 'POST', '/api/rest/dining-cost-assignment', {
        IdServicio: dinner,
        AsumeCosto: 'T',
        Porcentaje: 10,
        Activo: 'S',
        ...fields,
      });
    const staff = await idOf('dining_cost_category', 'IdCategoriaCosto', { Descripcion: 'STAFF' });
    const trainee = await idOf('administration_position_type', 'IdTipoPosicion', {
      Descripcion: 'PRACTICANTE',
    });
    for (const fields of [{}, { IdTipoPosicion: trainee, IdCategoriaCosto: staff }]) {
      const refused = await assignment(fields);
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body.errors.IdCategoriaCosto.message).toBe(
        'Give the position type or the cost category, one of the two.',
      );
    }
    // The demo has EMPLEADO's dinner already: the unique key per service and category holds.
    expect((await assignment({ IdCategoriaCosto: employee })).status).toBe(409);
  });

  it('keeps a reader’s offline batch once, served offline as served, and refuses a malformed batch whole', async () => {
    const at = new Date(clock.now() - 5 * 60_000).toISOString();
    const batch = [
      // The reader served docs[0] a second lunch while offline: eaten, so kept as served and costed, flagged by the server's reason.
      { IdMarca: 'off-1', FechaHora: at, Documento: docs[0], Resultado: 'P' },
      { IdMarca: 'off-2', FechaHora: at, Documento: docs[10], Resultado: 'P' },
      { IdMarca: 'off-3', FechaHora: at, Documento: 'NOBODY01', Resultado: 'D' },
    ];
    const sent = await device('/api/comedor/marcaciones', { Marcas: batch });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.result).toMatchObject({ received: 3, added: 3, duplicates: 0 });
    const [twice, fresh, nobody] = sent.body.result.consumos;
    expect(twice).toMatchObject({
      Resultado: 'P',
      allow: true,
      reason: 'ALREADY_SERVED',
      serverAllow: false,
    });
    expect(fresh).toMatchObject({ Resultado: 'P', reason: 'ALLOWED' });
    expect(nobody).toMatchObject({ Resultado: 'D', reason: 'UNKNOWN' });
    const offline = (await rows({ IdMarcaDispositivo: 'off-1' }))[0];
    expect(offline).toMatchObject({ Resultado: 'P', Ranura: null, EnLinea: 'N', ImporteTotal: 2150 });
    const resent = await device('/api/comedor/marcaciones', { Marcas: batch });
    expect(resent.body.result).toMatchObject({ received: 3, added: 0, duplicates: 3 });
    const before = (await rows({})).length;
    const malformed = await device('/api/comedor/marcaciones', {
      Marcas: [
        { IdMarca: 'bad-1', FechaHora: at, Documento: docs[11] },
        { IdMarca: 'bad-2', FechaHora: at, Documento: docs[11], Credencial: 'FC-1' },
      ],
    });
    expect(malformed.status).toBe(400);
    const repeated = await device('/api/comedor/marcaciones', {
      Marcas: [
        { IdMarca: 'bad-3', FechaHora: at, Documento: docs[11] },
        { IdMarca: 'bad-3', FechaHora: at, Documento: docs[11] },
      ],
    });
    expect(repeated.status).toBe(400);
    expect((await rows({})).length).toBe(before);
  });

  it('refuses a reader without a key, one of another division naming this room, and one of another client', async () => {
    const keyless = await call(t.app, {
      method: 'POST',
      url: '/api/comedor/decidir',
      payload: { Documento: docs[0] },
    });
    expect(keyless.status).toBe(401);
    const other = await decidir({ Documento: docs[0], IdComedor: room }, northKey);
    expect(other.status).toBe(400);
    expect(other.body.messageKey).toBe('dining.roomNotOfDevice');
    // A reader of another client, naming this client's room or none.
    await anotherClientAdmin(t, []);
    const chile = (await db()
      .selectFrom('system_division')
      .select(['IdDivision', 'IdCliente'])
      .where('Division', '=', 'FAENA ESCONDIDA SUR')
      .executeTakeFirstOrThrow()) as Json;
    const equipment = (await db()
      .insertInto('system_equipment')
      .values({
        IdCliente: chile.IdCliente,
        IdDivision: chile.IdDivision,
        Descripcion: 'LECTOR CASINO FAENA',
        IdTipoEquipo: await idOf('system_equipment_type', 'IdTipoEquipo', { Activo: 'S' }),
        Funcion: 'A',
        DiferenciaHoraria: 0,
        Activo: 'S',
      } as never)
      .returning('IdEquipo')
      .executeTakeFirstOrThrow()) as Json;
    const foreign = (await new DeviceKeys(db()).issue(Number(equipment.IdEquipo), 'TEST')).key;
    for (const payload of [{ Documento: docs[0], IdComedor: room }, { Documento: docs[0] }]) {
      const refused = await decidir(payload, foreign);
      expect(refused.status).toBe(400);
      expect(refused.body.messageKey).toBe('dining.roomNotOfDevice');
    }
    const two = await decidir({ Documento: docs[0], Credencial: 'FC-1' });
    expect(two.status).toBe(400);
    // Asked which rooms it reads for, another client's equipment hears of none.
    const rooms = await lector(foreign);
    expect([rooms.status, rooms.body.result.rooms]).toEqual([200, []]);
  });

  it('tells a reader the rooms it serves, with their services, and nothing without a key', async () => {
    const south = await lector(key);
    expect(south.status).toBe(200);
    const [served] = south.body.result.rooms;
    expect(south.body.result.rooms).toHaveLength(1);
    expect(served).toMatchObject({
      IdComedor: room,
      Descripcion: ROOM,
      IdCliente: 1,
      IdDivision: 1,
      zonaHoraria: 'America/Lima',
      activo: true,
    });
    const lunchRow = served.servicios.find((s: Json) => s.IdServicio === lunch);
    expect(lunchRow).toMatchObject({ Descripcion: 'ALMUERZO', NumeroConsumos: expect.any(Number) });
    expect(Object.keys(lunchRow).sort()).toEqual(
      ['Activo', 'Descripcion', 'HoraFin', 'HoraInicio', 'IdServicio', 'NumeroConsumos', 'Orden'].sort(),
    );
    expect(served.servicios.map((s: Json) => s.Descripcion)).toEqual(
      expect.arrayContaining(['DESAYUNO', 'ALMUERZO', 'CENA', 'REFRIGERIO NOCTURNO']),
    );
    const north = await lector(northKey);
    expect(north.body.result.rooms.map((r: Json) => r.IdDivision)).toEqual([2]);
    expect((await call(t.app, { method: 'GET', url: '/api/comedor/lector' })).status).toBe(401);
    expect((await lector('not-a-key')).status).toBe(401);
  });

  if (dialect === 'postgres')
    it('refuses within the budget when the database does not answer in time, and keeps nothing of it', async () => {
      // The product's own budget (200 ms), on the same database and clock.
      const reader = await buildServer({
        database: t.db.database,
        registry: t.registry,
        auth: { now: clock.now },
      });
      const blocker = new pg.Client({ connectionString: t.db.location.databaseUrl });
      await blocker.connect();
      const count = async () => (await rows({})).length;
      const before = await count();
      const present = (Documento: string) =>
        call(reader, {
          method: 'POST',
          url: '/api/comedor/decidir',
          payload: { Documento },
          headers: { authorization: `Device ${key}` },
        });
      try {
        await blocker.query('begin');
        await blocker.query('lock table dining_consumption in access exclusive mode');
        const answer = await present(docs[9]);
        expect(answer.status).toBe(200);
        expect(answer.body.result).toMatchObject({ allow: false, reason: 'SYSTEM_UNAVAILABLE' });
      } finally {
        await blocker.query('rollback');
        await blocker.end();
      }
      // The reader's writes go one transaction after the other: once the next is answered, the one
      // given up has ended, rolled back.
      const next = await present('NADIE-999');
      expect(next.body.result.reason).toBe('UNKNOWN');
      expect(await count()).toBe(before + 1);
      await reader.close();
    });

  it('lets a supervisor register a meal by hand with an observation, and void a wrong one with its reason (audited)', async () => {
    const byHand = await as('dining', 'POST', '/api/comedor/consumos', {
      IdComedor: room,
      IdServicio: lunch,
      Documento: docs[11],
      Observacion: 'lector sin energía',
    });
    expect(byHand.status, JSON.stringify(byHand.body)).toBe(200);
    const [row] = await rows({ IdConsumo: byHand.body.result.IdConsumo });
    expect(row).toMatchObject({
      Origen: 'M',
      Observacion: 'LECTOR SIN ENERGÍA',
      IdUsuarioCreacion: 'COMEDOR',
      Resultado: 'P',
    });
    // A second one by hand is refused with the reader's reason, and nothing is stored.
    const count = (await rows({})).length;
    const twice = await as('dining', 'POST', '/api/comedor/consumos', {
      IdComedor: room,
      IdServicio: lunch,
      Documento: docs[11],
      Observacion: 'otra vez',
    });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('Already served ALMUERZO (1 of 1)');
    expect((await rows({})).length).toBe(count);
    // Voided: its place is free again, and the trail says who and why.
    const voided = await as('dining', 'POST', `/api/comedor/consumos/${row.IdConsumo}/anular`, {
      Motivo: 'persona equivocada',
    });
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    expect((await rows({ IdConsumo: row.IdConsumo }))[0]).toMatchObject({
      Anulado: 'S',
      Ranura: null,
      MotivoAnulacion: 'PERSONA EQUIVOCADA',
      IdUsuarioAnulacion: 'COMEDOR',
    });
    const trail = (await db()
      .selectFrom('security_audit')
      .selectAll()
      .where('Recurso', '=', 'consumption')
      .where('IdRegistro', '=', String(row.IdConsumo))
      .execute()) as Json[];
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({ IdUsuario: 'COMEDOR', Operacion: 'U' });
    expect(trail[0].Campos).toContain('Anulado');
    expect(
      (await as('dining', 'POST', `/api/comedor/consumos/${row.IdConsumo}/anular`, { Motivo: 'de nuevo' }))
        .status,
    ).toBe(409);
    expect((await decidir({ Documento: docs[11] })).body.result.allow).toBe(true);
    // Nobody else registers or voids: not the requester, not the hotel administrator.
    for (const who of ['requester', 'hotel'])
      expect(
        (await as(who, 'POST', `/api/comedor/consumos/${row.IdConsumo}/anular`, { Motivo: 'no' + 'mío' }))
          .status,
      ).toBe(403);
  });

  it('shows the room’s sittings live: served, capacity, refused by reason, the last meals', async () => {
    const live = await as('dining', 'GET', `/api/comedor/gestion?IdComedor=${room}`);
    expect(live.status, JSON.stringify(live.body)).toBe(200);
    const lunchNow = live.body.result.servicios.find((s: Json) => s.Descripcion === 'ALMUERZO');
    const stored = await rows({ IdComedor: room, Fecha: today, IdServicio: lunch });
    expect(lunchNow).toMatchObject({
      abierto: true,
      servidos: stored.filter((r) => r.Resultado === 'P' && r.Anulado === 'N').length,
      anulados: stored.filter((r) => r.Anulado === 'S').length,
    });
    const refused: Record<string, number> = {};
    for (const r of stored.filter((x) => x.Resultado === 'D'))
      refused[r.CodigoMotivo] = (refused[r.CodigoMotivo] ?? 0) + 1;
    expect(lunchNow.rechazos).toEqual(refused);
    expect(refused.ALREADY_SERVED).toBeGreaterThanOrEqual(18);
    expect(refused).toMatchObject({ NOT_IN_GROUP: expect.any(Number), ROOM_FULL: expect.any(Number) });
    expect(live.body.result.capacidad).toBe(450);
    expect(live.body.result.ultimos[0].Nombres).toContain('CUADRILLA');
  });

  it('reports the meals within filters with totals that reconcile with the rows and the Excel, per role', async () => {
    const range = `desde=${addDays(today, -1)}&hasta=${addDays(today, 1)}`;
    const report = await as('dining', 'GET', `/api/comedor/reporte?${range}&take=200`);
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    const { data, totales, totalCount, porDia } = report.body.result;
    const served = (await rows({ Resultado: 'P', Anulado: 'N' })).filter(
      (r) => r.IdDivision === 1 && r.Fecha >= addDays(today, -1) && r.Fecha <= addDays(today, 1),
    );
    expect(totalCount).toBe(served.length);
    expect(data).toHaveLength(served.length);
    const sum = (key: string) => data.reduce((a: number, r: Json) => a + r[key], 0);
    expect(totales).toEqual({
      consumos: served.length,
      importe: sum('ImporteTotal'),
      compania: sum('ImporteCompania'),
      trabajador: sum('ImporteTrabajador'),
    });
    expect(totales.importe).toBe(totales.compania + totales.trabajador);
    expect(porDia.reduce((a: number, d: Json) => a + d.consumos, 0)).toBe(served.length);
    // The running totals the report reads are what the meals add up to, voids and offline meals included.
    await recountDays(db(), 'dining_consumption', 1);
    const recounted = await as('dining', 'GET', `/api/comedor/reporte?${range}&take=1`);
    expect(recounted.body.result.totales).toEqual(totales);
    expect(recounted.body.result.porDia).toEqual(porDia);
    // Filters: one person.
    const one = await as('dining', 'GET', `/api/comedor/reporte?${range}&IdPersona=${crew.people[8]}`);
    expect(one.body.result.totales).toMatchObject({ consumos: 1, compania: 1512, trabajador: 378 });
    const byDocument = await as('dining', 'GET', `/api/comedor/reporte?${range}&Documento=${docs[8]}`);
    expect(byDocument.body.result.totales).toEqual(one.body.result.totales);
    const nobody = await as('dining', 'GET', `/api/comedor/reporte?${range}&Documento=NADIE`);
    expect(nobody.body.result.totales.consumos).toBe(0);
    // The Excel export has every row and the same totals.
    const excel = await t.app.inject({
      method: 'GET',
      url: `/api/comedor/reporte/excel?${range}`,
      headers: { authorization: `Bearer ${tokens.dining}` },
    });
    expect(excel.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(excel.rawPayload as never);
    const sheet = book.getWorksheet('data');
    if (!sheet) throw new Error('no sheet');
    expect(sheet.rowCount).toBe(served.length + 2);
    const last = sheet.getRow(sheet.rowCount).values as Json[];
    expect(last.slice(9, 12)).toEqual([
      totales.importe / 100,
      totales.compania / 100,
      totales.trabajador / 100,
    ]);
    // In the client's currency: its symbol and decimals in the answer, its code in the headers.
    expect(report.body.result.moneda).toEqual({ IdMoneda: 'PEN', Simbolo: 'S/', Decimales: 2 });
    expect((sheet.getRow(1).values as Json[]).slice(9, 12).join('|')).toMatch(/\(PEN\).*\(PEN\).*\(PEN\)/);
    const currency = (IdMoneda: string) =>
      db().updateTable('system_client').set({ IdMoneda }).where('IdCliente', '=', 1).execute();
    await currency('CLP');
    const pesos = await as('dining', 'GET', `/api/comedor/reporte?${range}&take=1`);
    expect(pesos.body.result.moneda).toEqual({ IdMoneda: 'CLP', Simbolo: '$', Decimales: 0 });
    const inPesos = new ExcelJS.Workbook();
    await inPesos.xlsx.load(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/comedor/reporte/excel?${range}`,
          headers: { authorization: `Bearer ${tokens.dining}` },
        })
      ).rawPayload as never,
    );
    const pesoSheet = inPesos.getWorksheet('data');
    if (!pesoSheet) throw new Error('no sheet');
    expect((pesoSheet.getRow(1).values as Json[])[9]).toContain('(CLP)');
    expect((pesoSheet.getRow(pesoSheet.rowCount).values as Json[])[9]).toBe(
      Math.round(totales.importe / 100),
    );
    await currency('PEN');
    // A contractor sees its company's meals only, whatever company it asks for.
    const mine = await as('requester', 'GET', `/api/comedor/reporte?${range}&take=200`);
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    const sermipac = await idOf('administration_company', 'IdCompania', { Alias: 'SERMIPAC' });
    expect(mine.body.result.data.every((r: Json) => r.IdCompania === sermipac)).toBe(true);
    expect(mine.body.result.totalCount).toBe(served.filter((r) => r.IdCompania === sermipac).length);
    // No dining screen: refused.
    expect((await as('hotel', 'GET', `/api/comedor/reporte?${range}`)).status).toBe(403);
    expect((await as('requester', 'GET', `/api/comedor/gestion?IdComedor=${room}`)).status).toBe(403);
    const reversed = await as(
      'dining',
      'GET',
      `/api/comedor/reporte?desde=${today}&hasta=${addDays(today, -1)}`,
    );
    expect(reversed.status).toBe(400);
  });
  it('refuses outside the group’s hours and with no service open, and serves the night meal after midnight on the day its service opened', async () => {
    // 14:15: lunch is still served (until 14:30), but the contractors' group eats until 14:00.
    clock.advance(lima(today, '14:15') - clock.now());
    const late = await decidir({ Documento: docs[6] }, key, 'es');
    expect(late.body.result).toMatchObject({ allow: false, reason: 'OUTSIDE_GROUP_SCHEDULE' });
    expect(late.body.result.message).toBe('Fuera del horario de su grupo (11:30–14:00; son las 14:15)');
    // 16:00: nothing is served.
    clock.advance(lima(today, '16:00') - clock.now());
    const none = await decidir({ Documento: docs[6] });
    expect(none.body.result).toMatchObject({ allow: false, reason: 'NO_SERVICE', servicio: null });
    expect((await rows({ IdConsumo: none.body.result.IdConsumo }))[0]).toMatchObject({
      IdServicio: null,
      Resultado: 'D',
    });
    clock.advance(lima(addDays(today, 1), '00:40') - clock.now());
    const night = await decidir({ Documento: docs[7] });
    expect(night.body.result).toMatchObject({
      allow: true,
      servicio: { Descripcion: 'REFRIGERIO NOCTURNO', Fecha: today },
    });
    const [row] = await rows({ IdConsumo: night.body.result.IdConsumo });
    expect(row).toMatchObject({ Fecha: today, Hora: '00:40:00', ImporteTotal: 980 });

    // The management screen still counts the night's sitting, on the day it opened (the supervisor
    // signs in again: the clock has gone past the morning's session).
    tokens.dining = (await signIn(t.app, 'COMEDOR', { division: SOUTH })).accessToken;
    const live = await as('dining', 'GET', `/api/comedor/gestion?IdComedor=${room}`);
    expect(live.status, JSON.stringify(live.body)).toBe(200);
    expect(live.body.result.fecha).toBe(today);
    const nightNow = live.body.result.servicios.find((x: Json) => x.Descripcion === 'REFRIGERIO NOCTURNO');
    expect(nightNow).toMatchObject({ abierto: true, servidos: 1 });
    // A meal by hand for the night goes into that sitting: who ate is not served again.
    const nightService = nightNow.IdServicio;
    const nightByHand = (Documento: string) =>
      as('dining', 'POST', '/api/comedor/consumos', {
        IdComedor: room,
        IdServicio: nightService,
        Documento,
        Observacion: 'lector sin energía',
      });
    const again = await nightByHand(docs[7]);
    expect(again.status, JSON.stringify(again.body)).toBe(409);
    expect(again.body.messageKey).toBe('dining.reasons.ALREADY_SERVED');
    const byHand = await nightByHand(docs[8]);
    expect(byHand.status, JSON.stringify(byHand.body)).toBe(200);
    expect((await rows({ IdConsumo: byHand.body.result.IdConsumo }))[0]).toMatchObject({ Fecha: today });
  });
});
