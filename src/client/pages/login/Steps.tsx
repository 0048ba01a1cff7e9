import { Alert, Box, Button, Link, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { type FormEvent, useMemo, useRef, useState } from 'react';
import { expiryNotice, type LoginAnswer, type LoginProblem } from '../../../../workflows/login.machine.js';
import { VERIFICATION_CODE } from '../../../shared/constants.js';
import { passwordProblems, type SecurityLevel } from '../../../shared/password-policy.js';
import { PasswordField } from '../../components/PasswordField.js';
import { useT } from '../../i18n/translate.js';

/**
 * A refusal as the spec shows sign-in failures: the server's message, upper-cased; the reason a
 * typed value was refused (a new password's) as the server words it.
 */
export function Problem({ problem }: { problem?: LoginProblem }) {
  const translate = useT();
  if (!problem) return null;
  return (
    <Alert severity="error" sx={{ textTransform: problem.field ? 'none' : 'uppercase' }} role="alert">
      {translate(problem.messageKey, problem.params)}
    </Alert>
  );
}

export function Notice({ messageKey, params }: { messageKey?: string; params?: Record<string, unknown> }) {
  const translate = useT();
  if (!messageKey) return null;
  return <Alert severity="info">{translate(messageKey, params)}</Alert>;
}

const submit = (handler: () => void) => (event: FormEvent) => {
  event.preventDefault();
  handler();
};

/** Step 1: user and password. The user name is upper-cased; space or Tab moves to the password. */
export function CredentialsStep(props: {
  busy: boolean;
  onSubmit: (username: string, password: string) => void;
  onForgot: () => void;
}) {
  const translate = useT();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const passwordRef = useRef<HTMLInputElement>(null);
  return (
    <Stack
      component="form"
      spacing={2}
      onSubmit={submit(() => props.onSubmit(username, password))}
      noValidate
    >
      <TextField
        id="username"
        label={translate('login.username')}
        value={username}
        onChange={(e) => setUsername(e.target.value.toLocaleUpperCase('es').replace(/\s/g, ''))}
        onKeyDown={(e) => {
          if (e.key === ' ') {
            e.preventDefault();
            passwordRef.current?.focus();
          }
        }}
        autoComplete="username"
        autoFocus
        required
        fullWidth
      />
      <PasswordField
        id="password"
        ref={passwordRef}
        label={translate('login.password')}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        required
        fullWidth
      />
      <Button type="submit" variant="contained" size="large" disabled={props.busy || !username || !password}>
        {translate('login.signIn')}
      </Button>
      <Link component="button" type="button" onClick={props.onForgot} sx={{ alignSelf: 'flex-start' }}>
        {translate('login.forgot')}
      </Link>
    </Stack>
  );
}

/** Step 4: the verification code. Four digits; a longer entry keeps its last four. */
export function CodeStep(props: {
  busy: boolean;
  onSubmit: (code: string) => void;
  onResend: () => void;
  onBack: () => void;
}) {
  const translate = useT();
  const [code, setCode] = useState('');
  const digits = VERIFICATION_CODE.loginDigits;
  return (
    <Stack component="form" spacing={2} onSubmit={submit(() => props.onSubmit(code))} noValidate>
      <Typography>{translate('login.codeHint')}</Typography>
      <TextField
        id="code"
        label={translate('login.code')}
        value={code}
        onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(-digits))}
        slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'one-time-code' } }}
        autoFocus
        fullWidth
      />
      <Button type="submit" variant="contained" size="large" disabled={props.busy || code.length !== digits}>
        {translate('login.verify')}
      </Button>
      <Stack direction="row" justifyContent="space-between">
        <Link component="button" type="button" onClick={props.onResend} disabled={props.busy}>
          {translate('login.resend')}
        </Link>
        <Link component="button" type="button" onClick={props.onBack}>
          {translate('login.back')}
        </Link>
      </Stack>
    </Stack>
  );
}

/** New password and confirmation, checked against the user's level and length as they are typed. */
export function NewPasswordFields(props: {
  level: string;
  minLength: number;
  onChange: (password: string | undefined) => void;
}) {
  const translate = useT();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const problems = useMemo(
    () =>
      password
        ? passwordProblems(password, { level: props.level as SecurityLevel, minLength: props.minLength })
        : [],
    [password, props.level, props.minLength],
  );
  const mismatch = confirmation !== '' && confirmation !== password;
  const update = (next: string, again: string) => {
    const ok =
      next !== '' &&
      next === again &&
      !passwordProblems(next, { level: props.level as SecurityLevel, minLength: props.minLength }).length;
    props.onChange(ok ? next : undefined);
  };
  return (
    <>
      <Typography variant="body2" color="text.secondary">
        {translate(`password.level.${props.level}`)}{' '}
        {translate('password.tooShort', { min: props.minLength })}
      </Typography>
      <PasswordField
        id="new-password"
        label={translate('login.newPassword')}
        value={password}
        autoComplete="new-password"
        onChange={(e) => {
          setPassword(e.target.value);
          update(e.target.value, confirmation);
        }}
        error={problems.length > 0}
        helperText={
          problems.length
            ? translate(problems[0].messageKey, problems[0].params)
            : password
              ? ''
              : translate('password.required')
        }
        fullWidth
      />
      <PasswordField
        id="confirm-password"
        label={translate('login.confirmPassword')}
        value={confirmation}
        autoComplete="new-password"
        onChange={(e) => {
          setConfirmation(e.target.value);
          update(password, e.target.value);
        }}
        error={mismatch}
        helperText={mismatch ? translate('password.confirmationMismatch') : ''}
        fullWidth
      />
    </>
  );
}

/** Step 3: the password change forced at sign-in when it expired or is the first. */
export function ChangePasswordStep(props: {
  answer: LoginAnswer;
  reason?: 'expired' | 'first';
  busy: boolean;
  onSubmit: (password: string) => void;
  onBack: () => void;
}) {
  const translate = useT();
  const [password, setPassword] = useState<string>();
  return (
    <Stack
      component="form"
      spacing={2}
      onSubmit={submit(() => password && props.onSubmit(password))}
      noValidate
    >
      <Alert severity="warning">
        {translate(props.reason === 'expired' ? 'password.expired' : 'password.firstChange')}
      </Alert>
      <NewPasswordFields
        level={props.answer.nivelSeguridadClave}
        minLength={props.answer.longitudClave}
        onChange={setPassword}
      />
      <Button type="submit" variant="contained" size="large" disabled={props.busy || !password}>
        {translate('login.savePassword')}
      </Button>
      <Link component="button" type="button" onClick={props.onBack} sx={{ alignSelf: 'flex-start' }}>
        {translate('login.back')}
      </Link>
    </Stack>
  );
}

/** Step 2: the profile and the client/division to work in; the password-expiry notice at 6 days or fewer. */
export function ProfileStep(props: {
  answer: LoginAnswer;
  busy: boolean;
  onSubmit: (idPerfil: number, idDivision: number) => void;
  onBack: () => void;
}) {
  const translate = useT();
  const { perfil, division, diasCaducidadClave } = props.answer;
  const [profile, setProfile] = useState<number>(perfil[0]?.IdPerfil);
  const divisions = division.filter((d) => d.IdPerfil === profile);
  const [chosen, setChosen] = useState<number | undefined>(divisions[0]?.IdDivision);
  const notice = expiryNotice(diasCaducidadClave);
  return (
    <Stack
      component="form"
      spacing={2}
      onSubmit={submit(() => chosen !== undefined && props.onSubmit(profile, chosen))}
      noValidate
    >
      <Typography>{translate('login.welcome', { name: props.answer.fullName })}</Typography>
      {notice && <Alert severity="warning">{translate(notice.messageKey, notice.params)}</Alert>}
      <TextField
        select
        id="profile"
        label={translate('login.profile')}
        value={profile ?? ''}
        onChange={(e) => {
          const next = Number(e.target.value);
          setProfile(next);
          setChosen(division.find((d) => d.IdPerfil === next)?.IdDivision);
        }}
        fullWidth
      >
        {perfil.map((p) => (
          <MenuItem key={p.IdPerfil} value={p.IdPerfil}>
            {p.Perfil}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        id="division"
        label={translate('login.division')}
        value={chosen ?? ''}
        onChange={(e) => setChosen(Number(e.target.value))}
        fullWidth
      >
        {divisions.map((d) => (
          <MenuItem key={d.IdDivision} value={d.IdDivision}>
            {d.Cliente} — {d.Division}
          </MenuItem>
        ))}
      </TextField>
      <Button type="submit" variant="contained" size="large" disabled={props.busy || chosen === undefined}>
        {translate('login.enter')}
      </Button>
      <Box>
        <Link component="button" type="button" onClick={props.onBack}>
          {translate('login.back')}
        </Link>
      </Box>
    </Stack>
  );
}
