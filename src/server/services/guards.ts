import { inChunks } from '../db/chunks.js';
import type { Db } from '../db/connection.js';

/**
 * A person's guard (the crew they rotate with, Administration > Guard) under its regime
 * (Administration > Regime): the day its cycle starts and the regime's days of work and rest. A
 * roster of N×M counts from the guard's start, so guards A, B and C of a 14×7 change on different days.
 */
export interface GuardCycle {
  IdPersona: number;
  /** The guard's first day of work (yyyy-mm-dd). */
  start: string;
  on: number;
  off: number;
  /** D day, N night. */
  shift: string;
}

/** The tables a guard's cycle is read from (the person's, the guard's and the regime's). */
export interface GuardTables {
  person: string;
  guard: string;
  regime: string;
}

const day = (value: unknown) => String(value).slice(0, 10);

/** The active guards (with an active regime) of people, by person: `ids`, or every person of the client who has one. */
export async function guardCycles(
  db: Db,
  tables: GuardTables,
  who: { clientId: number; ids?: number[] },
): Promise<Map<number, GuardCycle>> {
  const query = (ids?: number[]) =>
    db
      .selectFrom(`${tables.person} as p`)
      .innerJoin(`${tables.guard} as g`, 'g.IdGuardia', 'p.IdGuardia')
      .innerJoin(`${tables.regime} as r`, 'r.IdRegimen', 'g.IdRegimen')
      .select(['p.IdPersona', 'g.FechaInicioCiclo', 'g.Turno', 'r.DiasTrabajo', 'r.DiasDescanso'])
      .where('p.IdCliente', '=', who.clientId)
      .where('g.Activo', '=', 'S')
      .where('r.Activo', '=', 'S')
      .$if(ids !== undefined, (qb) => qb.where('p.IdPersona', 'in', ids as number[]))
      .execute() as Promise<Array<Record<string, unknown>>>;
  const rows = who.ids ? await inChunks(who.ids, query) : await query();
  const out = new Map<number, GuardCycle>();
  for (const r of rows) {
    const on = Number(r.DiasTrabajo ?? 0);
    if (on <= 0) continue;
    out.set(Number(r.IdPersona), {
      IdPersona: Number(r.IdPersona),
      start: day(r.FechaInicioCiclo),
      on,
      off: Number(r.DiasDescanso ?? 0),
      shift: String(r.Turno ?? 'D'),
    });
  }
  return out;
}
