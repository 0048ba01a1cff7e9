import { Box, List, ListItem, ListItemText, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { Proposal } from './api.js';
import { TickList } from './TickList.js';

type ProposedTrip = Proposal['viajes'][number];

/** A proposed trip: its hour, route, direction and seats free, then its people to tick. */
export function ProposedTrip({
  trip,
  ticked,
  onChange,
}: {
  trip: ProposedTrip;
  ticked: ReadonlySet<number>;
  onChange(ticked: Set<number>): void;
}) {
  const translate = useTranslate();
  return (
    <Box data-proposed-trip={trip.IdViaje}>
      <Typography variant="subtitle2" component="h3">
        {`${trip.Hora} · ${trip.RutaCodigo} · ${translate(`enums.tripDirection.${trip.Sentido}`)}`}
      </Typography>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
        {translate('transport.screens.common.free', {
          smart_count: Math.max(0, trip.Asientos - trip.Reservados),
        })}
      </Typography>
      {trip.propuestos.length ? (
        <TickList people={trip.propuestos} ticked={ticked} onChange={onChange} />
      ) : (
        <Typography variant="body2" color="text.secondary">
          {translate('transport.screens.proposal.nobodyOnTrip')}
        </Typography>
      )}
    </Box>
  );
}

/** Who the day moves but has no seat in the proposal, and why (no route, no trip, no seat left). */
export function Unplaced({ people }: { people: Proposal['sinAsiento'] }) {
  const translate = useTranslate();
  const text = (key: string, options?: object) => translate(`transport.screens.proposal.${key}`, options);
  if (!people.length) return null;
  return (
    <Box data-testid="proposal-unplaced">
      <Typography variant="subtitle2" component="h3" color="warning.main">
        {text('unplaced', { smart_count: people.length })}
      </Typography>
      <List dense disablePadding>
        {people.map((p) => (
          <ListItem key={`${p.IdPersona}-${p.Sentido}`} disableGutters data-unplaced={p.Documento}>
            <ListItemText
              primary={p.Persona}
              secondary={[
                p.Documento,
                p.Compania,
                translate(`enums.tripDirection.${p.Sentido}`),
                text(`reasons.${p.motivo}`),
              ].join(' · ')}
            />
          </ListItem>
        ))}
      </List>
    </Box>
  );
}
