import EditNoteIcon from '@mui/icons-material/EditNote';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { Box, Button, Checkbox, Chip, TextField, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Grid, type GridColumn, useGridState } from '../../components/grid/Grid.js';
import { formatDate } from '../../format.js';
import type { Booking, BookingState, YesNo } from './api.js';

/** A booking's attendance and score as the trainer is entering them (the score as typed). */
export interface Entry {
  Asistio: YesNo;
  Nota: string;
}

/** A typed score is empty or a whole number from 0 to 100. */
export const scoreProblem = (typed: string) => typed.trim() !== '' && !/^(100|[1-9]?\d)$/.test(typed.trim());

const STATE_COLOURS: Record<BookingState, 'info' | 'success' | 'error' | 'warning' | 'default'> = {
  R: 'info',
  A: 'success',
  D: 'error',
  N: 'warning',
  X: 'default',
};

/** A pass whose induction stands has a certificate to print. */
const printable = (b: Booking) => b.Estado === 'A' && b.IdRegistro !== null && b.EstadoRegistro === 'V';

/**
 * A session's bookings: the person, the company, attendance (a checkbox) and the score while the
 * session is scheduled, then the result; a pass's certificate; on a closed session, an
 * administrator's change of a result. A table on a desktop, cards on a phone.
 */
export function BookingResults({
  bookings,
  editable,
  entryOf,
  onEntry,
  onCertificate,
  printing,
  onAmend,
}: {
  bookings: Booking[];
  /** Scheduled: attendance and scores are entered. */
  editable: boolean;
  entryOf(booking: Booking): Entry;
  onEntry(booking: Booking, entry: Entry): void;
  onCertificate(booking: Booking): void;
  printing: boolean;
  /** An administrator, on a closed session. */
  onAmend?: (booking: Booking) => void;
}) {
  const translate = useTranslate();
  const text = (key: string) => translate(`induction.screens.session.${key}`);
  const [state, setState] = useGridState(500);
  const columns: GridColumn<Booking>[] = [
    {
      id: 'Persona',
      label: translate('resources.training-booking.fields.IdPersona'),
      render: (b) => (
        <Box component="span" sx={{ display: 'inline-flex', flexDirection: 'column' }}>
          <span>{b.Persona}</span>
          <Typography component="span" variant="caption" color="text.secondary">
            {b.Documento}
          </Typography>
        </Box>
      ),
    },
    { id: 'Compania', label: translate('resources.training-booking.fields.IdCompania') },
    {
      id: 'Asistio',
      label: text('attended'),
      align: 'center',
      render: (b) => (
        <Checkbox
          checked={entryOf(b).Asistio === 'S'}
          disabled={!editable || b.Estado !== 'R'}
          onChange={(event) =>
            onEntry(b, event.target.checked ? { ...entryOf(b), Asistio: 'S' } : { Asistio: 'N', Nota: '' })
          }
          slotProps={{ input: { 'aria-label': `${text('attended')}: ${b.Persona}` } }}
          data-attended={b.Documento}
          sx={{ p: 0.5 }}
        />
      ),
    },
    {
      id: 'Nota',
      label: text('score'),
      align: 'right',
      render: (b) => {
        const entry = entryOf(b);
        if (!editable || b.Estado !== 'R') return b.Nota ?? '—';
        const wrong = scoreProblem(entry.Nota);
        return (
          <TextField
            size="small"
            value={entry.Nota}
            onChange={(event) => {
              // A score is an attendance's: typing one marks the person present.
              const Nota = event.target.value;
              onEntry(b, { Asistio: Nota.trim() ? 'S' : entry.Asistio, Nota });
            }}
            error={wrong}
            helperText={wrong ? text('scoreRange') : undefined}
            slotProps={{
              htmlInput: {
                inputMode: 'numeric',
                maxLength: 3,
                'aria-label': `${text('score')}: ${b.Persona}`,
                'data-score': b.Documento,
              },
            }}
            sx={{ width: 96 }}
          />
        );
      },
    },
    {
      id: 'Estado',
      label: translate('resources.training-booking.fields.Estado'),
      render: (b) => (
        <Box
          component="span"
          sx={{ display: 'inline-flex', flexDirection: 'column', alignItems: 'flex-start', gap: 0.25 }}
        >
          <Chip
            size="small"
            color={STATE_COLOURS[b.Estado]}
            label={translate(`enums.bookingState.${b.Estado}`)}
            data-booking-state={b.Estado}
          />
          {b.VenceEl && b.EstadoRegistro === 'V' && (
            <Typography component="span" variant="caption" color="text.secondary">
              {translate('induction.screens.session.validUntil', { date: formatDate(b.VenceEl) })}
            </Typography>
          )}
          {b.EstadoRegistro === 'R' && (
            <Typography component="span" variant="caption" color="error">
              {translate('enums.recordState.R')}
            </Typography>
          )}
        </Box>
      ),
    },
    {
      id: 'actions',
      label: text('actions'),
      render: (b) => {
        const certificate = printable(b);
        if (!certificate && !onAmend) return null;
        return (
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
            {certificate && (
              <Button
                size="small"
                startIcon={<PictureAsPdfIcon />}
                disabled={printing}
                onClick={() => onCertificate(b)}
                data-certificate={b.Documento}
              >
                {text('certificate')}
              </Button>
            )}
            {onAmend && (
              <Button
                size="small"
                startIcon={<EditNoteIcon />}
                onClick={() => onAmend(b)}
                data-amend={b.Documento}
              >
                {text('amend')}
              </Button>
            )}
          </Box>
        );
      },
    },
  ];
  const acted = Boolean(onAmend) || bookings.some(printable);
  return (
    <Grid
      label={text('bookings')}
      columns={acted ? columns : columns.filter((c) => c.id !== 'actions')}
      rows={bookings}
      total={bookings.length}
      state={state}
      onState={setState}
      rowKey={(b) => b.IdInscripcion}
      paged={false}
      empty={text('noBookings')}
      testId="session-bookings"
    />
  );
}
