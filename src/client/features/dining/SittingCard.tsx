import { Box, Card, CardContent, Chip, LinearProgress, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { MealCounts } from './api.js';
import { reasonText } from './texts.js';

/** The refusals of a sitting by reason, most first: the reason in words and how many. */
function Refusals({
  counts,
  service,
  capacity,
}: {
  counts: MealCounts;
  service?: string;
  capacity: number | null;
}) {
  const translate = useTranslate();
  const reasons = Object.entries(counts.rechazos)
    .filter(([, n]) => Number(n) > 0)
    .sort(([, a], [, b]) => Number(b) - Number(a));
  if (!reasons.length)
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('dining.screens.management.noRefusals')}
      </Typography>
    );
  return (
    <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none' }}>
      {reasons.map(([code, n]) => (
        <Box
          component="li"
          key={code}
          data-reason={code}
          sx={{ display: 'flex', gap: 1, justifyContent: 'space-between', alignItems: 'baseline' }}
        >
          <Typography variant="body2" sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
            {reasonText(translate, code, { service, capacity })}
          </Typography>
          <Typography variant="body2" sx={{ fontWeight: 600 }} data-count={n}>
            {n}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/**
 * A sitting of today as its supervisor follows it: the service, its hours and whether it is open
 * now, the meals served against the room's capacity, the voided ones, the refusals by reason.
 * Without a service (`service` not given), the refusals of the meals presented while none was open.
 */
export function SittingCard({
  id,
  title,
  service,
  counts,
  capacity,
}: {
  id: string;
  title: string;
  service?: { hours: string; open: boolean };
  counts: MealCounts;
  capacity: number | null;
}) {
  const translate = useTranslate();
  const text = (key: string, options?: Record<string, unknown>) =>
    translate(`dining.screens.management.${key}`, options);
  const refused = Object.values(counts.rechazos).reduce((sum, n) => sum + Number(n ?? 0), 0);
  const figure = (name: string, value: number) => (
    <>
      <Typography component="dt" variant="body2" color="text.secondary">
        {text(name)}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, fontWeight: 600 }} data-figure={name}>
        {value}
      </Typography>
    </>
  );
  return (
    <Card
      variant="outlined"
      data-testid={`dining-sitting-${id}`}
      data-open={service?.open ? 'true' : 'false'}
      sx={{ minWidth: 0, ...(service?.open ? { borderColor: 'success.main', borderWidth: 2 } : {}) }}
    >
      <CardContent>
        <Stack direction="row" spacing={1} alignItems="center" useFlexGap flexWrap="wrap">
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, flex: '1 1 auto' }}>
            {title}
          </Typography>
          {service?.open && <Chip size="small" color="success" label={text('openNow')} />}
        </Stack>
        {service && (
          <>
            <Typography variant="body2" color="text.secondary">
              {service.hours}
            </Typography>
            <Stack direction="row" spacing={1} alignItems="baseline" sx={{ mt: 1 }}>
              <Typography variant="h4" component="p" data-figure="servidos">
                {counts.servidos}
              </Typography>
              <Typography color="text.secondary">
                {capacity != null ? text('ofCapacity', { capacity }) : text('served')}
              </Typography>
            </Stack>
            {capacity != null && (
              <LinearProgress
                variant="determinate"
                value={Math.min(100, (counts.servidos / Math.max(capacity, 1)) * 100)}
                aria-label={text('served')}
                sx={{ my: 1, height: 6, borderRadius: 3 }}
              />
            )}
          </>
        )}
        <Box
          component="dl"
          sx={{ display: 'grid', gridTemplateColumns: '1fr auto', columnGap: 2, rowGap: 0.5, my: 1 }}
        >
          {service && figure('voided', counts.anulados)}
          {figure('refused', refused)}
        </Box>
        <Refusals counts={counts} service={service ? title : undefined} capacity={capacity} />
      </CardContent>
    </Card>
  );
}
