import LockIcon from '@mui/icons-material/Lock';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Link,
  Stack,
  Typography,
} from '@mui/material';
import { useMachine } from '@xstate/react';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { fromPromise } from 'xstate';
import type { SessionAnswer } from '../../../workflows/login.machine.js';
import { screenLockMachine } from '../../../workflows/screen-lock.machine.js';
import { ChallengeWidget } from '../challenge/ChallengeWidget.js';
import { withChallenge } from '../challenge/challenge.js';
import { PasswordField } from '../components/PasswordField.js';
import { LOGIN_PATH, signOut } from '../providers/auth.js';
import { apiCall, type SessionEventName, sessionEvents } from '../session/http.js';
import { session } from '../session/store.js';

const ACTIVITY_EVENTS = ['mousemove', 'mouseover', 'scroll', 'keydown', 'touchstart'] as const;
/** A lock call is on its way: the lock is asked for once. */
let locking = false;

/** The lock screen's password brings back a session in the same profile and division. */
async function unlock(password: string): Promise<void> {
  const auth = session.auth();
  const profile = session.profile();
  if (!auth || !profile) throw { messageKey: 'api.errors.UNAUTHORIZED' };
  const chosen = await withChallenge(auth.username, (tokenClient) =>
    apiCall<SessionAnswer>('POST', '/api/usuario/unlock', {
      idUsuario: auth.username,
      password,
      idPerfil: profile.current.IdPerfil,
      idDivision: profile.current.IdDivision,
      ticket: session.lockTicket(),
      tokenClient,
    }),
  );
  session.saveTokens(chosen.accessToken, chosen.refreshToken);
  session.setLocked(false);
}

/**
 * Screen lock and inactivity for every signed-in screen (spec sections 2 and 4): one tick a
 * second, any mouse move, hover, scroll or key resets the count, and so does a screen following a
 * job for the user (`keepSessionAlive`); at the profile's timeout (400 s
 * by default) the screen locks, the tokens are dropped and the password is asked for. The splash
 * (lost connection, ended session) counts five seconds down and signs out.
 */
export default function SessionGuard() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const machine = useMemo(
    () =>
      screenLockMachine.provide({
        actors: {
          unlock: fromPromise<unknown, { password: string }>(({ input }) => unlock(input.password)),
          logout: fromPromise<unknown, void>(async () => {
            await signOut();
            window.location.assign(LOGIN_PATH);
          }),
        },
      }),
    [],
  );
  const [snapshot, send] = useMachine(machine);
  const [password, setPassword] = useState('');

  useEffect(() => {
    send({ type: 'START', timeout: session.profile()?.lockSeconds });
    // A screen locked before a reload stays locked.
    if (session.locked()) send({ type: 'LOCK' });
    const tick = setInterval(() => send({ type: 'TICK' }), 1000);
    let last = 0;
    const activity = () => {
      const now = Date.now();
      if (now - last > 250) {
        last = now;
        send({ type: 'ACTIVITY' });
      }
    };
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, activity, { passive: true });
    const on: Record<SessionEventName, () => void> = {
      lock: () => send({ type: 'LOCK' }),
      'session-ended': () => send({ type: 'SESSION_ENDED' }),
      'connection-lost': () => send({ type: 'CONNECTION_LOST' }),
      activity: () => send({ type: 'ACTIVITY' }),
    };
    for (const [name, handler] of Object.entries(on)) sessionEvents.addEventListener(name, handler);
    return () => {
      clearInterval(tick);
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, activity);
      for (const [name, handler] of Object.entries(on)) sessionEvents.removeEventListener(name, handler);
    };
  }, [send]);

  const locked =
    snapshot.matches('locked') || snapshot.matches('unlocking') || snapshot.matches('lockedWithError');
  useEffect(() => {
    if (!locked) return;
    // Locking drops the tokens: only the password brings them back. The server first trades the
    // session's refresh token for a ticket that resumes this session with the password.
    if (session.locked() || locking) return;
    locking = true;
    const drop = () => {
      locking = false;
      session.setLocked(true);
      if (session.auth()?.accessToken) session.saveTokens('', '');
    };
    if (!session.auth()?.accessToken) return drop();
    apiCall<{ ticket: string }>('POST', '/api/usuario/lock')
      .then(({ ticket }) => {
        drop();
        session.saveLockTicket(ticket);
      })
      .catch(drop);
  }, [locked]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    send({ type: 'UNLOCK', password });
    setPassword('');
  };

  return (
    <>
      <Dialog open={locked} fullScreen aria-labelledby="lock-title" data-testid="lock-screen">
        <Box
          sx={{
            display: 'flex',
            flex: 1,
            alignItems: 'center',
            justifyContent: 'center',
            bgcolor: 'primary.main',
          }}
        >
          {/* No native validation: the challenge's checkbox is required and unticked while a new
              answer is being solved, which would swallow the submit; unlock waits for the answer. */}
          <Stack
            component="form"
            noValidate
            onSubmit={submit}
            spacing={2}
            sx={{ bgcolor: 'background.paper', p: 4, borderRadius: 2, width: 380 }}
          >
            <Stack direction="row" spacing={1} alignItems="center">
              <LockIcon color="primary" />
              <Typography id="lock-title" variant="h6">
                {translate('lock.title')}
              </Typography>
            </Stack>
            <Typography variant="body2">
              {translate('lock.hint', { user: session.auth()?.fullName ?? '' })}
            </Typography>
            {snapshot.context.problem && (
              <Alert severity="error" role="alert">
                {translate(snapshot.context.problem.messageKey, snapshot.context.problem.params)}
              </Alert>
            )}
            <PasswordField
              id="lock-password"
              label={translate('login.password')}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              autoFocus
              fullWidth
            />
            <ChallengeWidget language={locale === 'en' ? 'en' : 'es'} />
            <Button type="submit" variant="contained" disabled={!password || snapshot.matches('unlocking')}>
              {translate('lock.unlock')}
            </Button>
            <Link
              component="button"
              type="button"
              onClick={() => send({ type: 'BACK_TO_LOGIN' })}
              sx={{ alignSelf: 'flex-start' }}
            >
              {translate('login.backToLogin')}
            </Link>
          </Stack>
        </Box>
      </Dialog>
      <Dialog open={snapshot.matches('splash')} data-testid="splash">
        <DialogTitle>{translate('splash.title')}</DialogTitle>
        <DialogContent>
          <Typography>{translate('splash.text', { seconds: snapshot.context.countdown })}</Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => send({ type: 'CLOSE_SPLASH' })}>{translate('ra.action.close')}</Button>
          <Button onClick={() => send({ type: 'LOGOUT' })} variant="contained">
            {translate('ra.auth.logout')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
