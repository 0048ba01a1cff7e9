import { Alert, Card, Stack, Typography } from '@mui/material';
import { type ReactNode, useDeferredValue, useState } from 'react';
import { useTranslate } from 'react-admin';
import { SearchField } from '../../components/fields.js';
import { Refusal } from '../../components/Refusal.js';
import { useWorkersInductions } from './BookingDialog.js';
import { PassedInductions } from './PassedInductions.js';
import { WorkerBookings } from './WorkerBookings.js';

function Section({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <Card data-testid={testId}>
      <Stack spacing={1} sx={{ p: { xs: 1, sm: 2 } }}>
        <Typography variant="subtitle1" component="h2">
          {title}
        </Typography>
        {children}
      </Stack>
    </Card>
  );
}

/** Whether a row names the words searched, by name or document. */
const names = (row: { Persona: string; Documento: string }, words: string) =>
  !words || `${row.Persona} ${row.Documento}`.toUpperCase().includes(words);

/**
 * "My workers' inductions": the passed ones with their valid-until (those expiring within 30
 * days counted and highlighted), the bookings open or settled without a pass; a worker found by
 * name or document in both.
 */
export function WorkersInductions({ onNotice }: { onNotice(message: string): void }) {
  const translate = useTranslate();
  const text = (key: string, options?: object) => translate(`induction.screens.workers.${key}`, options);
  const workers = useWorkersInductions();
  const [typed, setTyped] = useState('');
  const words = useDeferredValue(typed.trim().toUpperCase());
  const records = workers.data?.registros.filter((r) => names(r, words));
  const bookings = workers.data?.reservas.filter((b) => names(b, words));
  const expiring = workers.data?.registros.filter((r) => r.PorVencer).length ?? 0;
  return (
    <Stack spacing={2}>
      <Refusal error={workers.error} testId="workers-refusal" />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }}>
        <SearchField id="workers-search" label={text('search')} value={typed} onChange={setTyped} />
        {expiring > 0 && (
          <Alert severity="warning" sx={{ flex: 1, py: 0 }} data-testid="expiring-count">
            {text('expiring', { smart_count: expiring })}
          </Alert>
        )}
      </Stack>
      <Section title={text('passed')} testId="passed-section">
        <PassedInductions rows={records} />
      </Section>
      <Section title={text('bookings')} testId="bookings-section">
        <WorkerBookings rows={bookings} onCancelled={() => onNotice(text('cancelled'))} />
      </Section>
    </Stack>
  );
}
