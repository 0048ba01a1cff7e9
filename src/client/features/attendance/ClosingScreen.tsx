import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  LinearProgress,
  Stack,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { Refusal } from '../../components/Refusal.js';
import { ScreenHeader } from '../../components/ScreenHeader.js';
import { formatDate } from '../../format.js';
import { useConsoleTitle } from '../../resources/ScreenTitle.js';
import { attendanceApi } from './api.js';
import { type Payroll, PayrollCard, useNotifyRefusal } from './PayrollCard.js';

const PAYROLLS = ['attendance-payrolls'];

/**
 * Payroll closing (spec section 3 Attendance 'payroll'): the client's payrolls with their current
 * and previous periods; the previous one is closed after a confirmation (its days computed and
 * frozen), and each closing exports its figures for payroll as an Excel workbook.
 */
export default function ClosingScreen() {
  const translate = useTranslate();
  const notify = useNotify();
  const refused = useNotifyRefusal();
  const text = (key: string, options?: Record<string, unknown>) =>
    translate(`attendance.closingScreen.${key}`, options);
  const title = translate('app.menu.items.payrollClosing');
  useConsoleTitle(title);
  const client = useQueryClient();
  // The payroll asked about stays in the dialog while it fades out.
  const [asked, setAsked] = useState<Payroll>();
  const [open, setOpen] = useState(false);
  const payrolls = useQuery({ queryKey: PAYROLLS, queryFn: attendanceApi.payrolls, retry: false });
  const close = useMutation({
    mutationFn: (payroll: Payroll) => attendanceApi.close(payroll.IdPlanilla, payroll.anterior.desde),
    onSuccess: (closing) =>
      notify('attendance.closingScreen.closed', {
        type: 'success',
        messageArgs: { people: closing.Personas, days: closing.Dias },
      }),
    onError: refused,
    onSettled: async () => {
      setOpen(false);
      await client.invalidateQueries({ queryKey: PAYROLLS });
    },
  });
  const list = payrolls.data?.planillas;
  return (
    <Stack spacing={2} sx={{ mt: 1, minWidth: 0 }} data-testid="attendance-closing">
      <ScreenHeader title={title} />
      {payrolls.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
      <Refusal error={payrolls.error} testId="attendance-closing-refusal" />
      {list?.length === 0 && <Alert severity="info">{text('noPayrolls')}</Alert>}
      {list?.map((payroll) => (
        <PayrollCard
          key={payroll.IdPlanilla}
          payroll={payroll}
          onClose={() => {
            setAsked(payroll);
            setOpen(true);
          }}
        />
      ))}
      <Dialog
        open={open}
        onClose={() => !close.isPending && setOpen(false)}
        aria-labelledby="closing-dialog-title"
        fullWidth
        maxWidth="xs"
      >
        <DialogTitle id="closing-dialog-title">{asked && `${text('close')} · ${asked.Codigo}`}</DialogTitle>
        <DialogContent>
          <DialogContentText data-testid="closing-confirm-text">
            {asked &&
              text('confirm', {
                desde: formatDate(asked.anterior.desde),
                hasta: formatDate(asked.anterior.hasta),
              })}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)} disabled={close.isPending}>
            {translate('ra.action.cancel')}
          </Button>
          <Button
            variant="contained"
            color="warning"
            disabled={close.isPending}
            onClick={() => asked && close.mutate(asked)}
            data-testid="closing-confirm"
          >
            {translate('ra.action.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
