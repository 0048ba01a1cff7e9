import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  type Theme,
  Typography,
  useMediaQuery,
} from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { addDays } from '../../../shared/dates.js';
import { Refusal } from '../../components/Refusal.js';
import { formatDate } from '../../format.js';
import { siteToday, type TimetablePlan, transportApi } from './api.js';
import { type Draft, planOf, TimetableFields } from './TimetableFields.js';
import { useTimetableChoices } from './useTimetableChoices.js';

/** A new timetable's first draft: from today for four weeks, up at five in the morning. */
const firstDraft = (today: string): Draft => ({
  roster: '',
  anchor: today,
  from: today,
  to: addDays(today, 27),
  route: '',
  hour: '05:00',
  direction: 'S',
  bus: '',
  driver: null,
});

/**
 * A roster's timetable: a trip of a route, at an hour, up or down, on each change day of the roster
 * (counted from its anchor) in a period, with a bus and its driver; all made or, one refused, none.
 */
export function TimetableDialog({
  onClose,
  onDone,
}: {
  onClose(): void;
  onDone(message: string, day: string): void;
}) {
  const translate = useTranslate();
  const text = (key: string, options?: object) => translate(`transport.screens.timetable.${key}`, options);
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const today = siteToday();
  const [d, setDraft] = useState<Draft>(() => firstDraft(today));
  const set = (part: Partial<Draft>) => setDraft((before) => ({ ...before, ...part }));
  const choices = useTimetableChoices();
  const plan = planOf(d);
  const save = useMutation({
    mutationFn: () => transportApi.timetable(plan as TimetablePlan),
    onSuccess: ({ viajes }) => {
      const [first, last] = [viajes[0]?.Fecha, viajes.at(-1)?.Fecha];
      onDone(
        text('done', { smart_count: viajes.length, first: formatDate(first), last: formatDate(last) }),
        first ?? today,
      );
    },
  });
  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      fullScreen={phone}
      aria-labelledby="timetable-title"
    >
      <DialogTitle id="timetable-title">
        {text('title')}
        <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block' }}>
          {text('help')}
        </Typography>
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }} data-testid="timetable">
          <TimetableFields d={d} set={set} today={today} />
          <Refusal error={choices.error ?? save.error} testId="timetable-refusal" />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        <Button
          variant="contained"
          disabled={!plan || save.isPending}
          onClick={() => save.mutate()}
          data-testid="timetable-save"
        >
          {text('save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
