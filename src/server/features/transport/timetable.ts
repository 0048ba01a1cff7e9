import { changeDays, rosterMove, TIMETABLE_MAX, type TimetablePlan } from '../../../shared/transport.js';
import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import type { Registry } from '../../registry.js';
import type { Books } from './bookings.js';
import { checkTrip } from './hooks.js';
import type { TransportOffice } from './office.js';
import type { Row } from './tables.js';
import { refusal } from './trips.js';

export type Timetable = TimetablePlan;

/** The roster's days of work and rest (a cycle schedule of the client), or a field error. */
async function roster(db: Db, table: string, clientId: number, id: number) {
  const row = (await db
    .selectFrom(table)
    .select(['Tipo', 'DiasTrabajo', 'DiasDescanso'])
    .where('IdTipoHorario', '=', id)
    .where('IdCliente', '=', clientId)
    .executeTakeFirst()) as Row | undefined;
  if (row?.Tipo !== 'C' || !Number(row.DiasTrabajo) || !Number(row.DiasDescanso))
    throw new ApiError('VALIDATION_FAILED', {
      fields: { IdTipoHorario: { messageKey: 'transport.rules.notRoster' } },
    });
  return { on: Number(row.DiasTrabajo), off: Number(row.DiasDescanso) };
}

/**
 * Makes the trips of a roster's change days in a period, in one transaction: each checked as a trip
 * made by hand (not in the past, bus and driver fit and free); one refused, none made.
 */
export async function makeTimetable(
  { db, t }: Books,
  registry: Registry,
  office: TransportOffice,
  plan: Timetable,
  now: number,
) {
  const { on, off } = await roster(db, t.scheduleType, office.clientId, plan.IdTipoHorario);
  const days = changeDays(plan.FechaAncla, on, off, plan.desde, plan.hasta).filter(
    (d) => rosterMove(plan.FechaAncla, d, on, off) === plan.Sentido,
  );
  if (!days.length) throw refusal('noChangeDays');
  if (days.length > TIMETABLE_MAX) throw refusal('timetableTooLong', { max: TIMETABLE_MAX });
  return db.transaction().execute(async (trx) => {
    const made: Array<{ IdViaje: number; Fecha: string }> = [];
    for (const Fecha of days) {
      const data: Row = {
        IdCliente: office.clientId,
        IdDivision: office.divisionId,
        IdRuta: plan.IdRuta,
        Fecha,
        Hora: plan.Hora,
        Sentido: plan.Sentido,
        IdBus: plan.IdBus,
        IdConductor: plan.IdConductor,
      };
      const bus = await checkTrip(trx, registry, t, data, undefined, now).catch((error: unknown) => {
        if (!(error instanceof ApiError)) throw error;
        throw new ApiError(error.code, {
          messageKey: 'transport.refusals.timetableDay',
          params: { date: Fecha },
          fields: error.fields ?? {
            Fecha: {
              messageKey: error.messageKey ?? 'transport.refusals.timetableDay',
              params: error.params,
            },
          },
        });
      });
      const [row] = (await trx
        .insertInto(t.trip)
        .values({ ...data, Asientos: bus.Asientos, Reservados: 0, Abordados: 0, Estado: 'P' })
        .returning('IdViaje')
        .execute()) as Row[];
      made.push({ IdViaje: Number(row.IdViaje), Fecha });
    }
    return { viajes: made };
  });
}
