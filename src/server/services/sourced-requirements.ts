import { addDays } from '../../shared/dates.js';
import type { Db } from '../db/connection.js';
import type { Registry } from '../registry.js';

/** A record of a requirement source that no longer holds (an induction's result changed to a fail). */
export interface SourceEnded {
  /** The source's name, as it proves requirements ('induction'). */
  source: string;
  /** Its record (the induction record's IdRegistro). */
  ref: string | number;
  /** The first day the record no longer holds (yyyy-mm-dd, the site's day of the change). */
  on: string;
}

/** Requests whose lines are still open to the record's end: not yet answered. */
const OPEN = ['I', 'P', 'O'];

/**
 * Ends what a source's record proved, in the caller's transaction: every requirement value kept
 * from it, and every line of a request not yet answered that it filled, expires the day before
 * `on` (its last valid day, as the record's VenceEl is), unless it expires earlier already. The
 * daily expiry job then notices the expiry and suspends the accreditation of a mandatory
 * requirement as for any other; a pending request approved later keeps the ended expiry. Answers
 * how many kept values it ended.
 */
export async function endSourcedRequirements(
  db: Db,
  registry: Registry,
  ended: SourceEnded,
): Promise<number> {
  const last = addDays(ended.on, -1);
  const lapse = (resource: string) =>
    db
      .updateTable(registry.require(resource).table)
      .set({ FechaVencimiento: last })
      .where('Fuente', '=', ended.source)
      .where('ReferenciaFuente', '=', String(ended.ref))
      .where((eb) => eb.or([eb('FechaVencimiento', 'is', null), eb('FechaVencimiento', '>', last)]));
  const kept = await lapse('accredited-requirement').executeTakeFirst();
  await lapse('request-detail')
    .where(
      'IdSolicitud',
      'in',
      db
        .selectFrom(registry.require('request').table)
        .select('IdSolicitud')
        .where('EstadoAprobacion', 'in', OPEN),
    )
    .execute();
  return Number(kept.numUpdatedRows);
}
