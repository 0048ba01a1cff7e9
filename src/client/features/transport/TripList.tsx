import { Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { type GridColumn, LocalGrid } from '../../components/grid/Grid.js';
import type { Trip } from './api.js';
import { TripStateChip } from './StateChips.js';

/** A trip's route and direction: the code and name, the direction under them. */
function RouteCell({ trip }: { trip: Trip }) {
  const translate = useTranslate();
  return (
    <span data-trip={trip.IdViaje}>
      {`${trip.Hora} · ${trip.RutaCodigo}`}
      <Typography component="span" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
        {`${trip.Ruta} · ${translate(`enums.tripDirection.${trip.Sentido}`)}`}
      </Typography>
    </span>
  );
}

/** The columns every list of trips shows: route, bus, driver, seats and state. */
export function useTripColumns(): GridColumn<Trip>[] {
  const translate = useTranslate();
  const field = (name: string) => translate(`resources.trip.fields.${name}`);
  return [
    { id: 'Ruta', label: field('IdRuta'), render: (v) => <RouteCell trip={v} /> },
    { id: 'Placa', label: field('IdBus') },
    { id: 'Conductor', label: field('IdConductor') },
    {
      id: 'Asientos',
      label: translate('transport.screens.common.seats'),
      render: (v) => (
        <span data-seats={v.IdViaje}>
          {translate('transport.screens.common.seatsValue', {
            booked: v.Reservados,
            seats: v.Asientos,
            boarded: v.Abordados,
          })}
          <Typography component="span" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
            {translate('transport.screens.common.free', { smart_count: v.Libres })}
          </Typography>
        </span>
      ),
    },
    { id: 'Estado', label: field('Estado'), render: (v) => <TripStateChip state={v.Estado} /> },
  ];
}

/** A day's trips, each opening its page (`onOpen`), or with the screen's own action (`action`). */
export function TripList({
  trips,
  empty,
  onOpen,
  action,
  testId,
}: {
  trips: Trip[] | undefined;
  empty: string;
  onOpen?(trip: Trip): void;
  action?(trip: Trip): ReactNode;
  testId: string;
}) {
  const translate = useTranslate();
  const columns = useTripColumns();
  if (action) columns.push({ id: 'action', label: '', align: 'right', render: action });
  return (
    <LocalGrid
      label={translate('resources.trip.name', { smart_count: 2 })}
      columns={columns}
      rows={trips}
      perPage={100}
      paged={false}
      rowKey={(v) => v.IdViaje}
      onRowClick={onOpen}
      empty={empty}
      testId={testId}
    />
  );
}
