import { describe, expect, it } from 'vitest';
import { cycleWorks } from '../../src/shared/attendance.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { DIALECTS } from '../support/databases.js';
import { accreditCrew } from '../support/lodging.js';
import { divisionNamed } from '../support/transport.js';
import { world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';

/** Whole days from `a` to `b` (yyyy-mm-dd). */
const daysBetween = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / 86_400_000);

/**
 * A person's guard and regime act (Administration > Guard, Regime): a roster (14×7) counts from
 * the person's guard's first day when it names none of its own, in the attendance schedule and in
 * the transport proposal; and a person with a guard but no roster of their own goes up on the
 * guard's first day of work and down on its first day of rest.
 */
describe.each(DIALECTS)('guards and regimes on %s', (dialect) => {
  const w = world(dialect, {
    users: { admin: 'ADMIN', coordinator: 'TRANSPORTE' },
    division: SOUTH,
    ready: async () => {
      const db = w.db();
      const south = await divisionNamed(db, SOUTH);
      crew = (await accreditCrew(db, { company: 'SERMIPAC', division: south, count: 3, prefix: 'GU', today }))
        .people;
      const regime = (await db
        .selectFrom(w.table('regime'))
        .select('IdRegimen')
        .where('Descripcion', '=', '14X7')
        .executeTakeFirstOrThrow()) as Json;
      const made = await w.as('admin', 'POST', '/api/rest/guard', {
        Descripcion: 'GUARDIA PRUEBA',
        IdRegimen: regime.IdRegimen,
        FechaInicioCiclo: guardStart,
        Turno: 'D',
        Activo: 'S',
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      await db
        .updateTable(w.table('person'))
        .set({ IdGuardia: made.body.IdGuardia, IdRegimen: regime.IdRegimen })
        .where('IdPersona', 'in', crew)
        .execute();
      cycle = (await db
        .selectFrom(w.table('schedule-type'))
        .select('IdTipoHorario')
        .where('Descripcion', '=', 'GUARDIA DÍA 14X7')
        .executeTakeFirstOrThrow()) as Json;
    },
  });
  const today = siteDate('PE');
  // The guard's cycle starts so that ten days on is a first day of work.
  const D = addDays(today, 10);
  const guardStart = addDays(D, -21);
  // A roster's own start 18 days off the guard's: counted from it, D is no change day.
  const rosterStart = addDays(D, -60);
  let crew: number[];
  let cycle: Json;

  const assign = (person: number, anchor: string | null) =>
    w
      .db()
      .insertInto(w.table('schedule-assignment'))
      .values({
        IdCliente: 1,
        IdPersona: person,
        IdTipoHorario: cycle.IdTipoHorario,
        FechaInicio: rosterStart,
        FechaAncla: anchor,
        Activo: 'S',
      } as never)
      .execute();
  const proposed = async (day: string) => {
    const answer = await w.as('coordinator', 'GET', `/api/transporte/propuesta?fecha=${day}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const all = [
      ...answer.body.result.sinAsiento,
      ...answer.body.result.viajes.flatMap((v: Json) =>
        v.propuestos.map((p: Json) => ({ ...p, Sentido: v.Sentido })),
      ),
    ] as Json[];
    return new Map(all.filter((p) => crew.includes(p.IdPersona)).map((p) => [p.IdPersona, p.Sentido]));
  };

  it('moves people with a guard and no roster on its change days; a roster without its own anchor counts from the guard', async () => {
    const [byGuard, anchoredByGuard, ownAnchor] = crew;
    expect(daysBetween(guardStart, rosterStart) % 21).not.toBe(0);
    await assign(anchoredByGuard, null);
    await assign(ownAnchor, rosterStart);
    const up = await proposed(D);
    expect(up.get(byGuard)).toBe('S');
    expect(up.get(anchoredByGuard)).toBe('S');
    expect(up.has(ownAnchor)).toBe(false);
    const down = await proposed(addDays(D, 14));
    expect(down.get(byGuard)).toBe('B');
    expect(down.get(anchoredByGuard)).toBe('B');
    expect(down.has(ownAnchor)).toBe(false);
    // A day in the middle of the shift moves nobody of them.
    expect((await proposed(addDays(D, 5))).size).toBe(0);
  });

  it('plans the attendance of a roster without its own anchor from the guard’s first day', async () => {
    const [, anchoredByGuard, ownAnchor] = crew;
    const from = addDays(today, -13);
    const to = addDays(today, -1);
    const computed = await w.as('admin', 'POST', '/api/asistencia/calcular', { desde: from, hasta: to });
    expect(computed.status, JSON.stringify(computed.body)).toBe(200);
    const plan = async (person: number) =>
      (
        await w.as('admin', 'GET', `/api/asistencia/personas/${person}/dias?desde=${from}&hasta=${to}`)
      ).body.result.dias.map((d: Json) => d.Estado === 'REST');
    const expected = (anchor: string) =>
      Array.from({ length: 13 }, (_, i) => !cycleWorks(anchor, addDays(from, i), 14, 7));
    const byGuard = await plan(anchoredByGuard);
    expect(byGuard).toEqual(expected(guardStart));
    expect(await plan(ownAnchor)).toEqual(expected(rosterStart));
    expect(byGuard).not.toEqual(expected(rosterStart));
  });
});
