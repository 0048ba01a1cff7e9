import { Box, Card, CardContent, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { OnTheRoad, Trip } from './api.js';
import { TripStateChip } from './StateChips.js';

/** A trip's seats as a bar: boarded, booked still to board, free. */
function SeatsBar({ trip }: { trip: Trip }) {
  const translate = useTranslate();
  const share = (n: number) => `${trip.Asientos ? (n / trip.Asientos) * 100 : 0}%`;
  const waiting = Math.max(0, trip.Reservados - trip.Abordados);
  const label = translate('transport.screens.board.bar', {
    boarded: trip.Abordados,
    booked: trip.Reservados,
    free: trip.Libres,
    seats: trip.Asientos,
  });
  return (
    <Box>
      <Box
        role="img"
        aria-label={label}
        sx={{ display: 'flex', height: 10, borderRadius: 1, overflow: 'hidden', bgcolor: 'grey.300' }}
      >
        <Box sx={{ width: share(trip.Abordados), bgcolor: 'success.main' }} />
        <Box sx={{ width: share(waiting), bgcolor: 'info.main' }} />
      </Box>
      <Typography variant="caption" color="text.secondary" data-bar={trip.IdViaje}>
        {label}
      </Typography>
    </Box>
  );
}

/** A trip of the board: hour, route and direction, bus and driver, state, and its seats. */
export function BoardTrip({ trip }: { trip: Trip }) {
  const translate = useTranslate();
  return (
    <Card variant="outlined" data-board-trip={trip.IdViaje} data-state={trip.Estado}>
      <CardContent sx={{ display: 'grid', gap: 1 }}>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', justifyContent: 'space-between' }}>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
              {`${trip.Hora} · ${trip.RutaCodigo}`}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {`${trip.Ruta} · ${translate(`enums.tripDirection.${trip.Sentido}`)}`}
            </Typography>
          </Box>
          <TripStateChip state={trip.Estado} />
        </Box>
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          {`${trip.Placa} · ${trip.Conductor}`}
        </Typography>
        <SeatsBar trip={trip} />
      </CardContent>
    </Card>
  );
}

/** Who is on the road now, a card per trip (its bus and route) with its passengers by seat. */
export function OnTheRoadNow({ people }: { people: OnTheRoad[] }) {
  const translate = useTranslate();
  const text = (key: string, options?: object) => translate(`transport.screens.board.${key}`, options);
  const trips = new Map<number, OnTheRoad[]>();
  for (const p of people) trips.set(p.IdViaje, [...(trips.get(p.IdViaje) ?? []), p]);
  if (!people.length)
    return (
      <Typography color="text.secondary" data-testid="on-the-road-empty">
        {text('nobodyOnTheRoad')}
      </Typography>
    );
  return (
    <Stack spacing={2}>
      {[...trips].map(([trip, riders]) => (
        <Card variant="outlined" key={trip} data-bus={riders[0].Placa} data-trip={trip}>
          <CardContent sx={{ pb: 1 }}>
            <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
              {`${riders[0].Placa} · ${riders[0].Ruta}`}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {text('riders', { smart_count: riders.length })}
            </Typography>
            <List dense disablePadding>
              {riders.map((r) => (
                <ListItem key={r.IdPersona} disableGutters data-rider={r.Documento}>
                  <ListItemText
                    primary={`${translate('transport.screens.noShows.seat', { seat: r.Asiento })} · ${r.Persona}`}
                    secondary={`${r.Documento} · ${r.Compania}`}
                  />
                </ListItem>
              ))}
            </List>
          </CardContent>
        </Card>
      ))}
    </Stack>
  );
}
