import GavelIcon from '@mui/icons-material/Gavel';
import MailIcon from '@mui/icons-material/Mail';
import { Button } from '@mui/material';
import { useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { saveBase64 } from '../../files.js';
import { apiCall } from '../../session/http.js';
import { useAction } from './useAction.js';

/** A security incident's notices: the authority's PDF, and an e-mail to each person it reached. */
export default function IncidentButtons() {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const { busy, run } = useAction();
  if (!record) return null;
  const base = `/api/privacidad/incidentes/${record.id}`;
  const actions = [
    {
      key: 'authority',
      Icon: GavelIcon,
      work: async () => {
        const file = await apiCall<{ fileBase64: string; fileName: string; fileType: string }>(
          'POST',
          `${base}/aviso-autoridad`,
        );
        saveBase64(file.fileBase64, file.fileName, file.fileType);
      },
    },
    {
      key: 'people',
      Icon: MailIcon,
      work: async () => {
        const told = await apiCall<{ told: number; withoutEmail: number }>('POST', `${base}/aviso-personas`);
        notify('privacy.incident.peopleDone', { type: 'success', messageArgs: told });
      },
    },
  ];
  return (
    <>
      {actions.map(({ key, Icon, work }) => (
        <Button
          key={key}
          size="small"
          startIcon={<Icon />}
          disabled={busy}
          className={`incident-${key}`}
          onClick={() =>
            run(async () => {
              await work();
              refresh();
            })
          }
        >
          {translate(`privacy.incident.${key}`)}
        </Button>
      ))}
    </>
  );
}
