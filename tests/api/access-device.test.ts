import { createPublicKey, verify } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATE_DECISION_BUDGET_MS } from '../../src/server/config.js';
import { decisionWriterOf } from '../../src/server/features/access/gate.js';
import { buildServer } from '../../src/server/server.js';
import { addDays, siteDate, zoneOffset } from '../../src/shared/dates.js';
import { admitRoundTheClock } from '../support/access.js';
import { call, signIn, startTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const ENTRY_DOOR = 1; // turnstile in, main gate (division 1)
const EXIT_DOOR = 2; // turnstile out, main gate
const CAMP_DOOR = 5; // both ways, camp (zone 2)
const NORTH_DOOR = 6; // division 2

describe.each(DIALECTS)('gate device calls on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let key: string;
  let personId: number;
  let vehicle: Json;
  const today = siteDate('PE');
  const CARD = 'PRUEBA-0001';

  const device = (url: string, payload: object, deviceKey = key, language = 'en') =>
    call(t.app, {
      method: 'POST',
      url,
      payload,
      headers: { authorization: `Device ${deviceKey}`, 'accept-language': language },
    });
  const decidir = (payload: object, deviceKey = key, language = 'en') =>
    device('/api/acceso/decidir', payload, deviceKey, language);
  /** The whole offline list of the main gate (control point 1), as the gate verifies it. */
  const allowList = async () =>
    JSON.parse(
      (
        await call(t.app, {
          method: 'GET',
          url: '/api/acceso/listapermitidos?puntoControl=1',
          headers: { authorization: `Device ${key}` },
        })
      ).body.result.payload,
    );
  const batch = (Marcas: object[], deviceKey = key) =>
    device('/api/acceso/marcaciones', { Marcas }, deviceKey);
  const issue = async (equipment: number) =>
    (await call(t.app, { method: 'POST', url: `/api/acceso/equipo/${equipment}/clave`, token: admin })).body
      .result.key as string;
  const markings = (where: Record<string, unknown> = {}) => {
    let q = t.db.database.db.selectFrom('access_marking').selectAll();
    for (const [k, v] of Object.entries(where)) q = q.where(k, '=', v);
    return q.orderBy('IdMarcacion').execute() as Promise<Json[]>;
  };
  const presence = () =>
    t.db.database.db
      .selectFrom('access_presence')
      .selectAll()
      .where('Titular', '=', `P:${personId}`)
      .executeTakeFirst() as Promise<Json>;

  beforeAll(async () => {
    // What the gate decides, not how fast: on a busy machine a first decision (the site's rows
    // loaded) may outlast the product's 200 ms, so these calls get a budget no machine reaches.
    // The budget itself is tested below, on an app with the product's own, against a locked table.
    t = await startTestApp(dialect, { gateDecisionBudgetMs: 60_000 });
    admin = (await signIn(t.app, 'ADMIN', { division: SOUTH })).accessToken;
    const db = t.db.database.db;
    // A demo worker accredited in the south division, requirements in force, allowed round the clock at
    // the main gate and the camp, holding a card of its own.
    const accreditation = (await db
      .selectFrom('accreditation_accreditation')
      .select(['IdAcreditacion', 'IdPersona'])
      .where('IdDivision', '=', 1)
      .where('IdEntidad', '=', 'T')
      .where('IdPersona', 'is not', null)
      .orderBy('IdAcreditacion')
      .executeTakeFirstOrThrow()) as Json;
    personId = Number(accreditation.IdPersona);
    await admitRoundTheClock(db, personId, today, [ENTRY_DOOR, EXIT_DOOR, CAMP_DOOR]);
    // Without the demo's week of shifts (in about 06:45, out about 19:10): the markings below are
    // the worker's only ones, whatever the hour the tests run at.
    await db.deleteFrom('access_presence').where('Titular', '=', `P:${personId}`).execute();
    await db.deleteFrom('access_marking').where('IdPersona', '=', personId).execute();
    const card = (await db
      .selectFrom('identification_credential')
      .selectAll()
      .executeTakeFirstOrThrow()) as Json;
    /** An active card of the demo's first card's type, valid from ten days ago for sixty days. */
    const giveCard = (holder: { IdPersona: number } | { IdVehiculo: number }, Numero: string) =>
      db
        .insertInto('identification_credential')
        .values({
          IdCliente: 1,
          TipoTitular: 'IdPersona' in holder ? 'P' : 'V',
          ...holder,
          IdTipoCredencial: card.IdTipoCredencial,
          Numero,
          FechaInicio: addDays(today, -10),
          FechaFin: addDays(today, 60),
          Impreso: 'S',
          IdMotivoEmision: card.IdMotivoEmision,
          Activo: 'S',
        })
        .execute();
    await giveCard({ IdPersona: personId }, CARD);
    key = await issue(1);
    // A demo vehicle of the south let through the main gate round the clock, with a windscreen card
    // (before any decision: the gate keeps the site's access configuration for a while).
    vehicle = (await db
      .selectFrom('accreditation_accreditation as a')
      .innerJoin('administration_vehicle as v', 'v.IdVehiculo', 'a.IdVehiculo')
      .select(['v.IdVehiculo', 'v.Placa'])
      .where('a.IdDivision', '=', 1)
      .where('a.IdEntidad', '=', 'V')
      .orderBy('v.IdVehiculo', 'desc')
      .executeTakeFirstOrThrow()) as Json;
    const vehicleId = Number(vehicle.IdVehiculo);
    await admitRoundTheClock(db, { vehicle: vehicleId }, today, [ENTRY_DOOR, EXIT_DOOR]);
    await db.deleteFrom('identification_credential').where('IdVehiculo', '=', vehicleId).execute();
    await giveCard({ IdVehiculo: vehicleId }, 'TV-PRUEBA-1');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('comes with a week of demo markings, a few denials, and people on site', async () => {
    const rows = (await markings()).filter((r) => String(r.IdMarcaDispositivo).startsWith('demo-'));
    expect(rows.length).toBeGreaterThan(100);
    const reasons = new Set(rows.filter((r) => r.Resultado === 'D').map((r) => r.CodigoMotivo));
    expect([...reasons].sort()).toEqual(['NOT_ACCREDITED', 'UNKNOWN']);
    const days = new Set(rows.map((r) => r.Fecha));
    expect(days.size).toBeGreaterThanOrEqual(7);
    const [[summary]] = (
      await call(t.app, { method: 'GET', url: '/api/acreditacionsolicitud/dashboarddotacion', token: admin })
    ).body.result;
    expect(summary.PermanenciaTrabajadores).toBeGreaterThan(0);
  });

  it('refuses a call without a key or with an unknown one (401)', async () => {
    const none = await call(t.app, {
      method: 'POST',
      url: '/api/acceso/decidir',
      payload: { IdPuerta: 1, Credencial: CARD },
    });
    expect(none.status).toBe(401);
    expect((await decidir({ IdPuerta: ENTRY_DOOR, Credencial: CARD }, 'eq1.not-a-key')).status).toBe(401);
    expect((await batch([], 'eq1.not-a-key')).status).toBe(401);
    // A user's token is not a device key.
    const user = await call(t.app, {
      method: 'POST',
      url: '/api/acceso/decidir',
      token: admin,
      payload: { IdPuerta: ENTRY_DOOR, Credencial: CARD },
    });
    expect(user.status).toBe(401);
    // Said in a device's terms, and before the body is judged: an empty or malformed body without a
    // key is a 401 too, on every device call.
    expect(none.body.messageKey).toBe('gate.deviceKeyMissing');
    expect(none.body.message).not.toMatch(/session/i);
    for (const [method, url] of [
      ['POST', '/api/acceso/decidir'],
      ['POST', '/api/acceso/marcaciones'],
      ['GET', '/api/acceso/listapermitidos?puntoControl=abc'],
    ] as const) {
      const keyless = await call(t.app, {
        method,
        url,
        ...(method === 'POST'
          ? { payload: '{"broken', headers: { 'content-type': 'application/json' } }
          : {}),
      });
      expect(keyless.status, url).toBe(401);
      expect(keyless.body.messageKey, url).toBe('gate.deviceKeyMissing');
    }
    const unknown = await decidir({ IdPuerta: ENTRY_DOOR, Credencial: CARD }, 'eq1.not-a-key', 'es');
    expect(unknown.body.messageKey).toBe('gate.deviceKeyInvalid');
    expect(unknown.body.message).toBe(
      'La clave del equipo no es válida, fue revocada o el equipo está desactivado.',
    );
  });

  it('only an administrator with the equipment grant issues keys, and the key is never shown again', async () => {
    const requester = (await signIn(t.app, 'SOLICITANTE', { division: SOUTH })).accessToken;
    const refused = await call(t.app, {
      method: 'POST',
      url: '/api/acceso/equipo/1/clave',
      token: requester,
    });
    expect(refused.status).toBe(403);
    const current = await call(t.app, { method: 'GET', url: '/api/acceso/equipo/1/clave', token: admin });
    expect(current.status).toBe(200);
    expect(key.startsWith(current.body.result.prefix)).toBe(true);
    expect(JSON.stringify(current.body)).not.toContain(key);
    const stored = (await t.db.database.db
      .selectFrom('access_device_key')
      .select('Hash')
      .execute()) as Json[];
    expect(stored.some((r) => r.Hash === key)).toBe(false);
    // Another division's equipment is not the administrator's to key (404 through tenancy).
    expect(
      (await call(t.app, { method: 'POST', url: '/api/acceso/equipo/7/clave', token: admin })).status,
    ).toBe(404);
    // An id that is no id, or beyond 32 bits: a 400, never a 500.
    for (const method of ['GET', 'POST', 'DELETE'] as const)
      for (const id of ['2147483648', '0', 'abc'])
        expect(
          (await call(t.app, { method, url: `/api/acceso/equipo/${id}/clave`, token: admin })).status,
        ).toBe(400);
  });

  it('shows a worker’s effective access now, door by door, as the gate decides it, to whom may see it', async () => {
    // Only the test's round-the-clock profile (the demo's shift profiles depend on the hour).
    const db = t.db.database.db;
    const others = (await db
      .selectFrom('access_person_access as pa')
      .innerJoin('access_access_profile as p', 'p.IdPerfilAcceso', 'pa.IdPerfilAcceso')
      .select('pa.IdAccesoPersona')
      .where('pa.IdPersona', '=', personId)
      .where('pa.Activo', '=', 'S')
      .where('p.Descripcion', '<>', 'PRUEBA PERFIL')
      .execute()) as Json[];
    const ids = others.map((o) => o.IdAccesoPersona);
    if (ids.length)
      await db
        .updateTable('access_person_access')
        .set({ Activo: 'N' })
        .where('IdAccesoPersona', 'in', ids)
        .execute();
    const before = (await markings()).length;
    const answer = await call(t.app, {
      url: `/api/acceso/accesoefectivo?IdPersona=${personId}`,
      token: admin,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const doors = answer.body.result.puertas as Json[];
    // The division's five active doors (none of the north's).
    expect(doors.map((d) => d.IdPuerta).sort()).toEqual([1, 2, 3, 4, 5]);
    const at = (door: number) => doors.find((d) => d.IdPuerta === door);
    expect(at(ENTRY_DOOR)).toMatchObject({ Permitido: 'S', Motivo: 'ALLOWED' });
    expect(at(CAMP_DOOR)).toMatchObject({ Permitido: 'S' });
    // The dining room is not among its group's doors.
    expect(at(4)).toMatchObject({ Permitido: 'N' });
    expect(at(4).Mensaje.length).toBeGreaterThan(0);
    // Nothing is recorded.
    expect((await markings()).length).toBe(before);
    // Both or neither holder: 400; a requester without the access screens: 403.
    expect((await call(t.app, { url: '/api/acceso/accesoefectivo', token: admin })).status).toBe(400);
    const requester = (await signIn(t.app, 'SOLICITANTE', { division: SOUTH })).accessToken;
    expect(
      (await call(t.app, { url: `/api/acceso/accesoefectivo?IdPersona=${personId}`, token: requester }))
        .status,
    ).toBe(403);
    expect(
      (await call(t.app, { url: '/api/acceso/accesoefectivo?IdVehiculo=999999', token: admin })).status,
    ).toBe(404);
    if (ids.length)
      await db
        .updateTable('access_person_access')
        .set({ Activo: 'S' })
        .where('IdAccesoPersona', 'in', ids)
        .execute();
  });

  it('lets an accredited worker in, writing the marking and the presence before answering', async () => {
    const answer = await decidir({ IdPuerta: ENTRY_DOOR, Credencial: CARD });
    expect(answer.status).toBe(200);
    expect(answer.body.result).toMatchObject({ allow: true, reason: 'ALLOWED', direction: 'E' });
    const [row] = await markings({ IdMarcacion: answer.body.result.IdMarcacion });
    expect(row).toMatchObject({
      IdPersona: personId,
      IdPuerta: ENTRY_DOOR,
      IdZona: 1,
      IdEquipo: 1,
      Resultado: 'P',
      Funcion: 'E',
      Origen: 'E',
      Automatico: 'S',
      EnLinea: 'S',
      CodigoMotivo: 'ALLOWED',
      Fecha: today,
    });
    expect(await presence()).toMatchObject({ Funcion: 'E', IdZona: 1 });
  });

  it('serves the device its reading settings and judges its raw reads by them', async () => {
    const db = t.db.database.db;
    const settings = await call(t.app, {
      method: 'GET',
      url: '/api/acceso/lectura',
      headers: { authorization: `Device ${key}` },
    });
    expect(settings.status).toBe(200);
    expect(settings.body.result).toMatchObject({
      IdEquipo: 1,
      Funcion: 'E',
      lectura: { TipoLectura: 'T', Formato: 'WIEGAND26', PosicionInicio: 0, LongitudDato: 8 },
    });
    const config = (await db
      .selectFrom('system_equipment')
      .select('IdConfiguracionLectura')
      .where('IdEquipo', '=', 1)
      .executeTakeFirstOrThrow()) as Json;
    const reading = () =>
      db
        .updateTable('system_reading_configuration')
        .where('IdConfiguracionLectura', '=', config.IdConfiguracionLectura);
    // A card reader that sends a prefix and a suffix around the card's number: the configured part is kept.
    await reading().set({ PosicionInicio: 3, LongitudDato: CARD.length }).execute();
    const byCard = await decidir({ IdPuerta: ENTRY_DOOR, Lectura: `W26${CARD}#FIN` });
    expect(byCard.body.result, JSON.stringify(byCard.body)).toMatchObject({ allow: true, reason: 'ALLOWED' });
    const [marked] = await markings({ IdMarcacion: byCard.body.result.IdMarcacion });
    expect(marked).toMatchObject({ IdPersona: personId, CodigoMotivo: 'ALLOWED' });
    // Read as a document's barcode, the same read names a document.
    const document = (await db
      .selectFrom('administration_person')
      .select('Documento')
      .where('IdPersona', '=', personId)
      .executeTakeFirstOrThrow()) as Json;
    await reading()
      .set({ TipoLectura: 'D', PosicionInicio: 1, LongitudDato: document.Documento.length })
      .execute();
    const byDocument = await decidir({ IdPuerta: ENTRY_DOOR, Lectura: `@${document.Documento}<<PER` });
    expect(byDocument.body.result).toMatchObject({ allow: true, reason: 'ALLOWED' });
    // The offline list tells the gate app the same.
    const list = await allowList();
    expect(list.lectura).toMatchObject({ TipoLectura: 'D', PosicionInicio: 1 });
    // Nothing where the configuration looks, two things presented, or no configuration: refused, said why.
    const empty = await decidir({ IdPuerta: ENTRY_DOOR, Lectura: '@' });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Read 0 holds no data at the configured position.');
    const two = await decidir({ IdPuerta: ENTRY_DOOR, Lectura: CARD, Credencial: CARD });
    expect(two.status).toBe(400);
    await db
      .updateTable('system_equipment')
      .set({ IdConfiguracionLectura: null })
      .where('IdEquipo', '=', 1)
      .execute();
    const none = await decidir({ IdPuerta: ENTRY_DOOR, Lectura: CARD });
    expect(none.status).toBe(400);
    expect(none.body.message).toContain('no active reading configuration');
    await db
      .updateTable('system_equipment')
      .set({ IdConfiguracionLectura: config.IdConfiguracionLectura })
      .where('IdEquipo', '=', 1)
      .execute();
    await reading().set({ TipoLectura: 'T', PosicionInicio: 0, LongitudDato: 8 }).execute();
  });

  it('answers an unknown card with a denial, stored with its reason, in the asked language', async () => {
    const answer = await decidir({ IdPuerta: ENTRY_DOOR, Credencial: 'NO-EXISTE-9' }, key, 'es');
    expect(answer.body.result).toMatchObject({ allow: false, reason: 'UNKNOWN' });
    expect(answer.body.result.message).toBe('Identificación no registrada: NO-EXISTE-9');
    const [row] = await markings({ IdMarcacion: answer.body.result.IdMarcacion });
    expect(row).toMatchObject({ Resultado: 'D', CodigoMotivo: 'UNKNOWN', Observacion: 'NO-EXISTE-9' });
    expect(row.IdPersona).toBeNull();
  });

  it('answers many devices at once, the decisions that wait sharing a commit, each marking written once', async () => {
    const writer = decisionWriterOf(t.db.database.db);
    const before = { ...writer.stats };
    const cards = Array.from({ length: 20 }, (_, i) => `GRUPO-${i}`);
    const answers = await Promise.all(
      cards.map((Credencial) => decidir({ IdPuerta: ENTRY_DOOR, Credencial })),
    );
    expect(answers.map((a) => a.status)).toEqual(cards.map(() => 200));
    expect(answers.map((a) => a.body.result.reason)).toEqual(cards.map(() => 'UNKNOWN'));
    const ids = answers.map((a) => a.body.result.IdMarcacion);
    expect(new Set(ids).size).toBe(20);
    const rows = (await markings()).filter((m) => ids.includes(m.IdMarcacion));
    expect(rows.map((r) => r.Observacion).sort()).toEqual([...cards].sort());
    const { stats } = writer;
    expect(stats.decisions - before.decisions).toBe(20);
    expect(stats.commits - before.commits).toBeLessThan(20);
  });

  it('refuses a door of another division and a call naming two things (400), keeping nothing', async () => {
    const before = (await markings()).length;
    const other = await decidir({ IdPuerta: NORTH_DOOR, Credencial: CARD });
    expect(other.status).toBe(400);
    const two = await decidir({ IdPuerta: ENTRY_DOOR, Credencial: CARD, Documento: '40000000' });
    expect(two.status).toBe(400);
    expect(two.body.messageKey).toBe('gate.onePresented');
    expect((await markings()).length).toBe(before);
  });

  it('takes a batch idempotently, out of order, with the clock corrected and directions inferred', async () => {
    // The device's clock runs 10 minutes ahead of the server's; it reads both ways.
    await t.db.database.db
      .updateTable('system_equipment')
      .set({ DiferenciaHoraria: 10, Funcion: 'A' })
      .where('IdEquipo', '=', 1)
      .execute();
    const rotated = await issue(1); // forget the remembered equipment, with its old time difference
    key = rotated;
    const base = Date.now() - 3 * 3_600_000;
    const at = (minutes: number) => new Date(base + minutes * 60_000 + 10 * 60_000).toISOString();
    const marks = [
      // Sent newest first: leave the camp, enter the camp, then an unknown card.
      { IdMarca: 'lote-1-3', IdPuerta: CAMP_DOOR, Credencial: CARD, FechaHora: at(90) },
      { IdMarca: 'lote-1-2', IdPuerta: CAMP_DOOR, Credencial: CARD, FechaHora: at(30) },
      { IdMarca: 'lote-1-4', IdPuerta: CAMP_DOOR, Credencial: 'DESCONOCIDA-1', FechaHora: at(95) },
    ];
    const first = await batch(marks);
    expect(first.status).toBe(200);
    expect(first.body.result).toMatchObject({ received: 3, added: 3, duplicates: 0, doubtful: 0 });
    for (let i = 0; i < 2; i++) {
      const again = await batch(marks);
      expect(again.body.result).toMatchObject({ received: 3, added: 0, duplicates: 3 });
    }
    const rows = (await markings({ IdEquipo: 1 })).filter((r) =>
      String(r.IdMarcaDispositivo).startsWith('lote-1-'),
    );
    expect(rows).toHaveLength(3);
    const byId = Object.fromEntries(rows.map((r) => [r.IdMarcaDispositivo, r]));
    // Corrected: the device's time less its 10 minutes.
    expect(new Date(byId['lote-1-2'].FechaHora).getTime()).toBe(base + 30 * 60_000);
    expect(new Date(byId['lote-1-2'].FechaHoraDispositivo).getTime()).toBe(base + 40 * 60_000);
    // Inferred in time order although sent the other way round: into the camp, then out of it.
    expect(byId['lote-1-2'].Funcion).toBe('E');
    expect(byId['lote-1-3'].Funcion).toBe('S');
    expect(byId['lote-1-3'].EnLinea).toBe('N');
    expect(byId['lote-1-4']).toMatchObject({ Resultado: 'D', CodigoMotivo: 'UNKNOWN', IdPersona: null });
    // The presence stays with the newest marking: the online entry at the main gate, after these.
    const now = await presence();
    expect(now).toMatchObject({ Funcion: 'E', IdZona: 1 });
    // An older marking arriving late moves nothing either.
    const late = await batch([
      { IdMarca: 'lote-2-1', IdPuerta: ENTRY_DOOR, Credencial: CARD, FechaHora: at(-60) },
    ]);
    expect(late.body.result.added).toBe(1);
    expect(await presence()).toEqual(now);
    // Newer ones do: into the camp (inferred an entry: the worker is not inside it), then out of it.
    const into = await batch([
      { IdMarca: 'lote-3-1', IdPuerta: CAMP_DOOR, Credencial: CARD, FechaHora: at(182) },
    ]);
    expect(into.body.result.markings[0]).toMatchObject({ direction: 'E', allow: true, doubtful: false });
    expect(await presence()).toMatchObject({ Funcion: 'E', IdZona: 2 });
    const out = await batch([
      { IdMarca: 'lote-3-2', IdPuerta: CAMP_DOOR, Credencial: CARD, FechaHora: at(183) },
    ]);
    expect(out.body.result.markings[0]).toMatchObject({ direction: 'S', allow: true });
    // Out of the camp is back inside the mine that holds it.
    expect(await presence()).toMatchObject({ Funcion: 'E', IdZona: 1 });
    // Several of the same worker in one batch: each direction follows the one before it, and the
    // presence ends where the newest leaves the worker. (The presence is set back to the batch's
    // past first, as if the worker had been in the mine since then.)
    const saved = await presence();
    const setPresence = (values: Json) =>
      t.db.database.db
        .updateTable('access_presence')
        .set(values)
        .where('Titular', '=', `P:${personId}`)
        .execute();
    await setPresence({ Instante: base, Funcion: 'E', IdZona: 1 });
    const walk = (from: number, n: number) =>
      batch(
        Array.from({ length: n }, (_, i) => ({
          IdMarca: `lote-4-${from + i}`,
          IdPuerta: CAMP_DOOR,
          Credencial: CARD,
          FechaHora: at(from + i),
        })).reverse(),
      );
    const four = await walk(150, 4);
    expect(four.body.result.markings.map((m: Json) => m.direction)).toEqual(['E', 'S', 'E', 'S']);
    expect(await presence()).toMatchObject({ Funcion: 'E', IdZona: 1, Instante: base + 153 * 60_000 });
    const three = await walk(160, 3);
    expect(three.body.result.markings.map((m: Json) => m.direction)).toEqual(['E', 'S', 'E']);
    expect(await presence()).toMatchObject({ Funcion: 'E', IdZona: 2, Instante: base + 162 * 60_000 });
    // Older than the presence: the directions follow the stored markings and the batch's own.
    const { Instante, Funcion, IdZona, IdPuerta, IdMarcacion } = saved;
    await setPresence({ Instante, Funcion, IdZona, IdPuerta, IdMarcacion });
    const older = await walk(170, 2);
    expect(older.body.result.markings.map((m: Json) => m.direction)).toEqual(['S', 'E']);
    expect(await presence()).toEqual(saved);
  });

  it('flags a device time that cannot be true and lets it move no presence', async () => {
    const before = await presence();
    const tomorrow = new Date(Date.now() + 24 * 3_600_000).toISOString();
    const answer = await batch([
      { IdMarca: 'futuro-1', IdPuerta: CAMP_DOOR, Credencial: CARD, FechaHora: tomorrow },
    ]);
    expect(answer.body.result).toMatchObject({ added: 1, doubtful: 1 });
    const [row] = await markings({ IdMarcaDispositivo: 'futuro-1' });
    expect(row.HoraDudosa).toBe('S');
    expect(await presence()).toEqual(before);
  });

  it('answers an offline batch with what it stored: the device’s own result, the server’s view beside it', async () => {
    const before = await presence();
    const soon = (minutes: number) => new Date(Date.now() - 5 * 60_000 + minutes * 1000).toISOString();
    const marks = [
      // The gate refused a worker the server lets in: a refusal, and nobody counted present by it.
      { IdMarca: 'propio-1', IdPuerta: CAMP_DOOR, Credencial: CARD, FechaHora: soon(1), Resultado: 'D' },
      // It let an unknown card through: let through, and the server's refusal said beside it.
      {
        IdMarca: 'propio-2',
        IdPuerta: CAMP_DOOR,
        Credencial: 'DESCONOCIDA-2',
        FechaHora: soon(2),
        Resultado: 'P',
      },
    ];
    const first = await batch(marks);
    expect(first.status).toBe(200);
    const [refused, let_] = first.body.result.markings;
    expect(refused).toMatchObject({ IdMarca: 'propio-1', Resultado: 'D', allow: false, serverAllow: true });
    expect(let_).toMatchObject({
      IdMarca: 'propio-2',
      Resultado: 'P',
      allow: true,
      serverAllow: false,
      reason: 'UNKNOWN',
    });
    const stored = Object.fromEntries(
      (await markings({ IdEquipo: 1 }))
        .filter((r) => String(r.IdMarcaDispositivo).startsWith('propio-'))
        .map((r) => [r.IdMarcaDispositivo, r]),
    );
    expect(stored['propio-1']).toMatchObject({ Resultado: 'D', IdMarcacion: refused.IdMarcacion });
    expect(stored['propio-2']).toMatchObject({ Resultado: 'P', IdMarcacion: let_.IdMarcacion });
    expect(await presence()).toEqual(before);
    // Sent again, each is answered as it was stored: same marking, result and direction.
    const again = await batch(marks);
    expect(again.body.result).toMatchObject({ added: 0, duplicates: 2 });
    for (const [i, m] of again.body.result.markings.entries()) {
      const was = first.body.result.markings[i];
      expect(m).toMatchObject({
        duplicate: true,
        IdMarcacion: was.IdMarcacion,
        Resultado: was.Resultado,
        allow: was.allow,
        direction: was.direction,
        reason: was.reason,
      });
    }
  });

  it('keeps nothing of a malformed batch (400) or an oversized one (413)', async () => {
    const before = (await markings()).length;
    const fine = {
      IdMarca: 'malo-1',
      IdPuerta: ENTRY_DOOR,
      Credencial: CARD,
      FechaHora: new Date().toISOString(),
    };
    const bad = [
      [fine, { IdMarca: 'malo-2', IdPuerta: ENTRY_DOOR, FechaHora: new Date().toISOString() }],
      [fine, { ...fine, IdMarca: 'malo-3', FechaHora: 'ayer' }],
      [fine, { ...fine, IdMarca: 'malo-4', IdPuerta: NORTH_DOOR }],
      [fine, { ...fine }],
    ];
    for (const marks of bad) {
      const answer = await batch(marks);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.stack).toBeUndefined();
    }
    const many = Array.from({ length: 1001 }, (_, i) => ({ ...fine, IdMarca: `grande-${i}` }));
    expect((await batch(many)).status).toBe(413);
    const huge = await device('/api/acceso/marcaciones', {
      Marcas: [{ ...fine, Observacion: 'x'.repeat(600_000) }],
    });
    expect(huge.status).toBe(413);
    expect((await markings()).length).toBe(before);
  });

  it('rotates and revokes keys, and switches equipment off: the old key stops on the next call, the new one works', async () => {
    const first = await issue(2);
    expect((await decidir({ IdPuerta: EXIT_DOOR, Credencial: CARD }, first)).status).toBe(200);
    const second = await issue(2);
    expect((await decidir({ IdPuerta: EXIT_DOOR, Credencial: CARD }, first)).status).toBe(401);
    const ok = await decidir({ IdPuerta: EXIT_DOOR, Credencial: CARD }, second);
    expect(ok.status).toBe(200);
    expect(ok.body.result).toMatchObject({ allow: true, direction: 'S' });
    const revoked = await call(t.app, { method: 'DELETE', url: '/api/acceso/equipo/2/clave', token: admin });
    expect(revoked.body.result.revoked).toBe(1);
    expect((await decidir({ IdPuerta: EXIT_DOOR, Credencial: CARD }, second)).status).toBe(401);
    // Revoked by another server process (straight in the database): refused on the next call.
    const elsewhere = await issue(2);
    expect((await decidir({ IdPuerta: EXIT_DOOR, Credencial: CARD }, elsewhere)).status).toBe(200);
    await t.db.database.db
      .updateTable('access_device_key')
      .set({ RevocadoEn: Date.now() })
      .where('IdEquipo', '=', 2)
      .execute();
    expect((await decidir({ IdPuerta: EXIT_DOOR, Credencial: CARD }, elsewhere)).status).toBe(401);
    // An equipment switched off: its key, just used, is refused on the next call.
    const third = await issue(2);
    expect((await decidir({ IdPuerta: EXIT_DOOR, Credencial: CARD }, third)).status).toBe(200);
    await t.db.database.db
      .updateTable('system_equipment')
      .set({ Activo: 'N' })
      .where('IdEquipo', '=', 2)
      .execute();
    await issue(3); // a write elsewhere does not matter; the check reads the equipment
    expect((await decidir({ IdPuerta: EXIT_DOOR, Credencial: CARD }, third)).status).toBe(401);
  });

  if (dialect === 'postgres')
    it('denies within the budget when the database does not answer in time, and keeps nothing', async () => {
      const before = (await markings()).length;
      // The product's own budget (200 ms), on the same database.
      const gate = await buildServer({ database: t.db.database, registry: t.registry });
      const blocker = new pg.Client({ connectionString: t.db.location.databaseUrl });
      await blocker.connect();
      try {
        await blocker.query('begin');
        await blocker.query('lock table access_marking in access exclusive mode');
        const started = Date.now();
        const answer = await call(gate, {
          method: 'POST',
          url: '/api/acceso/decidir',
          payload: { IdPuerta: ENTRY_DOOR, Credencial: CARD },
          headers: { authorization: `Device ${key}` },
        });
        const took = Date.now() - started;
        expect(answer.status).toBe(200);
        expect(answer.body.result).toMatchObject({ allow: false, reason: 'SYSTEM_UNAVAILABLE' });
        expect(took).toBeGreaterThanOrEqual(GATE_DECISION_BUDGET_MS);
        expect(took).toBeLessThan(GATE_DECISION_BUDGET_MS + 400);
      } finally {
        await blocker.query('rollback');
        await blocker.end();
        await gate.close();
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await markings()).length).toBe(before);
    });

  it('serves a signed allow-list a gate verifies offline, and then only its changes', async () => {
    const get = (query: string, deviceKey = key) =>
      call(t.app, {
        method: 'GET',
        url: `/api/acceso/listapermitidos?${query}`,
        headers: { authorization: `Device ${deviceKey}` },
      });
    expect((await get('puntoControl=1', 'eq1.nope')).status).toBe(401);
    expect((await get('puntoControl=5')).status).toBe(400); // another division's control point
    const { publicKey } = (await call(t.app, { method: 'GET', url: '/api/acceso/clave' })).body.result;
    const first = await get('puntoControl=1');
    expect(first.status).toBe(200);
    const { payload, signature, version } = first.body.result;
    expect(
      verify(null, Buffer.from(payload), createPublicKey(publicKey), Buffer.from(signature, 'base64')),
    ).toBe(true);
    expect(
      verify(
        null,
        Buffer.from(payload.replace('"completo":true', '"completo":false')),
        createPublicKey(publicKey),
        Buffer.from(signature, 'base64'),
      ),
    ).toBe(false);
    const list = JSON.parse(payload);
    expect(list).toMatchObject({ puntoControl: 1, version, completo: true });
    const mine = list.entradas.find((e: Json) => e.Titular === `P:${personId}`);
    expect(mine.Credenciales).toContain(CARD);
    expect(mine.Puertas.map((d: Json) => d.IdPuerta)).toEqual([ENTRY_DOOR, EXIT_DOOR]);
    expect(mine.Puertas[0].Intervalos).toContainEqual({ Dia: 1, HoraInicio: '00:00', HoraFin: '23:59' });
    // What a gate app needs to decide alone: the holder's name, the doors, the client, the age limits.
    expect(mine.Nombre).toMatch(/^[^,]+, .+/);
    expect(mine.Hasta >= today && mine.Desde <= today).toBe(true);
    expect(list).toMatchObject({ cliente: 1, division: 1, avisoHoras: 24, limiteHoras: 72 });
    expect(list.puertas.map((d: Json) => [d.IdPuerta, d.Sentido])).toEqual([
      [ENTRY_DOOR, 'E'],
      [EXIT_DOOR, 'S'],
    ]);
    expect(list.denegados.some((d: Json) => d.Titular === `P:${personId}`)).toBe(false);
    // Nothing changed: the same version, no changes.
    const same = JSON.parse((await get(`puntoControl=1&version=${version}`)).body.result.payload);
    expect(same).toMatchObject({ version, completo: false, cambios: [], retirados: [] });
    // The worker's accreditation is suspended: the next version removes it, and only that.
    await t.db.database.db
      .updateTable('accreditation_accreditation')
      .set({ Estado: 'S' })
      .where('IdPersona', '=', personId)
      .where('IdDivision', '=', 1)
      .execute();
    const changed = JSON.parse((await get(`puntoControl=1&version=${version}`)).body.result.payload);
    expect(changed.version).toBe(version + 1);
    expect(changed).toMatchObject({ completo: false, desde: version, cambios: [] });
    expect(changed.retirados).toContain(`P:${personId}`);
    // ...and names the worker among those to turn away, with every card and the state.
    expect(changed.denegados.find((d: Json) => d.Titular === `P:${personId}`)).toMatchObject({
      Estado: 'S',
      Nombre: mine.Nombre,
      Documento: mine.Documento,
      Credenciales: expect.arrayContaining([CARD]),
    });
    await t.db.database.db
      .updateTable('accreditation_accreditation')
      .set({ Estado: 'A' })
      .where('IdPersona', '=', personId)
      .where('IdDivision', '=', 1)
      .execute();
  });

  it('refuses a vehicle whose maintenance of a blocking kind is overdue, at the door and on the offline list', async () => {
    const db = t.db.database.db;
    const vehicleId = Number(vehicle.IdVehiculo);
    const list = async () => (await allowList()).entradas.find((e: Json) => e.Titular === `V:${vehicleId}`);
    const kind = (name: string) =>
      db
        .selectFrom('system_maintenance_type')
        .select(['IdTipoMantenimiento', 'PeriodicidadDias'])
        .where('Descripcion', '=', name)
        .executeTakeFirstOrThrow() as Promise<Json>;
    const preventive = await kind('PREVENTIVO');
    const record = (fields: object) =>
      call(t.app, {
        method: 'POST',
        url: '/api/rest/vehicle-maintenance',
        token: admin,
        payload: {
          IdVehiculo: vehicleId,
          IdTipoMantenimiento: preventive.IdTipoMantenimiento,
          Activo: 'S',
          ...fields,
        },
      });
    // Recorded without a next due day: the kind's period gives it.
    const made = await record({ Fecha: addDays(today, -100) });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.FechaProxima).toBe(addDays(today, -100 + Number(preventive.PeriodicidadDias)));
    await db
      .updateTable('administration_vehicle_maintenance')
      .set({ FechaProxima: addDays(today, -10) })
      .where('IdMantenimientoVehiculo', '=', made.body.IdMantenimientoVehiculo)
      .execute();
    const refused = await decidir({ IdPuerta: ENTRY_DOOR, Credencial: 'TV-PRUEBA-1' });
    expect(refused.body.result).toMatchObject({ allow: false, reason: 'MAINTENANCE_OVERDUE' });
    expect(refused.body.result.message).toBe(`Maintenance overdue: PREVENTIVO (${addDays(today, -10)})`);
    expect((await decidir({ IdPuerta: EXIT_DOOR, Credencial: 'TV-PRUEBA-1' })).body.result).toMatchObject({
      allow: true,
      reason: 'MAINTENANCE_OVERDUE',
    });
    expect(await list()).toBeUndefined();
    // A kind that does not block (corrective) overdue changes nothing; a newer preventive one is what counts.
    const corrective = await kind('CORRECTIVO');
    await record({
      IdTipoMantenimiento: corrective.IdTipoMantenimiento,
      Fecha: addDays(today, -60),
      FechaProxima: addDays(today, -30),
    });
    const renewed = await record({ Fecha: addDays(today, -1), FechaProxima: addDays(today, 5) });
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(201);
    expect((await decidir({ IdPuerta: ENTRY_DOOR, Credencial: 'TV-PRUEBA-1' })).body.result).toMatchObject({
      allow: true,
    });
    expect((await list()).Mantenimiento).toEqual({ Nombre: 'PREVENTIVO', Vence: addDays(today, 5) });
    await db.deleteFrom('administration_vehicle_maintenance').where('IdVehiculo', '=', vehicleId).execute();
    expect((await list()).Mantenimiento).toBeUndefined();
  });

  it('lets a vehicle whose type needs an internal licence in only with a driver who holds one', async () => {
    const db = t.db.database.db;
    const vehicleId = Number(vehicle.IdVehiculo);
    const type = (await db
      .selectFrom('administration_vehicle as v')
      .innerJoin('administration_vehicle_type as t', 't.IdTipoVehiculo', 'v.IdTipoVehiculo')
      .select(['t.IdTipoVehiculo', 't.Descripcion'])
      .where('v.IdVehiculo', '=', vehicleId)
      .executeTakeFirstOrThrow()) as Json;
    const needs = (flag: 'S' | 'N') =>
      db
        .updateTable('administration_vehicle_type')
        .set({ RequiereLicenciaInterna: flag })
        .where('IdTipoVehiculo', '=', type.IdTipoVehiculo)
        .execute();
    await needs('S');
    const alone = await decidir({ IdPuerta: ENTRY_DOOR, Credencial: 'TV-PRUEBA-1' });
    expect(alone.body.result).toMatchObject({ allow: false, reason: 'INTERNAL_LICENCE_MISSING' });
    expect(alone.body.result.message).toBe(`No valid internal licence for ${type.Descripcion}: driver —`);
    const person = (await db
      .selectFrom('administration_person')
      .select(['Apellido', 'Nombre', 'Documento'])
      .where('IdPersona', '=', personId)
      .executeTakeFirstOrThrow()) as Json;
    const unlicensed = await decidir(
      { IdPuerta: ENTRY_DOOR, Credencial: 'TV-PRUEBA-1', Conductor: CARD },
      key,
      'es',
    );
    expect(unlicensed.body.result.message).toBe(
      `Sin licencia interna vigente para ${type.Descripcion}: conductor ${person.Apellido}, ${person.Nombre}`,
    );
    const licence = (await db
      .insertInto('administration_internal_licence')
      .values({
        IdCliente: 1,
        IdPersona: personId,
        NumeroLicencia: '2026990001',
        IdTipoVehiculo: type.IdTipoVehiculo,
        FechaEmision: addDays(today, -100),
        FechaVencimiento: today,
        Activo: 'S',
      } as never)
      .returning('IdLicenciaInterna')
      .executeTakeFirstOrThrow()) as Json;
    // Held to its last day, by the driver's card or document.
    const driven = await decidir({ IdPuerta: ENTRY_DOOR, Credencial: 'TV-PRUEBA-1', Conductor: CARD });
    expect(driven.body.result, JSON.stringify(driven.body)).toMatchObject({ allow: true, reason: 'ALLOWED' });
    const byDocument = await decidir({
      IdPuerta: ENTRY_DOOR,
      Credencial: 'TV-PRUEBA-1',
      Conductor: person.Documento,
    });
    expect(byDocument.body.result).toMatchObject({ allow: true });
    // The offline list: the vehicle asks for its driver, the driver carries the licence.
    const payload = await allowList();
    expect(payload.entradas.find((e: Json) => e.Titular === `V:${vehicleId}`).LicenciaInterna).toEqual({
      IdTipoVehiculo: type.IdTipoVehiculo,
      Tipo: type.Descripcion,
    });
    expect(payload.entradas.find((e: Json) => e.Titular === `P:${personId}`).Licencias).toEqual(
      expect.arrayContaining([{ IdTipoVehiculo: type.IdTipoVehiculo, Vence: today }]),
    );
    await db
      .updateTable('administration_internal_licence')
      .set({ FechaVencimiento: addDays(today, -1) })
      .where('IdLicenciaInterna', '=', licence.IdLicenciaInterna)
      .execute();
    expect(
      (await decidir({ IdPuerta: ENTRY_DOOR, Credencial: 'TV-PRUEBA-1', Conductor: CARD })).body.result,
    ).toMatchObject({
      allow: false,
      reason: 'INTERNAL_LICENCE_MISSING',
    });
    // Out, it is let through with the reason kept.
    expect((await decidir({ IdPuerta: EXIT_DOOR, Credencial: 'TV-PRUEBA-1' })).body.result).toMatchObject({
      allow: true,
      reason: 'INTERNAL_LICENCE_MISSING',
    });
    await db
      .deleteFrom('administration_internal_licence')
      .where('IdLicenciaInterna', '=', licence.IdLicenciaInterna)
      .execute();
    await needs('N');
  });

  it('lists a vehicle with its windscreen card, lets the card through, and names a suspended vehicle to turn away', async () => {
    const db = t.db.database.db;
    const vehicleId = Number(vehicle.IdVehiculo);
    const list = allowList;
    expect((await list()).entradas.find((e: Json) => e.Titular === `V:${vehicleId}`)).toMatchObject({
      Nombre: vehicle.Placa,
      Placa: vehicle.Placa,
      Documento: null,
      Credenciales: ['TV-PRUEBA-1'],
    });
    // Its profile does not check requirements: a lapsed one neither denies it nor rides on the list.
    const profile = () =>
      db.updateTable('access_access_profile').where('Descripcion', '=', 'PRUEBA PERFIL VEHICULAR');
    const lapsed = (await db
      .selectFrom('accreditation_accredited_requirement')
      .select(['IdRequisitoAcreditado', 'FechaVencimiento'])
      .where('IdVehiculo', '=', vehicleId)
      .where('FechaVencimiento', 'is not', null)
      .execute()) as Json[];
    expect(lapsed.length).toBeGreaterThan(0);
    const kept = (await list()).entradas.find((e: Json) => e.Titular === `V:${vehicleId}`);
    expect(kept.Requisito).toBeTruthy();
    await profile().set({ ValidarRequisitos: 'N' }).execute();
    await db
      .updateTable('accreditation_accredited_requirement')
      .set({ FechaVencimiento: addDays(today, -1) })
      .where('IdVehiculo', '=', vehicleId)
      .where('FechaVencimiento', 'is not', null)
      .execute();
    expect(
      (await list()).entradas.find((e: Json) => e.Titular === `V:${vehicleId}`).Requisito,
    ).toBeUndefined();
    await profile().set({ ValidarRequisitos: 'S' }).execute();
    for (const r of lapsed)
      await db
        .updateTable('accreditation_accredited_requirement')
        .set({ FechaVencimiento: r.FechaVencimiento })
        .where('IdRequisitoAcreditado', '=', r.IdRequisitoAcreditado)
        .execute();
    const passed = await decidir({ IdPuerta: ENTRY_DOOR, Credencial: 'TV-PRUEBA-1' });
    expect(passed.body.result, JSON.stringify(passed.body)).toMatchObject({ allow: true, reason: 'ALLOWED' });
    await db
      .updateTable('accreditation_accreditation')
      .set({ Estado: 'S' })
      .where('IdVehiculo', '=', vehicleId)
      .where('IdDivision', '=', 1)
      .execute();
    expect((await list()).denegados.find((d: Json) => d.Titular === `V:${vehicleId}`)).toMatchObject({
      Nombre: vehicle.Placa,
      Placa: vehicle.Placa,
      Estado: 'S',
      Credenciales: ['TV-PRUEBA-1'],
    });
    expect((await decidir({ IdPuerta: ENTRY_DOOR, Credencial: 'TV-PRUEBA-1' })).body.result).toMatchObject({
      allow: false,
      reason: 'ACCREDITATION_SUSPENDED',
    });
  });

  describe('headcount', () => {
    const dashboard = async (token: string) =>
      (await call(t.app, { method: 'GET', url: '/api/acreditacionsolicitud/dashboarddotacion', token })).body
        .result as Json[];
    const detail = (token: string, query: string) =>
      call(t.app, {
        method: 'GET',
        url: `/api/acreditacionsolicitud/dashboarddotaciondetalle?${query}`,
        token,
      });
    const documentOf = async () =>
      (
        (await t.db.database.db
          .selectFrom('administration_person')
          .select('Documento')
          .where('IdPersona', '=', personId)
          .executeTakeFirstOrThrow()) as Json
      ).Documento as string;

    it('counts a worker present after an entry and absent after the exit, with the popups’ rows', async () => {
      const document = await documentOf();
      expect((await decidir({ IdPuerta: ENTRY_DOOR, Credencial: CARD })).body.result.allow).toBe(true);
      const before = await dashboard(admin);
      const [summary] = before[0];
      const present = await detail(admin, 'TipoConsulta=P&TipoEntidad=T&requireTotalCount=true');
      expect(present.status).toBe(200);
      const row = present.body.result.data.find((r: Json) => r.Documento === document);
      expect(row).toMatchObject({ IdPersona: personId, Zona: 'UNIDAD MINERA SAN GABRIEL' });
      expect(row.Permanencia).toBeGreaterThanOrEqual(0);
      expect(present.body.result.totalCount).toBe(summary.PermanenciaTrabajadores);
      const workers = before[1] as Json[];
      expect(workers.find((c) => c.ESTADO === 'P').TOTAL).toBe(summary.PermanenciaTrabajadores);
      expect(workers.find((c) => c.ESTADO === 'A').TOTAL).toBe(
        summary.TotalTrabajadores - summary.PermanenciaTrabajadores,
      );

      expect((await decidir({ IdPuerta: EXIT_DOOR, Credencial: CARD })).body.result.allow).toBe(true);
      const [[after]] = await dashboard(admin);
      expect(after.PermanenciaTrabajadores).toBe(summary.PermanenciaTrabajadores - 1);
      expect(after.TotalTrabajadores).toBe(summary.TotalTrabajadores);
      const absent = await detail(
        admin,
        `TipoConsulta=A&TipoEntidad=T&filter=${encodeURIComponent(JSON.stringify(['Documento', 'contains', document]))}`,
      );
      expect(absent.body.result.data).toHaveLength(1);
      expect(absent.body.result.data[0]).toMatchObject({ Documento: document, FechaMarca: null, Zona: null });
      expect(absent.body.result.data[0].Contrato).toBeTruthy();
    });

    it('pages by 15 by default, sorts, counts, and refuses an unknown sort field', async () => {
      const all = await detail(admin, 'TipoConsulta=A&TipoEntidad=T&requireTotalCount=true');
      expect(all.body.result.data.length).toBe(Math.min(15, all.body.result.totalCount));
      const sorted = await detail(
        admin,
        `TipoConsulta=A&TipoEntidad=T&skip=1&take=2&requireTotalCount=true&sort=${encodeURIComponent(JSON.stringify([{ selector: 'Documento', desc: true }]))}`,
      );
      const documents = all.body.result.data
        .map((r: Json) => r.Documento)
        .sort()
        .reverse();
      expect(sorted.body.result.data.map((r: Json) => r.Documento)).toEqual(documents.slice(1, 3));
      expect(sorted.body.result.totalCount).toBe(all.body.result.totalCount);
      const bad = await detail(admin, `TipoConsulta=A&sort=${encodeURIComponent('[{"selector":"Clave"}]')}`);
      expect(bad.status).toBe(400);
    });

    it('shows a contractor only its company’s people and the client the whole division', async () => {
      const requester = (await signIn(t.app, 'SOLICITANTE', { division: SOUTH })).accessToken;
      // Present and absent together: which of the two a worker is depends on the hour (the demo's
      // shifts overlap at 6:45 and 18:45), being one of them does not.
      const both = async (token: string) => {
        const states = await Promise.all(
          ['P', 'A'].map((state) =>
            detail(token, `TipoConsulta=${state}&TipoEntidad=T&take=1000&requireTotalCount=true`),
          ),
        );
        for (const res of states) expect(res.status).toBe(200);
        const data = states.flatMap((res) => res.body.result.data as Json[]);
        const totalCount = states.reduce((sum, res) => sum + Number(res.body.result.totalCount), 0);
        return { body: { result: { data, totalCount } } };
      };
      const mine = await both(requester);
      const everyone = await both(admin);
      const companies = (await t.db.database.db
        .selectFrom('accreditation_accreditation')
        .select(['IdPersona', 'IdCompania'])
        .where('IdDivision', '=', 1)
        .execute()) as Json[];
      const companyOf = (id: number) =>
        new Set(companies.filter((c) => c.IdPersona === id).map((c) => c.IdCompania));
      const theirs = new Set(mine.body.result.data.flatMap((r: Json) => [...companyOf(r.IdPersona)]));
      expect(theirs.size).toBe(1);
      const others = everyone.body.result.data.filter(
        (r: Json) => !companyOf(r.IdPersona).has([...theirs][0]),
      );
      expect(others.length).toBeGreaterThan(0);
      expect(mine.body.result.totalCount).toBe(everyone.body.result.totalCount - others.length);
      const [[summary]] = await dashboard(requester);
      expect(summary.TotalTrabajadores).toBeLessThan((await dashboard(admin))[0][0].TotalTrabajadores);
    });

    it('calls the roll of a zone and the zones inside it, printable and exportable', async () => {
      const roll = async (query = '', token = admin) =>
        call(t.app, { method: 'GET', url: `/api/acceso/evacuacion${query}`, token });
      const has = (rows: Json[]) => rows.some((r) => r.IdPersona === personId);
      expect((await decidir({ IdPuerta: ENTRY_DOOR, Credencial: CARD })).body.result.allow).toBe(true);
      expect(has((await roll()).body.result)).toBe(true);
      expect(has((await roll('?IdZona=1')).body.result)).toBe(true);
      expect(has((await roll('?IdZona=2')).body.result)).toBe(false);
      const camp = await decidir({ IdPuerta: CAMP_DOOR, Credencial: CARD });
      expect(camp.body.result).toMatchObject({ allow: true, direction: 'E' });
      const inCamp = (await roll('?IdZona=2')).body.result as Json[];
      expect(inCamp.find((r) => r.IdPersona === personId)).toMatchObject({ Zona: 'CAMPAMENTO SAN GABRIEL' });
      expect(has((await roll('?IdZona=1')).body.result)).toBe(true);
      const limaStamp = () => {
        const now = Date.now();
        return new Date(now + zoneOffset('America/Lima', now))
          .toISOString()
          .slice(0, 16)
          .replace(/[-:T]/g, '');
      };
      const before = limaStamp();
      const file = await roll('?formato=xlsx');
      expect(Buffer.from(file.body.result.fileBase64, 'base64').subarray(0, 2).toString()).toBe('PK');
      // Named by the site's time (Lima), not UTC's.
      const stamp = /(\d{12})\.xlsx$/.exec(file.body.result.fileName)?.[1];
      expect([before, limaStamp()]).toContain(stamp);
      expect((await roll('?IdZona=7')).status).toBe(400); // the other division's zone
      const requester = (await signIn(t.app, 'SOLICITANTE', { division: SOUTH })).accessToken;
      const theirs = (await roll('', requester)).body.result as Json[];
      expect(new Set(theirs.map((r) => r.Compania)).size).toBeLessThanOrEqual(1);
      expect(theirs.length).toBeLessThan(((await roll()).body.result as Json[]).length);
      await decidir({ IdPuerta: CAMP_DOOR, Credencial: CARD });
      await decidir({ IdPuerta: EXIT_DOOR, Credencial: CARD });
    });

    it('groups by contract, by organisational unit or not at all, as the division says', async () => {
      const byContract = (await dashboard(admin))[4] as Json[];
      expect(byContract.length).toBeGreaterThan(0);
      const contracts = (await t.db.database.db
        .selectFrom('administration_contract')
        .select('NumeroContrato')
        .execute()) as Json[];
      expect(byContract.every((g) => contracts.some((c) => c.NumeroContrato === g.Grupo))).toBe(true);
      await t.db.database.db
        .updateTable('system_division')
        .set({ ModoDotacion: 'N' })
        .where('IdDivision', '=', 1)
        .execute();
      const none = await dashboard(admin);
      expect(none[4]).toEqual([]);
      expect(none[0][0].ModoDotacion).toBe('N');
      await t.db.database.db
        .updateTable('system_division')
        .set({ ModoDotacion: 'C' })
        .where('IdDivision', '=', 1)
        .execute();
    });
  });

  // Last: it stops the database.
  it('fails closed when the database is stopped: a denial with its reason, never an error', async () => {
    expect((await decidir({ IdPuerta: ENTRY_DOOR, Credencial: CARD })).body.result.allow).toBe(true);
    const database = t.db.database;
    await database.close();
    database.close = async () => {};
    const started = Date.now();
    const answer = await decidir({ IdPuerta: ENTRY_DOOR, Credencial: CARD });
    expect(Date.now() - started).toBeLessThan(400);
    expect(answer.status).toBe(200);
    expect(answer.body.result).toMatchObject({ allow: false, reason: 'SYSTEM_UNAVAILABLE' });
    expect(answer.body.result.message).toBe('The system is not answering: access denied');
    // A key that cannot be checked is denied the same way, not let through nor told it is unknown.
    const unchecked = await decidir({ IdPuerta: ENTRY_DOOR, Credencial: CARD }, 'eq9.never-seen');
    expect(unchecked.status).toBe(200);
    expect(unchecked.body.result.allow).toBe(false);
  });
});
