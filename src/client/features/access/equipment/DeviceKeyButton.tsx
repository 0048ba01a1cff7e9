import KeyIcon from '@mui/icons-material/Key';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField,
} from '@mui/material';
import { useState } from 'react';
import { useNotify, useRecordContext, useTranslate } from 'react-admin';
import { isApiErrorBody } from '../../../../shared/errors.js';
import { apiFetch } from '../../../session/http.js';
import EnrolmentQr from './EnrolmentQr.js';

interface Current {
  prefix: string;
  issuedAt: string;
}

/**
 * The equipment's device key: shows which key is in force (its first characters), issues a new one
 * (the old one stops at once; the new key is shown only here, once) and revokes it.
 */
export default function DeviceKeyButton() {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const [current, setCurrent] = useState<Current | null>(null);
  const [issued, setIssued] = useState<string | null>(null);
  const url = `/api/acceso/equipo/${record?.id}/clave`;

  const request = async (method: 'GET' | 'POST' | 'DELETE') => {
    const response = await apiFetch(url, { method });
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      notify(isApiErrorBody(body) ? body.message : 'ra.notification.http_error', { type: 'warning' });
      return undefined;
    }
    return (body as { result: unknown }).result;
  };
  const show = async () => {
    setIssued(null);
    setCurrent((await request('GET')) as Current | null);
    setOpen(true);
  };
  const issue = async () => {
    const result = (await request('POST')) as { key: string; prefix: string } | undefined;
    if (!result) return;
    setIssued(result.key);
    setCurrent({ prefix: result.prefix, issuedAt: new Date().toISOString() });
    notify('app.deviceKey.issued', { type: 'success' });
  };
  const revoke = async () => {
    if ((await request('DELETE')) === undefined) return;
    setIssued(null);
    setCurrent(null);
    notify('app.deviceKey.revoked', { type: 'success' });
  };

  if (!record) return null;
  return (
    <>
      <Button size="small" startIcon={<KeyIcon />} onClick={show} className="device-key">
        {translate('app.deviceKey.title')}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="sm" fullWidth>
        <DialogTitle>{translate('app.deviceKey.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {current
              ? translate('app.deviceKey.inForce', {
                  prefix: current.prefix,
                  date: new Date(current.issuedAt).toLocaleString(),
                })
              : translate('app.deviceKey.none')}
          </DialogContentText>
          {issued && (
            <>
              <DialogContentText sx={{ mt: 2 }}>{translate('app.deviceKey.copyNow')}</DialogContentText>
              <TextField
                value={issued}
                fullWidth
                margin="dense"
                slotProps={{ htmlInput: { readOnly: true, 'aria-label': translate('app.deviceKey.key') } }}
                onFocus={(event) => event.target.select()}
              />
            </>
          )}
          <EnrolmentQr equipmentId={record.id} />
        </DialogContent>
        <DialogActions>
          {current && (
            <Button color="warning" onClick={revoke}>
              {translate('app.deviceKey.revoke')}
            </Button>
          )}
          <Button variant="contained" onClick={issue}>
            {translate(current ? 'app.deviceKey.rotate' : 'app.deviceKey.issue')}
          </Button>
          <Button onClick={() => setOpen(false)}>{translate('ra.action.close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
