import GavelIcon from '@mui/icons-material/Gavel';
import MailIcon from '@mui/icons-material/Mail';
import { Button } from '@mui/material';
import { useState } from 'react';
import { useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { saveBase64 } from '../../files.js';
import { apiCall } from '../../session/http.js';

/** A security incident's notices: the authority's PDF, and an e-mail to each person it reached. */
export default function IncidentButtons() {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  if (!record) return null;
  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
      refresh();
    } catch (error) {
      notify((error as Error).message, { type: 'warning' });
    } finally {
      setBusy(false);
    }
  };
  const base = `/api/privacidad/incidentes/${record.id}`;
  const authority = () =>
    act(async () => {
      const file = await apiCall<{ fileBase64: string; fileName: string; fileType: string }>(
        'POST',
        `${base}/aviso-autoridad`,
      );
      saveBase64(file.fileBase64, file.fileName, file.fileType);
    });
  const people = () =>
    act(async () => {
      const told = await apiCall<{ told: number; withoutEmail: number }>('POST', `${base}/aviso-personas`);
      notify('privacy.incident.peopleDone', { type: 'success', messageArgs: told });
    });
  return (
    <>
      <Button
        size="small"
        startIcon={<GavelIcon />}
        onClick={authority}
        disabled={busy}
        className="incident-authority"
      >
        {translate('privacy.incident.authority')}
      </Button>
      <Button
        size="small"
        startIcon={<MailIcon />}
        onClick={people}
        disabled={busy}
        className="incident-people"
      >
        {translate('privacy.incident.people')}
      </Button>
    </>
  );
}
