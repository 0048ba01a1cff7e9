import { Alert, Button, Link, Stack, TextField, Typography } from '@mui/material';
import { useMachine } from '@xstate/react';
import { type FormEvent, useEffect, useState } from 'react';
import { forgotPasswordMachine } from '../../../../workflows/forgot-password.machine.js';
import { VERIFICATION_CODE } from '../../../shared/constants.js';
import { useT } from '../../i18n/translate.js';
import { forgotActors } from './actors.js';
import { NewPasswordFields, Notice, Problem } from './Steps.js';

const machine = forgotPasswordMachine.provide({ actors: forgotActors });

/** Step 5, forgot password, in its three views: user and e-mail, the code, the new password. */
export default function ForgotPassword({ onClose }: { onClose: () => void }) {
  const translate = useT();
  const [snapshot, send] = useMachine(machine);
  const { context } = snapshot;
  const busy = ['sending', 'checking', 'saving'].some((s) => snapshot.matches(s as 'sending'));
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState<string>();
  useEffect(() => {
    if (snapshot.status === 'done') onClose();
  }, [snapshot.status, onClose]);
  const form = (handler: () => void) => (event: FormEvent) => {
    event.preventDefault();
    handler();
  };
  const emailValid = /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);

  return (
    <Stack spacing={2}>
      <Typography variant="h6">{translate('forgot.title')}</Typography>
      <Problem problem={context.problem} />
      {context.notice && <Alert severity="success">{translate(context.notice)}</Alert>}
      {(snapshot.matches('identify') || snapshot.matches('sending')) && (
        <Stack
          component="form"
          spacing={2}
          onSubmit={form(() => send({ type: 'SEND', username, email }))}
          noValidate
        >
          <Typography variant="body2">{translate('forgot.identifyHint')}</Typography>
          <TextField
            id="forgot-username"
            label={translate('login.username')}
            value={username}
            onChange={(e) => setUsername(e.target.value.toLocaleUpperCase('es'))}
            required
            error={username === '' && context.problem !== undefined}
            fullWidth
          />
          <TextField
            id="forgot-email"
            label={translate('forgot.email')}
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            required
            error={email !== '' && !emailValid}
            helperText={email !== '' && !emailValid ? translate('validation.format.email') : ''}
            fullWidth
          />
          <Button type="submit" variant="contained" disabled={busy || !username || !emailValid}>
            {translate('forgot.send')}
          </Button>
          <Link
            component="button"
            type="button"
            onClick={() => send({ type: 'BACK' })}
            sx={{ alignSelf: 'flex-start' }}
          >
            {translate('login.backToLogin')}
          </Link>
        </Stack>
      )}
      {(snapshot.matches('enterCode') || snapshot.matches('checking')) && (
        <Stack component="form" spacing={2} onSubmit={form(() => send({ type: 'VERIFY', code }))} noValidate>
          <Notice messageKey="forgot.codeSent" params={{ email: context.email }} />
          <TextField
            id="forgot-code"
            label={translate('login.code')}
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            helperText={
              code && code.length < VERIFICATION_CODE.recoveryMinLength ? translate('forgot.codeLength') : ''
            }
            fullWidth
          />
          <Button
            type="submit"
            variant="contained"
            disabled={busy || code.length < VERIFICATION_CODE.recoveryMinLength}
          >
            {translate('forgot.next')}
          </Button>
          <Stack direction="row" justifyContent="space-between">
            <Link component="button" type="button" onClick={() => send({ type: 'RESEND' })} disabled={busy}>
              {translate('login.resend')}
            </Link>
            <Link component="button" type="button" onClick={() => send({ type: 'BACK' })}>
              {translate('login.back')}
            </Link>
          </Stack>
        </Stack>
      )}
      {(snapshot.matches('newPassword') || snapshot.matches('saving')) && (
        <Stack
          component="form"
          spacing={2}
          onSubmit={form(() => password && send({ type: 'SAVE', password, confirmation: password }))}
          noValidate
        >
          <NewPasswordFields
            level={context.nivelSeguridadClave}
            minLength={context.longitudClave}
            onChange={setPassword}
          />
          <Button type="submit" variant="contained" disabled={busy || !password}>
            {translate('login.savePassword')}
          </Button>
        </Stack>
      )}
    </Stack>
  );
}
