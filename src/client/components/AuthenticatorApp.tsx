import { Alert, Box, Button, Link, Stack, TextField, Typography } from '@mui/material';
import { type FormEvent, useEffect, useState } from 'react';
import { useT } from '../i18n/translate.js';

/** Six digits of the app as typed: digits only, the last six. */
const appDigits = (value: string) => value.replace(/\D/g, '').slice(-6);

/** The QR of an otpauth:// URI, drawn in the browser (bwip-js) as an SVG image. */
function AppQr({ uri }: { uri: string }) {
  const translate = useT();
  const [image, setImage] = useState<string>();
  useEffect(() => {
    let live = true;
    import('bwip-js/browser').then(({ toSVG }) => {
      const svg = toSVG({ bcid: 'qrcode', text: uri, scale: 4 });
      if (live) setImage(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
    });
    return () => {
      live = false;
    };
  }, [uri]);
  return image ? (
    <Box sx={{ textAlign: 'center' }}>
      <img
        src={image}
        alt={translate('totp.qrAlt')}
        style={{ width: 200, maxWidth: '100%', imageRendering: 'pixelated' }}
      />
    </Box>
  ) : null;
}

/**
 * Enrolment in an authenticator app: the QR of its otpauth:// URI, the secret as text for manual
 * entry, and the code that confirms it.
 */
export function AppEnrolmentForm(props: {
  secret: string;
  uri: string;
  busy: boolean;
  onConfirm: (code: string) => void;
  onBack?: () => void;
}) {
  const translate = useT();
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onConfirm(code);
  };
  return (
    <Stack component="form" spacing={2} onSubmit={submit} noValidate>
      <Typography>{translate('totp.scan')}</Typography>
      <AppQr uri={props.uri} />
      <Box>
        <Typography variant="caption" color="text.secondary">
          {translate('totp.secret')}
        </Typography>
        <Typography data-testid="totp-secret" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
          {props.secret.replace(/(.{4})(?=.)/g, '$1 ')}
        </Typography>
      </Box>
      <TextField
        id="totp-code"
        label={translate('totp.code')}
        value={code}
        onChange={(e) => setCode(appDigits(e.target.value))}
        slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'one-time-code' } }}
        fullWidth
      />
      <Button type="submit" variant="contained" disabled={props.busy || code.length !== 6}>
        {translate('totp.confirm')}
      </Button>
      {props.onBack && (
        <Link component="button" type="button" onClick={props.onBack} sx={{ alignSelf: 'flex-end' }}>
          {translate('login.back')}
        </Link>
      )}
    </Stack>
  );
}

/** The ten recovery codes, shown this once. */
export function RecoveryCodes(props: { codes: string[]; onContinue: () => void }) {
  const translate = useT();
  return (
    <Stack spacing={2}>
      <Alert severity="warning">{translate('totp.recoveryHint')}</Alert>
      <Box
        component="ul"
        data-testid="recovery-codes"
        sx={{ fontFamily: 'monospace', columns: 2, m: 0, pl: 3 }}
      >
        {props.codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Button variant="contained" onClick={props.onContinue}>
        {translate('totp.continue')}
      </Button>
    </Stack>
  );
}

/** The sign-in's step after the password for a user with an authenticator app: its code, or a recovery code. */
export function AppCodeStep(props: { busy: boolean; onSubmit: (code: string) => void; onBack: () => void }) {
  const translate = useT();
  const [code, setCode] = useState('');
  // Six digits of the app, or a recovery code (ten letters and digits, a dash allowed).
  const usable = /^\d{6}$/.test(code) || code.replace(/[^A-Za-z0-9]/g, '').length === 10;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSubmit(code);
  };
  return (
    <Stack component="form" spacing={2} onSubmit={submit} noValidate>
      <Typography>{translate('login.appCodeHint')}</Typography>
      <TextField
        id="app-code"
        label={translate('login.appCode')}
        value={code}
        onChange={(e) => setCode(e.target.value.trim().slice(0, 20))}
        slotProps={{ htmlInput: { autoComplete: 'one-time-code' } }}
        autoFocus
        fullWidth
      />
      <Button type="submit" variant="contained" size="large" disabled={props.busy || !usable}>
        {translate('login.verify')}
      </Button>
      <Link component="button" type="button" onClick={props.onBack} sx={{ alignSelf: 'flex-end' }}>
        {translate('login.back')}
      </Link>
    </Stack>
  );
}
