import QrCodeScannerIcon from '@mui/icons-material/QrCodeScanner';
import VideocamOffIcon from '@mui/icons-material/VideocamOff';
import { Alert, Box, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { lazy, Suspense, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';
import { Refusal } from '../../components/Refusal.js';
import { inductionApi } from './api.js';

const Scanner = lazy(() => import('../../components/Scanner.js'));

/** The same code read again within this time is the same badge still in front of the camera. */
const REPEAT_MS = 4000;

/**
 * Attendance by the badge: the phone's camera reads a badge's QR code (or a document's barcode),
 * or a document or card number is typed; each marks its holder present on the session. The
 * last one marked, or why not, is said under it.
 */
export function AttendanceScan({
  sessionId,
  onMarked,
}: {
  sessionId: number;
  onMarked(bookingId: number): void;
}) {
  const translate = useTranslate();
  const text = (key: string, options?: object) => translate(`induction.screens.scan.${key}`, options);
  const [camera, setCamera] = useState(false);
  const [cameraFailed, setCameraFailed] = useState(false);
  const [typed, setTyped] = useState('');
  const last = useRef({ code: '', at: 0 });
  const mark = useMutation({
    mutationFn: (code: string) => inductionApi.markPresent(sessionId, code),
    onSuccess: (marked) => onMarked(marked.IdInscripcion),
  });
  const read = (code: string) => {
    const now = Date.now();
    if (mark.isPending || (code === last.current.code && now - last.current.at < REPEAT_MS)) return;
    last.current = { code, at: now };
    mark.mutate(code);
  };
  return (
    <Card data-testid="attendance-scan">
      <CardContent>
        <Stack spacing={1.5}>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, flex: '1 1 auto' }}>
              {text('title')}
            </Typography>
            <Button
              variant={camera ? 'outlined' : 'contained'}
              startIcon={camera ? <VideocamOffIcon /> : <QrCodeScannerIcon />}
              onClick={() => {
                setCamera(!camera);
                setCameraFailed(false);
              }}
              data-testid="scan-toggle"
            >
              {text(camera ? 'stop' : 'start')}
            </Button>
          </Box>
          {camera && !cameraFailed && (
            <Box
              sx={{
                '& video': {
                  display: 'block',
                  width: '100%',
                  maxWidth: 480,
                  maxHeight: 280,
                  objectFit: 'cover',
                  bgcolor: 'common.black',
                  borderRadius: 1,
                },
              }}
            >
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                {text('help')}
              </Typography>
              <Suspense fallback={null}>
                <Scanner label={text('camera')} onRead={read} onError={() => setCameraFailed(true)} />
              </Suspense>
            </Box>
          )}
          {cameraFailed && (
            <Alert severity="warning" data-testid="scan-camera-failed">
              {text('cameraFailed')}
            </Alert>
          )}
          <Box
            component="form"
            sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}
            onSubmit={(event) => {
              event.preventDefault();
              const code = typed.trim();
              if (!code) return;
              last.current = { code, at: Date.now() };
              mark.mutate(code, { onSuccess: () => setTyped('') });
            }}
          >
            <TextField
              id="scan-typed"
              size="small"
              label={text('typed')}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              slotProps={{ htmlInput: { maxLength: 40, autoComplete: 'off' } }}
              sx={{ flex: { xs: '1 1 100%', sm: '0 1 280px' } }}
            />
            <Button
              type="submit"
              variant="outlined"
              disabled={mark.isPending || !typed.trim()}
              data-testid="scan-mark"
            >
              {text('mark')}
            </Button>
          </Box>
          {mark.isSuccess && !mark.isPending && (
            <Alert severity="success" data-testid="scan-marked">
              {text('marked', { name: mark.data.Persona })}
            </Alert>
          )}
          <Refusal error={mark.error} testId="scan-refusal" />
        </Stack>
      </CardContent>
    </Card>
  );
}
