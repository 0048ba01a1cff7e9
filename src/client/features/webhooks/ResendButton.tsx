import SendIcon from '@mui/icons-material/Send';
import { Button } from '@mui/material';
import { useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { useMeta } from '../../providers/meta.js';
import { useWebhookCall } from './call.js';

/** A failed (or delivered) delivery sent again: pending at once, tried for another 24 hours. */
export default function ResendButton() {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const post = useWebhookCall();
  // Whoever manages the endpoints resends (the call asks the same).
  const manages = useMeta().resources.some((r) => r.name === 'webhook-endpoint' && r.access === 'write');
  if (!record || record.Estado === 'P' || !manages) return null;
  const resend = async () => {
    if (!(await post(`/api/webhooks/entregas/${record.id}/reenviar`))) return;
    notify('webhooks.resend.done', { type: 'success' });
    refresh();
  };
  return (
    <Button size="small" startIcon={<SendIcon />} onClick={resend} className="webhook-resend">
      {translate('webhooks.resend.button')}
    </Button>
  );
}
