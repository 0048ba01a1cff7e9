import SendIcon from '@mui/icons-material/Send';
import { Button } from '@mui/material';
import { useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { useMeta } from '../../providers/meta.js';
import { apiCall } from '../../session/http.js';

/** A failed (or delivered) delivery sent again: pending at once, tried for another 24 hours. */
export default function ResendButton() {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  // Whoever manages the endpoints resends (the call asks the same).
  const manages = useMeta().resources.some((r) => r.name === 'webhook-endpoint' && r.access === 'write');
  if (!record || record.Estado === 'P' || !manages) return null;
  const resend = async () => {
    try {
      await apiCall('POST', `/api/webhooks/entregas/${record.id}/reenviar`);
    } catch (error) {
      notify((error as Error).message, { type: 'warning' });
      return;
    }
    notify('webhooks.resend.done', { type: 'success' });
    refresh();
  };
  return (
    <Button size="small" startIcon={<SendIcon />} onClick={resend} className="webhook-resend">
      {translate('webhooks.resend.button')}
    </Button>
  );
}
