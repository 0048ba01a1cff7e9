import QuizIcon from '@mui/icons-material/Quiz';
import {
  Alert,
  AppBar,
  Box,
  Card,
  CardContent,
  Container,
  LinearProgress,
  Stack,
  type Theme,
  Toolbar,
  Typography,
  useMediaQuery,
} from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { useParams } from 'react-router-dom';
import type { Language } from '../../../shared/constants.js';
import { LanguageMenu } from '../../components/LanguageMenu.js';
import { Refusal } from '../../components/Refusal.js';
import { formatDateTime } from '../../format.js';
import { chosenLanguage, isLanguage, saveLanguage } from '../../language.js';
import { useConsoleTitle } from '../../resources/ScreenTitle.js';
import { ApiRequestError } from '../../session/http.js';
import { bookingApi, inLanguage, type TestScore } from './api.js';
import { type Answers, TestQuestions } from './TestQuestions.js';

/**
 * The page's language: one chosen here before (?lang=, the menu), else the browser's when it is
 * English, else Spanish; the menu changes it and keeps the choice.
 */
function useWorkerLanguage() {
  const [locale, setLocale] = useLocaleState();
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    if (chosenLanguage()) return;
    const browser = (navigator.languages?.[0] ?? navigator.language ?? '').slice(0, 2).toLowerCase();
    if (isLanguage(browser)) {
      document.documentElement.lang = browser;
      setLocale(browser);
    }
  }, [setLocale]);
  const language: Language = isLanguage(locale) ? locale : 'es';
  const choose = (next: Language) => {
    saveLanguage(next);
    setLocale(next);
  };
  return [language, choose] as const;
}

/** An instant as the site's clocks read it, to the minute. */
const minuteOf = (instant: string) => formatDateTime(instant).slice(0, 16);

/** The score of an attempt: passed or not, the right answers, and when a failed one may be tried again. */
function Outcome({ score, passing }: { score: TestScore; passing: number }) {
  const translate = useTranslate();
  const text = (key: string, options?: object) => translate(`induction.screens.test.${key}`, options);
  return (
    <Alert
      severity={score.aprobado ? 'success' : 'error'}
      data-testid="test-outcome"
      data-passed={score.aprobado}
    >
      <Typography variant="h6" component="p">
        {score.aprobado
          ? text('passed', { score: score.Nota })
          : text('failed', { score: score.Nota, passing })}
      </Typography>
      <Typography>{text('right', { right: score.correctas, total: score.preguntas })}</Typography>
      {score.proximoIntento && (
        <Typography>{text('nextAttempt', { at: minuteOf(score.proximoIntento) })}</Typography>
      )}
    </Alert>
  );
}

/** When the next attempt opens, from a refusal of the hourly limit (429); undefined for any other error. */
const waitUntil = (error: unknown) =>
  error instanceof ApiRequestError && error.status === 429 ? String(error.params?.at ?? '') : undefined;

/**
 * A worker's online induction test (issue 42), opened from the link its requester gave it, with
 * no sign-in: the course and its questions, four options each; the server scores the answers and
 * says whether they pass; one attempt an hour, and the page says when the next one opens.
 */
export default function OnlineTestPage() {
  const { token = '' } = useParams();
  const translate = useTranslate();
  const text = (key: string, options?: object) => translate(`induction.screens.test.${key}`, options);
  const [language, setLanguage] = useWorkerLanguage();
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'), { noSsr: true });
  useConsoleTitle(text('title'));
  const sheet = useQuery({
    queryKey: ['induction-test', token],
    queryFn: () => bookingApi.testSheet(token),
    retry: false,
  });
  const take = useMutation({ mutationFn: (answers: Answers) => bookingApi.takeTest(token, answers) });
  const test = sheet.data;
  const waiting =
    waitUntil(take.error) ??
    (test?.proximoIntento && Date.parse(test.proximoIntento) > Date.now() ? test.proximoIntento : undefined);
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }} data-testid="online-test">
      <AppBar position="static" color="primary" elevation={0}>
        <Toolbar sx={{ gap: 1 }}>
          <QuizIcon />
          <Typography variant="h6" component="h1" sx={{ flex: 1, minWidth: 0 }} noWrap>
            {text('title')}
          </Typography>
          <LanguageMenu language={language} onChange={setLanguage} compact={phone} />
        </Toolbar>
      </AppBar>
      <Container maxWidth="md" sx={{ py: { xs: 2, sm: 3 }, px: { xs: 1, sm: 3 } }}>
        <Stack spacing={2}>
          {sheet.isPending && <LinearProgress aria-label={translate('ra.page.loading')} />}
          <Refusal error={sheet.error} testId="test-refusal" />
          {test && (
            <Card>
              <CardContent>
                <Typography variant="h5" component="h2" data-testid="test-course">
                  {inLanguage(language, test.Curso, test.CursoIngles)}
                </Typography>
                <Typography color="text.secondary">
                  {test.Persona} · {text('passing', { score: test.NotaMinima })}
                </Typography>
              </CardContent>
            </Card>
          )}
          {test?.Estado === 'A' && (
            <Alert severity="success" data-testid="test-done">
              {text('alreadyPassed', { score: test.Nota ?? '' })}
            </Alert>
          )}
          {test && test.Estado !== 'A' && test.Estado !== 'R' && (
            <Alert severity="info" data-testid="test-done">
              {text('closed')}
            </Alert>
          )}
          {take.data && <Outcome score={take.data} passing={test?.NotaMinima ?? 0} />}
          {waiting && !take.data && (
            <Alert severity="warning" data-testid="test-wait">
              {text('wait', { at: minuteOf(waiting) })}
            </Alert>
          )}
          {!waitUntil(take.error) && <Refusal error={take.error} testId="take-refusal" />}
          {test?.Estado === 'R' && !take.data && (
            <Card>
              <CardContent>
                <TestQuestions
                  questions={test.preguntas}
                  disabled={Boolean(waiting) || take.isPending}
                  onSubmit={(answers) => take.mutate(answers)}
                />
              </CardContent>
            </Card>
          )}
        </Stack>
      </Container>
    </Box>
  );
}
