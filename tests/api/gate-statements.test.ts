/**
 * The gate's decision in a handful of statements, counted (not timed): the device's key, what was
 * presented with its holder's rows in one statement, and the marking with the presence it moves
 * and the day it marks in one write (PostgreSQL: one statement). The door and the division's access
 * configuration are the gate's kept copies. Counted on an app without the attendance area, whose
 * recomputation of marked days would run beside it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURES } from '../../src/server/features/index.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { admitRoundTheClock } from '../support/access.js';
import { call, signIn, startTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary rows
type Json = any;
const ENTRY_DOOR = 1; // turnstile in, main gate (division 1)
const EXIT_DOOR = 2; // turnstile out, main gate
const CARD = 'CONTEO-0001';

describe.each(DIALECTS)('the statements of a gate decision on %s', (dialect) => {
  let t: TestApp;
  let key: string;
  let personId: number;
  const today = siteDate('PE');

  beforeAll(async () => {
    t = await startTestApp(dialect, {
      gateDecisionBudgetMs: 60_000,
      features: FEATURES.filter((f) => f.name !== 'attendance'),
    });
    const admin = (await signIn(t.app, 'ADMIN', { division: 'UNIDAD MINERA SAN GABRIEL' })).accessToken;
    const db = t.db.database.db;
    const accreditation = (await db
      .selectFrom('accreditation_accreditation')
      .select('IdPersona')
      .where('IdDivision', '=', 1)
      .where('IdEntidad', '=', 'T')
      .where('IdPersona', 'is not', null)
      .orderBy('IdAcreditacion')
      .executeTakeFirstOrThrow()) as Json;
    personId = Number(accreditation.IdPersona);
    await admitRoundTheClock(db, personId, today, [ENTRY_DOOR, EXIT_DOOR]);
    const card = (await db
      .selectFrom('identification_credential')
      .selectAll()
      .executeTakeFirstOrThrow()) as Json;
    await db
      .insertInto('identification_credential')
      .values({
        IdCliente: 1,
        TipoTitular: 'P',
        IdPersona: personId,
        IdTipoCredencial: card.IdTipoCredencial,
        Numero: CARD,
        FechaInicio: addDays(today, -10),
        FechaFin: addDays(today, 60),
        Impreso: 'S',
        IdMotivoEmision: card.IdMotivoEmision,
        Activo: 'S',
      })
      .execute();
    key = (await call(t.app, { method: 'POST', url: '/api/acceso/equipo/1/clave', token: admin })).body.result
      .key;
  });
  afterAll(async () => {
    await t?.close();
  });

  const decide = async (door: number) => {
    const statements: string[] = [];
    const stop = t.db.database.onStatement((text) => statements.push(text));
    try {
      const answer = await call(t.app, {
        method: 'POST',
        url: '/api/acceso/decidir',
        payload: { IdPuerta: door, Credencial: CARD },
        headers: { authorization: `Device ${key}` },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return { result: answer.body.result, statements };
    } finally {
      stop();
    }
  };

  it('decides at the entry and the exit in a handful of statements, and writes what it did', async () => {
    // The first decisions keep the doors and the division's configuration.
    expect((await decide(ENTRY_DOOR)).result.allow).toBe(true);
    expect((await decide(EXIT_DOOR)).result.allow).toBe(true);
    const most = dialect === 'postgres' ? 5 : 8;
    for (const [door, direction] of [
      [EXIT_DOOR, 'S'],
      [ENTRY_DOOR, 'E'],
    ] as const) {
      const { result, statements } = await decide(door);
      expect(result.allow).toBe(true);
      expect(result.direction).toBe(direction);
      expect(statements.length, statements.map((s, i) => `${i + 1}. ${s}`).join('\n')).toBeLessThanOrEqual(
        most,
      );
      const db = t.db.database.db;
      const marking = (await db
        .selectFrom('access_marking')
        .selectAll()
        .where('IdMarcacion', '=', result.IdMarcacion)
        .executeTakeFirstOrThrow()) as Json;
      expect(marking).toMatchObject({
        IdPersona: personId,
        IdPuerta: door,
        Funcion: direction,
        Resultado: 'P',
      });
      const presence = (await db
        .selectFrom('access_presence')
        .selectAll()
        .where('Titular', '=', `P:${personId}`)
        .executeTakeFirstOrThrow()) as Json;
      expect(Number(presence.IdMarcacion)).toBe(result.IdMarcacion);
      expect(presence.Funcion).toBe(direction);
      const day = await db
        .selectFrom('access_marked_day')
        .select('Version')
        .where('IdPersona', '=', personId)
        .where('Fecha', '=', marking.Fecha)
        .executeTakeFirst();
      expect(day).toBeDefined();
    }
  });
});
