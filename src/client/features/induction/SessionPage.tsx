import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Alert, Box, Button, Card, CardContent, LinearProgress, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Confirm, useLocaleState, useTranslate } from 'react-admin';
import { Refusal } from '../../components/Refusal.js';
import { ScreenHeader } from '../../components/ScreenHeader.js';
import { useConsoleTitle } from '../../resources/ScreenTitle.js';
import { session } from '../../session/store.js';
import { AttendanceScan } from './AttendanceScan.js';
import { type Booking, inductionApi, inLanguage } from './api.js';
import { BookingResults } from './BookingResults.js';
import { AmendResultDialog, CancelSessionDialog } from './SessionDialogs.js';
import { SessionFacts } from './SessionFacts.js';
import { SessionStateChip } from './SessionTile.js';
import { useSessionWork } from './useSessionWork.js';

type Opened = 'close' | 'cancel' | Booking | undefined;

/**
 * A session's page: its facts, attendance by badge or typed number, the bookings' attendance and
 * scores, saved, then the session closed (confirmed); or cancelled with a reason; a pass's
 * certificate printed; an administrator changes a closed result with a reason.
 */
export function SessionPage({ id, onBack }: { id: number; onBack(): void }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const text = (key: string) => translate(`induction.screens.session.${key}`);
  const detail = useQuery({ queryKey: ['induction-session', id], queryFn: () => inductionApi.session(id) });
  const [opened, setOpened] = useState<Opened>();
  const [notice, setNotice] = useState<string>();
  const work = useSessionWork(id, detail.data, setNotice);
  const data = detail.data;
  const name = data ? inLanguage(locale, data.Curso, data.CursoIngles) : '';
  useConsoleTitle(name, translate('app.menu.items.trainingSessions'));
  const scheduled = data?.Estado === 'P';
  const admin = session.profile()?.current.tipoPerfil === 'administrator';
  const busy = work.save.isPending || work.close.isPending;
  return (
    <Stack spacing={2} sx={{ mt: 1, minWidth: 0 }} data-testid="induction-session" data-state={data?.Estado}>
      <ScreenHeader title={name || text('title')}>
        {data && <SessionStateChip state={data.Estado} />}
        <Button startIcon={<ArrowBackIcon />} onClick={onBack} data-testid="session-back">
          {text('back')}
        </Button>
      </ScreenHeader>
      {detail.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
      <Refusal error={detail.error} />
      {notice && (
        <Alert severity="success" onClose={() => setNotice(undefined)} data-testid="session-notice">
          {notice}
        </Alert>
      )}
      {data && <SessionFacts detail={data} />}
      {scheduled && <AttendanceScan sessionId={id} onMarked={work.marked} />}
      {data && (
        <Card>
          <CardContent sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, flex: '1 1 auto' }}>
              {text('bookings')}
            </Typography>
            {scheduled && (
              <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
                <Button
                  variant="contained"
                  disabled={busy || !work.dirty || work.invalid}
                  onClick={() => work.save.mutate()}
                  data-testid="session-save"
                >
                  {text('save')}
                </Button>
                <Button
                  variant="outlined"
                  disabled={busy || work.invalid}
                  onClick={() => setOpened('close')}
                  data-testid="session-close"
                >
                  {text('close')}
                </Button>
                <Button
                  variant="outlined"
                  color="error"
                  disabled={busy}
                  onClick={() => setOpened('cancel')}
                  data-testid="session-cancel"
                >
                  {text('cancel')}
                </Button>
              </Box>
            )}
          </CardContent>
          <Refusal
            error={work.save.error ?? work.close.error ?? work.certificate.error}
            sx={{ mx: 2, mb: 1 }}
          />
          <BookingResults
            bookings={data.reservas}
            editable={scheduled}
            entryOf={work.entryOf}
            onEntry={work.setEntry}
            onCertificate={(b) => work.certificate.mutate(b)}
            printing={work.certificate.isPending}
            onAmend={admin && data.Estado === 'C' ? setOpened : undefined}
          />
        </Card>
      )}
      <Confirm
        isOpen={opened === 'close'}
        loading={work.close.isPending}
        title="induction.screens.session.closeTitle"
        content="induction.screens.session.closeText"
        confirm="induction.screens.session.close"
        cancel="induction.screens.session.dismiss"
        onConfirm={() => work.close.mutate(undefined, { onSettled: () => setOpened(undefined) })}
        onClose={() => setOpened(undefined)}
      />
      {opened === 'cancel' && (
        <CancelSessionDialog
          sessionId={id}
          onClose={() => setOpened(undefined)}
          onDone={async () => {
            setOpened(undefined);
            await work.refresh();
            setNotice(text('cancelled'));
          }}
        />
      )}
      {typeof opened === 'object' && (
        <AmendResultDialog
          booking={opened}
          onClose={() => setOpened(undefined)}
          onDone={async () => {
            setOpened(undefined);
            await work.refresh();
            setNotice(text('amended'));
          }}
        />
      )}
    </Stack>
  );
}
