import PasswordIcon from '@mui/icons-material/Password';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
} from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useRecordContext, useTranslate } from 'react-admin';
import { NewPasswordFields } from '../../pages/login/Steps.js';
import { ApiRequestError, apiCall } from '../../session/http.js';
import { session } from '../../session/store.js';

interface Policy {
  longitudClave: number;
  nivelSeguridadClave: string;
}

/** The server's reason: a field's (the password's rule) before the call's own message. */
function reasonOf(error: unknown): string {
  if (error instanceof ApiRequestError) {
    const errors = (error.body as { errors?: Record<string, { message?: string }> } | undefined)?.errors;
    const field = errors && Object.values(errors).find((e) => typeof e?.message === 'string');
    if (field?.message) return field.message;
  }
  return (error as Error).message;
}

/**
 * An administrator sets a user's password (POST /api/SeguridadusuarioClave/crear): the new password
 * twice, checked against the user's login setting as the server checks it; the server's answer is
 * shown. The user's sessions end and the next sign-in asks them to change it.
 */
export default function SetPasswordButton() {
  const record = useRecordContext();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [policy, setPolicy] = useState<Policy>();
  const [password, setPassword] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const userId = typeof record?.IdUsuario === 'string' ? record.IdUsuario : undefined;
  // One's own password changes on the security page, with the previous one.
  if (!userId || userId === session.auth()?.username) return null;

  const start = async () => {
    setOpen(true);
    setProblem(undefined);
    setDone(false);
    setPassword(undefined);
    setPolicy(undefined);
    try {
      setPolicy(await apiCall<Policy>('PUT', '/api/SeguridadusuarioLogin/obtener', { IdUsuario: userId }));
    } catch (error) {
      setProblem(reasonOf(error));
    }
  };
  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) return;
    setBusy(true);
    setProblem(undefined);
    try {
      const result = await apiCall<{ id: number }>('POST', '/api/SeguridadusuarioClave/crear', {
        IdUsuario: userId,
        Clave: password,
      });
      if (result.id === 2) setProblem(translate('password.mustDiffer'));
      else setDone(true);
    } catch (error) {
      setProblem(reasonOf(error));
    } finally {
      setBusy(false);
    }
  };
  const close = () => setOpen(false);
  return (
    <>
      <Button size="small" startIcon={<PasswordIcon />} onClick={start} className="set-password">
        {translate('security.setPassword.button')}
      </Button>
      <Dialog open={open} onClose={close} maxWidth="xs" fullWidth>
        <form onSubmit={save} noValidate>
          <DialogTitle>{translate('security.setPassword.title', { user: userId })}</DialogTitle>
          <DialogContent>
            <Stack spacing={2} sx={{ pt: 1 }}>
              {done ? (
                <Alert severity="success" role="status">
                  {translate('security.setPassword.done', { user: userId })}
                </Alert>
              ) : (
                <>
                  <DialogContentText>{translate('security.setPassword.intro')}</DialogContentText>
                  {problem && (
                    <Alert severity="error" role="alert">
                      {problem}
                    </Alert>
                  )}
                  {policy && (
                    <NewPasswordFields
                      level={policy.nivelSeguridadClave}
                      minLength={policy.longitudClave}
                      onChange={setPassword}
                    />
                  )}
                </>
              )}
            </Stack>
          </DialogContent>
          <DialogActions>
            {!done && (
              <Button type="submit" variant="contained" disabled={!password || busy}>
                {translate('security.setPassword.save')}
              </Button>
            )}
            <Button onClick={close}>{translate(done ? 'ra.action.close' : 'ra.action.cancel')}</Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
