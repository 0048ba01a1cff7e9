import DownloadIcon from '@mui/icons-material/Download';
import { Button } from '@mui/material';
import { useState } from 'react';
import { useListContext, useNotify, useResourceContext, useTranslate } from 'react-admin';
import { downloadFile } from '../files.js';

/**
 * Exports the list as the user sees it (its filters and sort) to Excel: the server writes the
 * file (spec section 7), in the console's language; the browser saves it.
 */
export default function ExportButton() {
  const resource = useResourceContext() as string;
  const { filterValues, sort, total } = useListContext();
  const notify = useNotify();
  const translate = useTranslate();
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    setBusy(true);
    try {
      const query = new URLSearchParams({
        filter: JSON.stringify(filterValues ?? {}),
        sort: JSON.stringify([sort.field, sort.order]),
      });
      await downloadFile(`/api/rest/${resource}/export?${query}`, `${resource}.xlsx`);
      notify('app.export.done', { type: 'success' });
    } catch {
      notify('app.export.failed', { type: 'info' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      size="small"
      startIcon={<DownloadIcon />}
      onClick={onClick}
      disabled={busy || total === 0}
      className="export-button"
    >
      {translate('app.export.label')}
    </Button>
  );
}
