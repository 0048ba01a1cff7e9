import { Button, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { type GridColumn, LocalGrid, personColumn } from '../../components/grid/Grid.js';
import { formatDateTime } from '../../format.js';
import type { Seat } from './api.js';
import { SeatStateChip } from './StateChips.js';

/** A seat's state, and under it why: an exception's reason, a released seat's. */
function SeatState({ seat }: { seat: Seat }) {
  const translate = useTranslate();
  const why =
    seat.Estado === 'L' && seat.Motivo
      ? translate(`transport.released.${seat.Motivo}`, { _: seat.Motivo })
      : seat.Excepcion
        ? `${translate('transport.screens.trip.exception')}: ${seat.Motivo ?? ''}`
        : undefined;
  return (
    <span>
      <SeatStateChip state={seat.Estado} />
      {why && (
        <Typography component="span" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
          {why}
        </Typography>
      )}
    </span>
  );
}

/**
 * A trip's seats: seat, person, company, state, when they boarded (and, for the coordinator, the
 * emergency contact); a booked seat of an open trip may be cancelled (`onCancel`).
 */
export function TripSeats({
  seats,
  onCancel,
  emergency,
  busy,
}: {
  seats: Seat[];
  onCancel?(seat: Seat): void;
  emergency?: boolean;
  busy?: boolean;
}) {
  const translate = useTranslate();
  const text = (key: string) => translate(`transport.screens.trip.${key}`);
  const columns: GridColumn<Seat>[] = [
    personColumn<Seat>(text('person')),
    { id: 'Asiento', label: text('seat'), render: (s) => <span data-seat={s.Documento}>{s.Asiento}</span> },
    { id: 'Compania', label: text('company') },
    { id: 'Estado', label: text('state'), render: (s) => <SeatState seat={s} /> },
    { id: 'FechaAbordaje', label: text('boardedAt'), render: (s) => formatDateTime(s.FechaAbordaje) },
  ];
  if (emergency) columns.push({ id: 'Emergencia', label: text('emergency') });
  if (onCancel)
    columns.push({
      id: 'actions',
      label: '',
      align: 'right',
      render: (s) =>
        s.Estado === 'R' ? (
          <Button
            size="small"
            color="error"
            disabled={busy}
            onClick={() => onCancel(s)}
            data-cancel={s.Documento}
          >
            {text('cancelSeat')}
          </Button>
        ) : null,
    });
  return (
    <LocalGrid
      label={text('seats')}
      columns={columns}
      rows={seats}
      perPage={100}
      rowKey={(s) => s.IdReserva}
      empty={text('noSeats')}
      paged={seats.length > 100}
      testId="trip-seats"
    />
  );
}
