import { Box, Card, CardContent, Paper, Stack, Typography } from '@mui/material';
import { useMachine } from '@xstate/react';
import { useEffect } from 'react';
import { loginMachine } from '../../../../workflows/login.machine.js';
import { APP_VERSION, type Language } from '../../../shared/constants.js';
import { ChallengeWidget } from '../../challenge/ChallengeWidget.js';
import { AppCodeStep, AppEnrolmentForm, RecoveryCodes } from '../../components/AuthenticatorApp.js';
import { LanguageMenu } from '../../components/LanguageMenu.js';
import { useT } from '../../i18n/translate.js';
import { DASHBOARD_PATH } from '../../paths.js';
import { session } from '../../session/store.js';
import { usePageTitle } from '../../usePageTitle.js';
import { loginActors } from './actors.js';
import { DirectorySignIn } from './DirectorySignIn.js';
import ForgotPassword from './ForgotPassword.js';
import Gallery from './Gallery.js';
import { ChangePasswordStep, CodeStep, CredentialsStep, Notice, Problem, ProfileStep } from './Steps.js';

const machine = loginMachine.provide({ actors: loginActors });

/**
 * /auth/login: the five steps of spec section 2 beside the gallery and the product's panel. A
 * session that already has a profile goes to the dashboard; a new one gets there by a full load,
 * so the console starts with the profile's screens.
 */
export default function LoginPage({
  language,
  onLanguage,
}: {
  language: Language;
  onLanguage: (language: Language) => void;
}) {
  const translate = useT();
  const [snapshot, send] = useMachine(machine);
  const { context } = snapshot;
  const busy = [
    'authenticating',
    'verifying',
    'verifyingApp',
    'offeringApp',
    'confirmingApp',
    'resending',
    'changing',
    'selecting',
  ].some((s) => snapshot.matches(s as 'credentials'));

  useEffect(() => {
    if (session.signedIn()) window.location.replace(DASHBOARD_PATH);
  }, []);
  useEffect(() => {
    if (snapshot.matches('signedIn')) window.location.assign(DASHBOARD_PATH);
  }, [snapshot]);

  const step = snapshot.matches('forgot')
    ? 'forgot'
    : snapshot.matches('appCode') || snapshot.matches('verifyingApp')
      ? 'appCode'
      : snapshot.matches('offeringApp') || snapshot.matches('enrolApp') || snapshot.matches('confirmingApp')
        ? 'enrolApp'
        : snapshot.matches('recoveryCodes')
          ? 'recoveryCodes'
          : snapshot.matches('code') || snapshot.matches('verifying') || snapshot.matches('resending')
            ? 'code'
            : snapshot.matches('changePassword') || snapshot.matches('changing')
              ? 'password'
              : snapshot.matches('profile') || snapshot.matches('selecting') || snapshot.matches('signedIn')
                ? 'profile'
                : 'credentials';
  usePageTitle([translate(`login.steps.${step}`)], translate('app.title'));

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', bgcolor: 'background.default' }}>
      <Paper
        square
        elevation={0}
        sx={{
          display: { xs: 'none', md: 'flex' },
          flexDirection: 'column',
          width: '55%',
          p: 4,
          gap: 3,
          bgcolor: 'primary.main',
          color: 'primary.contrastText',
        }}
      >
        <Box>
          <Typography variant="h3" component="h1">
            {translate('app.title')}
          </Typography>
          <Typography variant="h6">{translate('app.subtitle')}</Typography>
        </Box>
        <Gallery />
        <Typography variant="caption">{translate('app.version', { version: APP_VERSION })}</Typography>
      </Paper>
      <Stack sx={{ flex: 1, alignItems: 'center', justifyContent: 'center', p: 2 }}>
        <Box sx={{ alignSelf: 'flex-end' }}>
          <LanguageMenu language={language} onChange={onLanguage} />
        </Box>
        {/* On a phone the side panel is hidden: the product still names itself. */}
        <Box sx={{ display: { xs: 'block', md: 'none' }, width: '100%', maxWidth: 420, mt: 1 }}>
          <Typography variant="h4" component="h1" color="primary">
            {translate('app.title')}
          </Typography>
          <Typography color="text.secondary">{translate('app.subtitle')}</Typography>
        </Box>
        <Card sx={{ width: '100%', maxWidth: 420, mt: 2 }}>
          <CardContent>
            <Stack spacing={2}>
              <Typography variant="h5" component="h2">
                {translate(`login.steps.${step}`)}
              </Typography>
              {step !== 'forgot' && <Problem problem={context.problem} />}
              {step !== 'forgot' && <Notice messageKey={context.notice} />}
              {step === 'credentials' && (
                <CredentialsStep
                  busy={busy}
                  onSubmit={(username, password) => send({ type: 'SUBMIT', username, password })}
                  onForgot={() => send({ type: 'FORGOT' })}
                />
              )}
              {step === 'credentials' && (
                <DirectorySignIn
                  busy={busy}
                  onSignedIn={(answer) => send({ type: 'DIRECTORY_SIGNED_IN', answer })}
                  onFailed={(problem) => send({ type: 'DIRECTORY_FAILED', problem })}
                />
              )}
              {step === 'code' && (
                <CodeStep
                  busy={busy}
                  onSubmit={(code) => send({ type: 'SUBMIT_CODE', code })}
                  onResend={() => send({ type: 'RESEND' })}
                  onBack={() => send({ type: 'BACK' })}
                />
              )}
              {step === 'appCode' && (
                <AppCodeStep
                  busy={busy}
                  onSubmit={(code) => send({ type: 'SUBMIT_APP_CODE', code })}
                  onBack={() => send({ type: 'BACK' })}
                />
              )}
              {step === 'enrolApp' && <Notice messageKey="totp.enrolRequired" />}
              {step === 'enrolApp' && context.enrolment && (
                <AppEnrolmentForm
                  secret={context.enrolment.secreto}
                  uri={context.enrolment.uri}
                  busy={busy}
                  onConfirm={(code) => send({ type: 'CONFIRM_APP', code })}
                  onBack={() => send({ type: 'BACK' })}
                />
              )}
              {step === 'recoveryCodes' && context.recoveryCodes && (
                <RecoveryCodes codes={context.recoveryCodes} onContinue={() => send({ type: 'CONTINUE' })} />
              )}
              {step === 'password' && context.answer && (
                <ChangePasswordStep
                  answer={context.answer}
                  reason={context.reason}
                  busy={busy}
                  onSubmit={(password) => send({ type: 'CHANGE_PASSWORD', password })}
                  onBack={() => send({ type: 'BACK' })}
                />
              )}
              {step === 'profile' && context.answer && (
                <ProfileStep
                  answer={context.answer}
                  busy={busy}
                  onSubmit={(idPerfil, idDivision) => send({ type: 'SELECT', idPerfil, idDivision })}
                  onBack={() => send({ type: 'BACK' })}
                />
              )}
              {step === 'forgot' && <ForgotPassword onClose={() => send({ type: 'BACK' })} />}
              {/* The calls of these steps carry the answer to the sign-in challenge. */}
              {(step === 'credentials' || step === 'code' || step === 'forgot') && (
                <ChallengeWidget language={language} />
              )}
            </Stack>
          </CardContent>
        </Card>
      </Stack>
    </Box>
  );
}
