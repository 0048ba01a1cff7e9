import { describe, expect, it } from 'vitest';
import { applyPayload, decideOffline, indexList, type Payload } from '../../src/client/garita/offline.js';
import { verifyingKey } from '../../src/shared/badge-token.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { admitRoundTheClock } from '../support/access.js';
import { call } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { type World, world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary rows
type Json = any;

const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const ENTRY_DOOR = 1; // turnstile in, main gate, in the zone UNIDAD MINERA SAN GABRIEL (control point 1)
const EXIT_DOOR = 2; // turnstile out, main gate
const COURSE = 'TRABAJOS EN ALTURA (PRUEBA)';

/**
 * A demo worker of the south let through the main gate round the clock, a course of the test's own
 * whose zone is the main gate's (the whole mine), and a device key of the main gate's turnstile.
 */
async function arrange(w: World) {
  const db = w.db();
  const today = siteDate('PE');
  const worker = (await db
    .selectFrom('accreditation_accreditation as a')
    .innerJoin(`${w.table('person')} as p`, 'p.IdPersona', 'a.IdPersona')
    .select(['p.IdPersona', 'p.Documento', 'p.IdCompania'])
    .where('a.IdDivision', '=', 1)
    .where('a.IdEntidad', '=', 'T')
    .orderBy('a.IdAcreditacion')
    .executeTakeFirstOrThrow()) as Json;
  await admitRoundTheClock(db, Number(worker.IdPersona), today, [ENTRY_DOOR, EXIT_DOOR]);
  const { IdZona } = (await db
    .selectFrom(w.table('door'))
    .select('IdZona')
    .where('IdPuerta', '=', ENTRY_DOOR)
    .executeTakeFirstOrThrow()) as Json;
  const course = (await db
    .insertInto(w.table('course'))
    .values({
      IdCliente: 1,
      IdDivision: 1,
      Codigo: 'PRUEBA-ALT',
      Nombre: COURSE,
      NombreIngles: 'WORK AT HEIGHT (TEST)',
      Tipo: 'E',
      Modalidad: 'P',
      Idiomas: 'ES',
      Horas: 8,
      NotaMinima: 70,
      VigenciaMeses: 12,
      Activo: 'S',
    })
    .returning('IdCurso')
    .executeTakeFirstOrThrow()) as Json;
  const zones = w.registry.require('course').references.find((r) => r.field === 'Zonas')?.many;
  if (!zones) throw new Error('course has no zone links');
  await db
    .insertInto(zones.table)
    .values({ [zones.owner]: course.IdCurso, [zones.value]: IdZona })
    .execute();
  const key = (await w.as('admin', 'POST', '/api/acceso/equipo/1/clave')).body.result.key as string;
  return { worker, courseId: Number(course.IdCurso), key, today };
}

describe.each(DIALECTS)('a door whose zone requires an induction, on %s', (dialect) => {
  let a: Awaited<ReturnType<typeof arrange>>;
  const w = world(dialect, {
    users: { admin: 'ADMIN' },
    division: SOUTH,
    // What the gate decides, not how fast (as in access-device.test.ts).
    gateDecisionBudgetMs: 60_000,
    ready: async (self) => {
      a = await arrange(self);
    },
  });

  const device = (url: string, payload?: object, language = 'en') =>
    call(w.app, {
      method: payload ? 'POST' : 'GET',
      url,
      payload,
      headers: { authorization: `Device ${a.key}`, 'accept-language': language },
    });
  const decidir = async (IdPuerta: number, language = 'en') => {
    const answer = await device('/api/acceso/decidir', { IdPuerta, Documento: a.worker.Documento }, language);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.result;
  };
  /** The worker's record of the course: none, or valid to a day, in a state (V valid, R revoked). */
  const record = async (until?: string, Estado = 'V') => {
    const { worker, courseId, today } = a;
    const table = w.table('induction-record');
    await w.db().deleteFrom(table).where('IdPersona', '=', worker.IdPersona).execute();
    if (until === undefined) return;
    await w
      .db()
      .insertInto(table)
      .values({
        IdCliente: 1,
        IdDivision: 1,
        IdPersona: worker.IdPersona,
        IdCompania: worker.IdCompania,
        IdCurso: courseId,
        Fecha: addDays(today, -30),
        Nota: 90,
        VenceEl: until,
        Modalidad: 'P',
        Estado,
      })
      .execute();
  };

  it('refuses a worker without it with INDUCTION_MISSING, naming the course in both languages, and lets them out', async () => {
    await record(undefined);
    expect(await decidir(ENTRY_DOOR)).toMatchObject({
      allow: false,
      reason: 'INDUCTION_MISSING',
      params: { name: COURSE },
      message: `Missing the valid induction this door requires: ${COURSE}`,
    });
    expect((await decidir(ENTRY_DOOR, 'es')).message).toBe(
      `Le falta la inducción vigente que exige esta puerta: ${COURSE}`,
    );
    const stored = (await w
      .db()
      .selectFrom(w.table('marking'))
      .select(['Resultado', 'CodigoMotivo'])
      .where('IdPersona', '=', a.worker.IdPersona)
      .orderBy('IdMarcacion', 'desc')
      .executeTakeFirstOrThrow()) as Json;
    expect(stored).toEqual({ Resultado: 'D', CodigoMotivo: 'INDUCTION_MISSING' });
    // Nobody is kept inside for it: the exit lets them out, the reason kept.
    expect(await decidir(EXIT_DOOR)).toMatchObject({
      allow: true,
      reason: 'INDUCTION_MISSING',
      lenientExit: true,
    });
  });

  it('lets the worker through with a valid record, and refuses again once it expired or was revoked', async () => {
    const { today, worker } = a;
    await record(today);
    expect(await decidir(ENTRY_DOOR)).toMatchObject({ allow: true, reason: 'ALLOWED' });
    await record(addDays(today, -1));
    expect(await decidir(ENTRY_DOOR)).toMatchObject({ allow: false, reason: 'INDUCTION_MISSING' });
    await record(addDays(today, 300), 'R');
    expect(await decidir(ENTRY_DOOR)).toMatchObject({ allow: false, reason: 'INDUCTION_MISSING' });
    // The worker's effective access (the console's view of the same decision) says so too.
    const effective = await w.as('admin', 'GET', `/api/acceso/accesoefectivo?IdPersona=${worker.IdPersona}`);
    expect(
      effective.body.result.puertas.find((d: Json) => d.IdPuerta === ENTRY_DOOR),
      JSON.stringify(effective.body),
    ).toMatchObject({ Permitido: 'N', Motivo: 'INDUCTION_MISSING' });
  });

  it('puts the course on the signed allow-list, and the gate offline decides as the server does', async () => {
    const { worker, courseId, today } = a;
    const { publicKey } = (await call(w.app, { method: 'GET', url: '/api/acceso/clave' })).body.result;
    const key = await verifyingKey(publicKey);
    const offline = async (at = new Date()) => {
      const list = await device('/api/acceso/listapermitidos?puntoControl=1');
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      const held = applyPayload(undefined, JSON.parse(list.body.result.payload) as Payload);
      if (!held) throw new Error('a whole list was expected');
      const entry = held.entradas.find((e) => e.Titular === `P:${worker.IdPersona}`);
      const answer = await decideOffline(
        indexList(held),
        { kind: 'document', Documento: String(worker.Documento) },
        'E',
        at,
        key,
      );
      return { door: entry?.Puertas.find((d) => d.IdPuerta === ENTRY_DOOR), answer };
    };
    const course = { Tipo: 'induction', Id: courseId, Nombre: COURSE };
    for (const until of [undefined, addDays(today, -1), today]) {
      await record(until);
      const { door, answer } = await offline();
      expect(door?.Requiere, String(until)).toEqual([until ? { ...course, Vence: until } : course]);
      const server = await decidir(ENTRY_DOOR);
      expect({ reason: answer.reason, allow: answer.allow }, String(until)).toEqual({
        reason: server.reason,
        allow: server.allow,
      });
      expect(answer.reason).toBe(until === today ? 'ALLOWED' : 'INDUCTION_MISSING');
    }
    // Held to today only: the gate, still offline tomorrow, refuses naming the course.
    const tomorrow = new Date(Date.now() + 24 * 3_600_000);
    expect((await offline(tomorrow)).answer).toMatchObject({
      allow: false,
      reason: 'INDUCTION_MISSING',
      params: { name: COURSE },
    });
  });
});
