import DownloadIcon from '@mui/icons-material/Download';
import { Button } from '@mui/material';
import { useNotify, useRecordContext, useTranslate } from 'react-admin';
import { saveBase64 } from '../../files.js';
import { apiCall } from '../../session/http.js';
import { useAction } from './useAction.js';

/** An access request answered: everything held about the request's person, as a ZIP. */
export default function ExportButton() {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const { busy, run } = useAction();
  if (!record) return null;
  const download = () =>
    run(async () => {
      const file = await apiCall<{ fileBase64: string; fileName: string; fileType: string }>(
        'GET',
        `/api/privacidad/derechos/${record.id}/exportacion`,
      );
      saveBase64(file.fileBase64, file.fileName, file.fileType);
      notify('privacy.rights.exported', { type: 'success' });
    });
  return (
    <Button
      size="small"
      startIcon={<DownloadIcon />}
      onClick={download}
      disabled={busy}
      className="rights-export"
    >
      {translate('privacy.rights.export')}
    </Button>
  );
}
