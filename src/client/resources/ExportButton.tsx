import DownloadIcon from '@mui/icons-material/Download';
import { Button } from '@mui/material';
import { useState } from 'react';
import { useListContext, useNotify, useResourceContext, useTranslate } from 'react-admin';
import { apiFetch } from '../session/http.js';

/** The file name the server gave (Content-Disposition, RFC 5987 first), or a plain one. */
function fileName(header: string | null, fallback: string): string {
  const starred = /filename\*=UTF-8''([^;]+)/i.exec(header ?? '')?.[1];
  if (starred) return decodeURIComponent(starred);
  return /filename="([^"]+)"/i.exec(header ?? '')?.[1] ?? fallback;
}

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
      const response = await apiFetch(`/api/rest/${resource}/export?${query}`);
      if (!response.ok) throw new Error(String(response.status));
      const blob = await response.blob();
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName(response.headers.get('content-disposition'), `${resource}.xlsx`);
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
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
