import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  LinearProgress,
  Stack,
  type Theme,
  Typography,
  useMediaQuery,
} from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { Refusal } from '../../components/Refusal.js';
import { formatDate } from '../../format.js';
import { type Proposal, transportApi } from './api.js';
import { ProposedTrip, Unplaced } from './ProposalParts.js';

const key = (trip: number, person: number) => `${trip}:${person}`;

/** Each proposed trip's people still ticked (the coordinator unticks those who do not go). */
function manifestsOf(proposal: Proposal | undefined, unticked: ReadonlySet<string>) {
  return (proposal?.viajes ?? [])
    .map((v) => ({
      IdViaje: v.IdViaje,
      IdPersonas: v.propuestos.map((p) => p.IdPersona).filter((p) => !unticked.has(key(v.IdViaje, p))),
    }))
    .filter((m) => m.IdPersonas.length > 0);
}

/**
 * A change day's manifests: the people the rosters move that day, each on a trip of the route of
 * their home in their direction; the coordinator unticks whoever does not go and confirms, every
 * trip's people booked in one go. Who has no seat is listed with why.
 */
export function ProposalDialog({
  day,
  onClose,
  onDone,
}: {
  day: string;
  onClose(): void;
  onDone(message: string): void;
}) {
  const translate = useTranslate();
  const text = (k: string, options?: object) => translate(`transport.screens.proposal.${k}`, options);
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const proposal = useQuery({
    queryKey: ['transport-proposal', day],
    queryFn: () => transportApi.proposal(day),
    gcTime: 0,
  });
  const [unticked, setUnticked] = useState<Set<string>>(new Set());
  const manifests = manifestsOf(proposal.data, unticked);
  const total = manifests.reduce((sum, m) => sum + m.IdPersonas.length, 0);
  const confirm = useMutation({
    mutationFn: () => transportApi.confirm(manifests),
    onSuccess: (done) => onDone(text('done', { smart_count: done.total, trips: done.viajes.length })),
  });
  const tick = (tripId: number, people: number[], ticked: Set<number>) => {
    const next = new Set([...unticked].filter((k) => !k.startsWith(`${tripId}:`)));
    for (const p of people) if (!ticked.has(p)) next.add(key(tripId, p));
    setUnticked(next);
  };
  const data = proposal.data;
  const trips = data?.viajes ?? [];
  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      maxWidth="md"
      fullScreen={phone}
      aria-labelledby="proposal-title"
    >
      <DialogTitle id="proposal-title">
        {text('title', { date: formatDate(day) })}
        {data && (
          <Typography
            component="span"
            variant="body2"
            color="text.secondary"
            sx={{ display: 'block' }}
            data-testid="proposal-summary"
          >
            {text('summary', { smart_count: total, booked: data.yaReservados })}
          </Typography>
        )}
      </DialogTitle>
      <DialogContent dividers>
        {proposal.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
        <Refusal error={proposal.error} />
        {data && !trips.length && !data.sinAsiento.length && (
          <Typography color="text.secondary" data-testid="proposal-empty">
            {text('empty')}
          </Typography>
        )}
        <Stack spacing={2} divider={<Divider flexItem />} data-testid="proposal">
          {trips.map((v) => (
            <ProposedTrip
              key={v.IdViaje}
              trip={v}
              ticked={
                new Set(v.propuestos.map((p) => p.IdPersona).filter((p) => !unticked.has(key(v.IdViaje, p))))
              }
              onChange={(ticked) =>
                tick(
                  v.IdViaje,
                  v.propuestos.map((p) => p.IdPersona),
                  ticked,
                )
              }
            />
          ))}
          {data && <Unplaced people={data.sinAsiento} />}
        </Stack>
        <Refusal error={confirm.error} testId="proposal-refusal" sx={{ mt: 2 }} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        <Button
          variant="contained"
          disabled={!total || confirm.isPending}
          onClick={() => confirm.mutate()}
          data-testid="proposal-confirm"
        >
          {text('confirm', { smart_count: total })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
