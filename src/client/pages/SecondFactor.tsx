import { Alert, Button, Stack, TextField, Typography } from '@mui/material';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { AppEnrolmentForm, RecoveryCodes } from '../components/AuthenticatorApp.js';
import { useT } from '../i18n/translate.js';
import { ApiRequestError, apiCall } from '../session/http.js';

interface Status {
  configuracion: 'N' | 'O' | 'S';
  activo: boolean;
  codigosRestantes: number;
}

/** The server's words for a refusal, or the connection's message. */
const reason = (error: unknown) =>
  error instanceof ApiRequestError ? error.message : (error as Error).message;

/**
 * The security page's "Second factor" tab: whether the login setting offers the authenticator app;
 * turning it on (QR and key, a code, the recovery codes once) and off with a current code where
 * the setting does not require it.
 */
export function SecondFactor() {
  const translate = useT();
  const [status, setStatus] = useState<Status>();
  const [offer, setOffer] = useState<{ secreto: string; uri: string }>();
  const [codes, setCodes] = useState<string[]>();
  const [problem, setProblem] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [code, setCode] = useState('');

  const load = useCallback(() => {
    apiCall<Status>('GET', '/api/SeguridadSegundoFactor/estado')
      .then(setStatus)
      .catch((error) => setProblem(reason(error)));
  }, []);
  useEffect(load, [load]);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setProblem(undefined);
    setNotice(undefined);
    try {
      await action();
    } catch (error) {
      setProblem(reason(error));
    } finally {
      setBusy(false);
    }
  };

  const start = () =>
    run(async () => setOffer(await apiCall('POST', '/api/SeguridadSegundoFactor/iniciar', {})));
  const confirm = (codigo: string) =>
    run(async () => {
      const answer = await apiCall<{ codigosRecuperacion: string[] }>(
        'POST',
        '/api/SeguridadSegundoFactor/confirmar',
        { codigo },
      );
      setOffer(undefined);
      setCodes(answer.codigosRecuperacion);
    });
  const disable = (event: FormEvent) => {
    event.preventDefault();
    run(async () => {
      await apiCall('POST', '/api/SeguridadSegundoFactor/desactivar', { codigo: code });
      setCode('');
      setNotice(translate('totp.disabled'));
      load();
    });
  };

  if (!status) return problem ? <Alert severity="error">{problem}</Alert> : null;
  return (
    <Stack spacing={2}>
      <Typography>{translate('totp.intro')}</Typography>
      {problem && <Alert severity="error">{problem}</Alert>}
      {notice && <Alert severity="success">{notice}</Alert>}
      {codes ? (
        <RecoveryCodes
          codes={codes}
          onContinue={() => {
            setCodes(undefined);
            load();
          }}
        />
      ) : status.configuracion === 'N' ? (
        <Alert severity="info">{translate('totp.notOffered')}</Alert>
      ) : status.activo ? (
        <>
          <Alert severity="success">{translate('totp.active', { count: status.codigosRestantes })}</Alert>
          {status.configuracion === 'S' ? (
            <Typography color="text.secondary">{translate('totp.required')}</Typography>
          ) : (
            <Stack component="form" spacing={2} onSubmit={disable} noValidate>
              <Typography>{translate('totp.disableHint')}</Typography>
              <TextField
                id="totp-disable-code"
                label={translate('totp.code')}
                value={code}
                onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(-6))}
                slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'one-time-code' } }}
                fullWidth
              />
              <Button type="submit" color="error" variant="outlined" disabled={busy || code.length !== 6}>
                {translate('totp.disable')}
              </Button>
            </Stack>
          )}
        </>
      ) : offer ? (
        <AppEnrolmentForm secret={offer.secreto} uri={offer.uri} busy={busy} onConfirm={confirm} />
      ) : (
        <>
          <Alert severity="info">{translate('totp.inactive')}</Alert>
          <Button variant="contained" onClick={start} disabled={busy}>
            {translate('totp.start')}
          </Button>
        </>
      )}
    </Stack>
  );
}
