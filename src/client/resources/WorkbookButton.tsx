import DownloadIcon from '@mui/icons-material/Download';
import { Button } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { saveWorkbook } from '../files.js';
import { apiCall } from '../session/http.js';

/** An Export button for a call that answers an Excel file ({ fileBase64, fileName }) to a GET. */
export function WorkbookButton({ url }: { url: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  const download = async () => {
    try {
      saveWorkbook(await apiCall<{ fileBase64: string; fileName: string }>('GET', url));
    } catch {
      notify('ra.notification.http_error', { type: 'warning' });
    }
  };
  return (
    <Button startIcon={<DownloadIcon />} onClick={download}>
      {translate('ra.action.export')}
    </Button>
  );
}
