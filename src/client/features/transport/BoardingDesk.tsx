import { Alert, Box, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { Refusal } from '../../components/Refusal.js';
import { type BoardingAnswer, transportApi } from './api.js';

/** The least a reason to board someone not booked must say (the server's rule). */
const REASON_MIN = 3;

/** What the door answered: boards (with the seat) or why not, in words. */
function Answer({ answer }: { answer: BoardingAnswer }) {
  const translate = useTranslate();
  const who = [
    answer.Nombre,
    answer.Asiento && translate('transport.screens.boarding.seat', { seat: answer.Asiento }),
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <Alert
      severity={answer.allow ? 'success' : 'warning'}
      data-testid="boarding-answer"
      data-reason={answer.reason}
    >
      <strong>{translate(`transport.boarding.${answer.reason}`)}</strong>
      {who && ` — ${who}`}
    </Alert>
  );
}

/** Someone not booked boarded as an exception: the reason asked, then sent again with it. */
function ExceptionForm({ busy, onBoard }: { busy: boolean; onBoard(reason: string): void }) {
  const translate = useTranslate();
  const text = (key: string) => translate(`transport.screens.boarding.${key}`);
  const [reason, setReason] = useState('');
  const ready = reason.trim().length >= REASON_MIN;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'flex-start' }}>
      <TextField
        id="boarding-exception"
        size="small"
        label={text('exceptionReason')}
        helperText={text('exceptionHelp')}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        slotProps={{ htmlInput: { maxLength: 300 } }}
        sx={{ flex: { xs: '1 1 100%', sm: '0 1 360px' } }}
      />
      <Button
        variant="contained"
        color="warning"
        disabled={busy || !ready}
        onClick={() => onBoard(reason.trim())}
        data-testid="boarding-exception-send"
      >
        {text('exception')}
      </Button>
    </Box>
  );
}

/**
 * The door of the bus from the console: a badge's number typed by hand boards its holder when booked;
 * the answer says who and on which seat, or why not; someone accredited but not booked may board as
 * an exception, with a reason.
 */
export function BoardingDesk({ tripId, onBoarded }: { tripId: number; onBoarded(): void }) {
  const translate = useTranslate();
  const text = (key: string) => translate(`transport.screens.boarding.${key}`);
  const [typed, setTyped] = useState('');
  const [asked, setAsked] = useState(false);
  const board = useMutation({
    mutationFn: ({ badge, reason }: { badge: string; reason?: string }) =>
      transportApi.board(tripId, badge, reason),
    onSuccess: ([answer]) => {
      if (answer?.allow) onBoarded();
      setAsked(false);
    },
  });
  const answer = board.data?.[0];
  const badge = board.variables?.badge ?? '';
  return (
    <Card data-testid="boarding-desk">
      <CardContent>
        <Stack spacing={1.5}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {text('title')}
          </Typography>
          <Box
            component="form"
            sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}
            onSubmit={(event) => {
              event.preventDefault();
              if (typed.trim()) board.mutate({ badge: typed.trim() }, { onSuccess: () => setTyped('') });
            }}
          >
            <TextField
              id="boarding-badge"
              size="small"
              label={text('badge')}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              slotProps={{ htmlInput: { maxLength: 30, autoComplete: 'off' } }}
              sx={{ flex: { xs: '1 1 100%', sm: '0 1 280px' } }}
            />
            <Button
              type="submit"
              variant="outlined"
              disabled={board.isPending || !typed.trim()}
              data-testid="boarding-send"
            >
              {text('board')}
            </Button>
          </Box>
          {answer && !board.isPending && <Answer answer={answer} />}
          {answer?.reason === 'NOT_BOOKED' && !asked && (
            <Box>
              <Button
                variant="outlined"
                color="warning"
                onClick={() => setAsked(true)}
                data-testid="boarding-exception"
              >
                {text('exception')}
              </Button>
            </Box>
          )}
          {asked && (
            <ExceptionForm busy={board.isPending} onBoard={(reason) => board.mutate({ badge, reason })} />
          )}
          <Refusal error={board.error} testId="boarding-refusal" />
        </Stack>
      </CardContent>
    </Card>
  );
}
