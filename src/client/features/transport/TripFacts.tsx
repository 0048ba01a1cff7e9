import { Box, Card, CardContent, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatDate, formatDateTime } from '../../format.js';
import type { TripDetail } from './api.js';

/** A trip's facts: route, day and hour, direction, bus, driver, seats, departure and arrival. */
export function TripFacts({ trip }: { trip: TripDetail }) {
  const translate = useTranslate();
  const field = (name: string) => translate(`resources.trip.fields.${name}`);
  const text = (key: string, options?: object) => translate(`transport.screens.trip.${key}`, options);
  const facts: Array<[string, string, string]> = [
    ['route', field('IdRuta'), `${trip.RutaCodigo} · ${trip.Ruta}`],
    ['when', text('when'), `${formatDate(trip.Fecha)} ${trip.Hora}`],
    ['direction', field('Sentido'), translate(`enums.tripDirection.${trip.Sentido}`)],
    ['bus', field('IdBus'), [trip.Placa, trip.Modelo].filter(Boolean).join(' · ')],
    [
      'driver',
      field('IdConductor'),
      [trip.Conductor, trip.ConductorDocumento, trip.ConductorLicencia].filter(Boolean).join(' · '),
    ],
    [
      'seats',
      text('seats'),
      text('seatsValue', { booked: trip.Reservados, seats: trip.Asientos, boarded: trip.Abordados }),
    ],
  ];
  if (trip.Salida) facts.push(['departed', field('Salida'), formatDateTime(trip.Salida)]);
  if (trip.Llegada) facts.push(['arrived', field('Llegada'), formatDateTime(trip.Llegada)]);
  return (
    <Card>
      <CardContent
        component="dl"
        sx={{
          m: 0,
          display: 'grid',
          gap: 2,
          gridTemplateColumns: {
            xs: 'minmax(0, 1fr)',
            sm: 'repeat(2, minmax(0, 1fr))',
            md: 'repeat(3, minmax(0, 1fr))',
          },
        }}
      >
        {facts.map(([id, label, value]) => (
          <Box key={id} sx={{ minWidth: 0 }}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {label}
            </Typography>
            <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }} data-fact={id}>
              {value}
            </Typography>
          </Box>
        ))}
      </CardContent>
    </Card>
  );
}
