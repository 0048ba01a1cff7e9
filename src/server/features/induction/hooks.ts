import type { HookMap, Row } from '../../crud/types.js';
import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import { divisionToday } from '../../site.js';
import type { FeatureContext } from '../feature.js';
import { tellBooked } from './notices.js';
import { inductionTables, text } from './tables.js';

/**
 * A booked session keeps its course (its bookings and their records are that course's), and its
 * capacity never goes below the seats taken: the new capacity is written by a conditional update
 * that takes the session's row, so a booking racing the change waits and is held to it.
 */
async function keepBookings(db: Db, table: string, data: Row, existing: Row) {
  const booked = Number(existing.Reservados ?? 0);
  if (booked > 0 && Number(data.IdCurso) !== Number(existing.IdCurso))
    throw invalid('IdCurso', 'induction.rules.courseBooked', { booked });
  const held = await db
    .updateTable(table)
    .set({ Capacidad: Number(data.Capacidad) })
    .where('IdSesion', '=', Number(existing.IdSesion))
    .where((eb) => eb(eb.fn.coalesce('Reservados', eb.lit(0)), '<=', Number(data.Capacidad)))
    .executeTakeFirst();
  if (!Number(held.numUpdatedRows))
    throw invalid('Capacidad', 'induction.rules.belowBooked', {
      booked: Math.max(booked, Number(data.Capacidad) + 1),
    });
}

const invalid = (field: string, messageKey: string, params: Record<string, string | number> = {}) =>
  new ApiError('VALIDATION_FAILED', { fields: { [field]: { messageKey, params } } });

/** What of a session its booked people must hear about when it changes. */
const MOVED = ['Fecha', 'HoraInicio', 'HoraFin', 'Sala'] as const;

/**
 * A session's rules beyond its schema: a new (or moved) session is not in the past; a cancelled
 * one does not change; the capacity is never below the seats booked; the booked are told of a move.
 */
export function inductionHooks({ registry, notifier, now }: FeatureContext): HookMap {
  const t = inductionTables(registry);
  return {
    'training-session': {
      async beforeWrite({ db, data, existing, operation }) {
        if (existing?.Estado === 'X')
          throw new ApiError('BUSINESS_RULE', { messageKey: 'induction.refusals.sessionCancelled' });
        const today = await divisionToday(
          db,
          registry,
          Number(data.IdDivision ?? existing?.IdDivision),
          now(),
        );
        const moved = operation === 'create' || text(data.Fecha) !== text(existing?.Fecha).slice(0, 10);
        if (moved && text(data.Fecha) < today) throw invalid('Fecha', 'induction.rules.sessionPast');
        if (operation === 'create') Object.assign(data, { Reservados: 0, Estado: 'P' });
        if (operation === 'update' && existing) await keepBookings(db, t.session, data, existing);
      },
      async afterWrite({ db, row, existing, operation }) {
        if (operation !== 'update' || !existing || !Number(existing.Reservados)) return;
        if (!MOVED.some((f) => text(row[f]).slice(0, 10) !== text(existing[f]).slice(0, 10))) return;
        await tellBooked(db, t, notifier, movedNotice(row, existing));
      },
    },
  };
}

function movedNotice(row: Row, before: Row) {
  const when = (r: Row) =>
    `${text(r.Fecha).slice(0, 10)} ${text(r.HoraInicio)}–${text(r.HoraFin)}, ${text(r.Sala)}`;
  return {
    clientId: Number(row.IdCliente),
    sessionId: Number(row.IdSesion),
    subject: 'Sesión de inducción reprogramada / Induction session moved',
    text: [
      `La sesión de inducción del ${when(before)} se trasladó al ${when(row)}. Sus reservas se mantienen.`,
      `The induction session of ${when(before)} was moved to ${when(row)}. Its bookings stand.`,
    ].join('\n\n'),
  };
}
