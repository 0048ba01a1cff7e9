import { Box, Button, CircularProgress, Divider, Stack, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { type LoginAnswer, type LoginProblem, problemOf } from '../../../../workflows/login.machine.js';
import { APPLICATION_ID } from '../../../shared/constants.js';
import { DIRECTORY } from '../../../shared/directory.js';
import { withChallenge } from '../../challenge/challenge.js';
import { useT } from '../../i18n/translate.js';
import { apiCall, queryString } from '../../session/http.js';

const POLL_MS = 500;

interface Status {
  habilitado: boolean;
  idCliente: number | null;
}

/** The client the sign-in page is for: ?cliente= in its address, or the server's only one. */
const requestedClient = () => new URLSearchParams(window.location.search).get('cliente') ?? undefined;

/**
 * The corporate-account sign-in (spec sections 2 and 9): a button shown when the client's
 * directory flag is S. It opens the popup to the client's OpenID provider; the popup's page posts
 * back a single-use ticket (same origin only), which POST /api/UsuarioAD/authenticateAzureAD turns
 * into the login response of a password sign-in. A closed popup, the provider's refusal or a user
 * the console does not know hide the waiting line and leave the user signed out with the reason.
 */
export function DirectorySignIn(props: {
  busy: boolean;
  onSignedIn: (answer: LoginAnswer) => void;
  onFailed: (problem: LoginProblem) => void;
}) {
  const translate = useT();
  const [status, setStatus] = useState<Status>();
  const [waiting, setWaiting] = useState(false);
  const stop = useRef<() => void>(undefined);
  const { onSignedIn, onFailed } = props;

  useEffect(() => {
    let current = true;
    apiCall<Status>('GET', `${DIRECTORY.status}?${queryString({ IdCliente: requestedClient() })}`)
      .then((answer) => current && setStatus(answer))
      .catch(() => current && setStatus(undefined));
    return () => {
      current = false;
      stop.current?.();
    };
  }, []);

  if (!status?.habilitado || status.idCliente === null) return null;

  const open = () => {
    stop.current?.();
    const popup = window.open(
      `${DIRECTORY.start}?${queryString({ IdCliente: status.idCliente ?? undefined })}`,
      'acreditacion-directorio',
      'popup=yes,width=520,height=680',
    );
    if (!popup) {
      onFailed({ messageKey: 'login.directory.blocked' });
      return;
    }
    setWaiting(true);
    let settled = false;
    let closedOnce = false;
    const finish = () => {
      settled = true;
      window.removeEventListener('message', onMessage);
      window.clearInterval(timer);
      stop.current = undefined;
      if (!popup.closed) popup.close();
    };
    const fail = (problem: LoginProblem) => {
      setWaiting(false);
      onFailed(problem);
    };
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: unknown; ticket?: unknown; messageKey?: unknown } | null;
      if (settled || event.origin !== window.location.origin || event.source !== popup) return;
      if (data?.type !== DIRECTORY.message) return;
      finish();
      if (typeof data.ticket !== 'string' || !data.ticket) {
        fail({
          messageKey:
            typeof data.messageKey === 'string' ? data.messageKey : 'login.directory.providerRefused',
        });
        return;
      }
      const ticket = data.ticket;
      // The user's name is the directory's: the answer is checked against this address alone.
      withChallenge('', (tokenClient) =>
        apiCall<LoginAnswer>(
          'POST',
          DIRECTORY.authenticate,
          { tokenClient, idAplicacion: APPLICATION_ID },
          ticket,
        ),
      )
        .then((answer) => {
          setWaiting(false);
          onSignedIn(answer);
        })
        .catch((error: unknown) => fail(problemOf(error)));
    };
    // A popup closed by hand posts nothing; one closing itself has posted first (checked once more).
    const timer = window.setInterval(() => {
      if (settled || !popup.closed) return;
      if (!closedOnce) {
        closedOnce = true;
        return;
      }
      finish();
      fail({ messageKey: 'login.directory.closed' });
    }, POLL_MS);
    window.addEventListener('message', onMessage);
    stop.current = finish;
  };

  return (
    <Stack spacing={2}>
      <Divider>
        <Typography variant="body2" color="text.secondary">
          {translate('login.directory.or')}
        </Typography>
      </Divider>
      <Button variant="outlined" size="large" onClick={open} disabled={props.busy || waiting}>
        {translate('login.directory.button')}
      </Button>
      {waiting && (
        <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <CircularProgress size={20} />
          <Typography variant="body2">{translate('login.directory.waiting')}</Typography>
        </Box>
      )}
    </Stack>
  );
}
