import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  FormGroup,
} from '@mui/material';
import { useState } from 'react';
import { useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { isApiErrorBody } from '../../../../shared/errors.js';
import { apiFetch } from '../../../session/http.js';

const OTHER_DAYS = [2, 3, 4, 5, 6, 7];

/**
 * Copies a schedule's Monday intervals to the days chosen (spec section 3 Access: "copy Monday to
 * other days"). When those days already have intervals the server asks first (spec: "Interval
 * already exists, delete them?") and the copy replaces them once confirmed.
 */
export default function CopyDayButton() {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [days, setDays] = useState<number[]>(OTHER_DAYS.slice(0, 4));
  const [confirm, setConfirm] = useState<string | null>(null);

  const copy = async (replace: boolean) => {
    const response = await apiFetch('/api/AccesoHorario/copiarDia', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ IdHorario: record?.id, DiaOrigen: 1, Dias: days, Reemplazar: replace }),
    });
    const body: unknown = await response.json().catch(() => undefined);
    if (response.status === 409 && isApiErrorBody(body)) {
      setConfirm(body.message);
      return;
    }
    if (!response.ok) {
      notify(isApiErrorBody(body) ? body.message : 'ra.notification.http_error', { type: 'warning' });
      return;
    }
    setConfirm(null);
    setOpen(false);
    notify('app.schedule.copied', {
      type: 'success',
      messageArgs: { count: (body as { result: { copied: number } }).result.copied },
    });
    refresh();
  };

  if (!record) return null;
  return (
    <>
      <Button size="small" startIcon={<ContentCopyIcon />} onClick={() => setOpen(true)} className="copy-day">
        {translate('app.schedule.copyMonday')}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)}>
        <DialogTitle>{translate('app.schedule.copyMonday')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{translate('app.schedule.chooseDays')}</DialogContentText>
          <FormGroup row>
            {OTHER_DAYS.map((day) => (
              <FormControlLabel
                key={day}
                label={translate(`enums.weekday.${day}`)}
                control={
                  <Checkbox
                    checked={days.includes(day)}
                    onChange={(event) =>
                      setDays((chosen) =>
                        event.target.checked ? [...chosen, day].sort() : chosen.filter((d) => d !== day),
                      )
                    }
                  />
                }
              />
            ))}
          </FormGroup>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{translate('ra.action.cancel')}</Button>
          <Button variant="contained" onClick={() => copy(false)}>
            {translate('app.schedule.copy')}
          </Button>
        </DialogActions>
      </Dialog>
      <Dialog open={confirm !== null} onClose={() => setConfirm(null)}>
        <DialogTitle>{translate('ra.message.are_you_sure')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{confirm}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirm(null)}>{translate('ra.action.cancel')}</Button>
          <Button variant="contained" color="warning" onClick={() => copy(true)}>
            {translate('ra.action.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
