import EventBusyIcon from '@mui/icons-material/EventBusy';
import LinkIcon from '@mui/icons-material/Link';
import { Button, Chip, Stack } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Confirm, useLocale, useTranslate } from 'react-admin';
import { type GridColumn, LocalGrid, personColumn } from '../../components/grid/Grid.js';
import { Refusal } from '../../components/Refusal.js';
import { formatDate } from '../../format.js';
import { type BookingState, bookingApi, inLanguage, type WorkerBooking } from './api.js';
import { TestLinkDialog } from './TestLinkDialog.js';

const COLOURS: Partial<Record<BookingState, 'info' | 'error' | 'warning'>> = {
  R: 'info',
  D: 'error',
  N: 'warning',
};

/**
 * The workers' bookings still open (with their cancel and, for an online course, the test's link)
 * and those settled without a pass: failed or absent, free to be booked again.
 */
export function WorkerBookings({
  rows,
  onCancelled,
}: {
  rows: WorkerBooking[] | undefined;
  onCancelled(): void;
}) {
  const translate = useTranslate();
  const locale = useLocale();
  const text = (key: string) => translate(`induction.screens.workers.${key}`);
  const queryClient = useQueryClient();
  const [cancelling, setCancelling] = useState<WorkerBooking>();
  const [linkOf, setLinkOf] = useState<WorkerBooking>();
  const cancel = useMutation({
    mutationFn: (booking: WorkerBooking) => bookingApi.cancel(booking.IdInscripcion),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['induction-workers'] });
      void queryClient.invalidateQueries({ queryKey: ['induction-open-sessions'] });
      onCancelled();
    },
    onSettled: () => setCancelling(undefined),
  });
  const columns: GridColumn<WorkerBooking>[] = [
    personColumn(text('person')),
    { id: 'Curso', label: text('course'), render: (row) => inLanguage(locale, row.Curso, row.CursoIngles) },
    {
      id: 'Sesion',
      label: text('session'),
      render: (row) => `${formatDate(row.Fecha)} ${row.HoraInicio} · ${row.Sala}`,
    },
    {
      id: 'Estado',
      label: text('state'),
      render: (row) => (
        <Chip
          size="small"
          color={COLOURS[row.Estado] ?? 'default'}
          label={translate(`enums.bookingState.${row.Estado}`)}
          data-state={row.Estado}
        />
      ),
    },
    {
      id: 'actions',
      label: '',
      align: 'right',
      render: (row) =>
        row.Estado === 'R' ? (
          <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" justifyContent={{ md: 'flex-end' }}>
            {row.Modalidad === 'V' && (
              <Button
                size="small"
                startIcon={<LinkIcon />}
                onClick={() => setLinkOf(row)}
                data-testid={`test-link-${row.IdInscripcion}`}
              >
                {text('testLink')}
              </Button>
            )}
            <Button
              size="small"
              color="error"
              startIcon={<EventBusyIcon />}
              onClick={() => setCancelling(row)}
              data-testid={`cancel-booking-${row.IdInscripcion}`}
            >
              {text('cancel')}
            </Button>
          </Stack>
        ) : null,
    },
  ];
  return (
    <>
      <Refusal error={cancel.error} testId="cancel-refusal" />
      <LocalGrid
        label={text('bookings')}
        columns={columns}
        rows={rows}
        rowKey={(row) => row.IdInscripcion}
        empty={text('noBookings')}
        testId="worker-bookings"
      />
      <Confirm
        isOpen={cancelling !== undefined}
        loading={cancel.isPending}
        title="induction.screens.workers.cancelTitle"
        content="induction.screens.workers.cancelText"
        translateOptions={{
          name: cancelling?.Persona ?? '',
          course: cancelling ? inLanguage(locale, cancelling.Curso, cancelling.CursoIngles) : '',
        }}
        confirm="induction.screens.workers.cancel"
        confirmColor="warning"
        cancel="induction.screens.workers.keep"
        onConfirm={() => cancelling && cancel.mutate(cancelling)}
        onClose={() => setCancelling(undefined)}
      />
      {linkOf && <TestLinkDialog booking={linkOf} onClose={() => setLinkOf(undefined)} />}
    </>
  );
}
