import KeyIcon from '@mui/icons-material/Key';
import {
  Alert,
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
import { apiCall } from '../../session/http.js';

/**
 * An endpoint's signing secret: asks before replacing the one in force, then shows the new one
 * this once, to copy into the receiving system (no answer carries it again).
 */
export default function NewSecretButton() {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  if (!record) return null;

  const generate = async () => {
    try {
      const result = await apiCall<{ secret: string }>('POST', `/api/webhooks/destinos/${record.id}/secreto`);
      setSecret(result.secret);
    } catch (error) {
      notify((error as Error).message, { type: 'warning' });
    }
  };
  const copy = async () => {
    if (!secret) return;
    await navigator.clipboard?.writeText(secret).catch(() => undefined);
    notify('webhooks.secret.copied', { type: 'success' });
  };
  const close = () => {
    setOpen(false);
    setSecret(null);
  };
  return (
    <>
      <Button size="small" startIcon={<KeyIcon />} onClick={() => setOpen(true)} className="webhook-secret">
        {translate('webhooks.secret.button')}
      </Button>
      <Dialog open={open} onClose={close} maxWidth="sm" fullWidth>
        <DialogTitle>{translate('webhooks.secret.title')}</DialogTitle>
        <DialogContent>
          {secret ? (
            <>
              <Alert severity="warning" sx={{ mb: 2 }}>
                {translate('webhooks.secret.warning')}
              </Alert>
              <TextField
                value={secret}
                label={translate('webhooks.secret.label')}
                fullWidth
                slotProps={{ input: { readOnly: true } }}
                onFocus={(event) => event.target.select()}
              />
            </>
          ) : (
            <DialogContentText>{translate('webhooks.secret.confirm')}</DialogContentText>
          )}
        </DialogContent>
        <DialogActions>
          {secret && <Button onClick={copy}>{translate('webhooks.secret.copy')}</Button>}
          {!secret && (
            <Button variant="contained" onClick={generate}>
              {translate('webhooks.secret.generate')}
            </Button>
          )}
          <Button onClick={close}>{translate('webhooks.secret.close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
