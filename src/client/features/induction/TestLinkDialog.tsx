import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import { Refusal } from '../../components/Refusal.js';
import { bookingApi, type WorkerBooking } from './api.js';

/** Puts a text on the clipboard; false where the browser does not let the page write it. */
async function toClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * An online course's test link for one booking: copied to the clipboard as it opens, and shown
 * to copy by hand where the browser does not allow it. The worker opens it without signing in.
 */
export function TestLinkDialog({ booking, onClose }: { booking: WorkerBooking; onClose(): void }) {
  const translate = useTranslate();
  const text = (key: string, options?: object) => translate(`induction.screens.link.${key}`, options);
  const [copied, setCopied] = useState<boolean>();
  const link = useQuery({
    queryKey: ['induction-test-link', booking.IdInscripcion],
    queryFn: async () => (await bookingApi.testLink(booking.IdInscripcion)).enlace,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  useEffect(() => {
    if (link.data) void toClipboard(link.data).then(setCopied);
  }, [link.data]);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="test-link-title">
      <DialogTitle id="test-link-title">{text('title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Refusal error={link.error} testId="test-link-refusal" />
          {link.data && (
            <>
              {copied !== undefined && (
                <Alert severity={copied ? 'success' : 'info'}>
                  {text(copied ? 'copied' : 'copyByHand', { name: booking.Persona })}
                </Alert>
              )}
              <TextField
                id="test-link"
                label={text('label')}
                value={link.data}
                multiline
                slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'test-link' } }}
                onFocus={(event) => event.target.select()}
              />
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button
          startIcon={<ContentCopyIcon />}
          disabled={!link.data}
          onClick={async () => setCopied(await toClipboard(link.data as string))}
        >
          {text('copy')}
        </Button>
        <Button variant="contained" onClick={onClose}>
          {translate('ra.action.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
