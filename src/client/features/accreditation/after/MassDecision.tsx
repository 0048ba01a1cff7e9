import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
  Stack,
  TextField,
} from '@mui/material';
import type { UseMutationResult } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { ApiRequestError } from '../../../session/http.js';

/** The refusal a call answered, with the rows that stopped a mass action. */
export function Refusal({ error }: { error: unknown }) {
  const translate = useTranslate();
  if (!error) return null;
  const known = error instanceof ApiRequestError ? error : undefined;
  const rows = Object.entries(
    ((known?.body as { errors?: Record<string, { message?: string }> } | undefined)?.errors ?? {}) as Record<
      string,
      { message?: string }
    >,
  );
  return (
    <Alert severity="error" data-testid="refusal">
      {known?.messageKey ? translate(known.messageKey, known.params) : String((error as Error).message)}
      {rows.length > 0 && (
        <ul>
          {rows.map(([field, problem]) => (
            <li key={field}>
              {field}: {problem.message}
            </li>
          ))}
        </ul>
      )}
    </Alert>
  );
}

/** What approving ends, asked before it is done: a title, the people or vehicles, and what ends for them. */
export interface ApprovalQuestion {
  title: string;
  names: string[];
  consequence: string;
}

/**
 * The authoriser's decision on the requests it picked (demobilisations, renewals): approve,
 * or observe or reject with the observation, all together or none. With `confirmApproval`, an
 * approval is asked first, naming whom it ends.
 */
export function MassDecision({
  picked,
  observation,
  onObservation,
  decide,
  multiline = false,
  pending,
  onPick,
  confirmApproval,
}: {
  picked: number;
  observation: string;
  onObservation(value: string): void;
  decide: UseMutationResult<unknown, Error, string>;
  multiline?: boolean;
  /** The pending requests listed: a button picks them all. */
  pending?: number[];
  onPick?(ids: number[]): void;
  confirmApproval?: ApprovalQuestion;
}) {
  const translate = useTranslate();
  const [asking, setAsking] = useState(false);
  const needsReason = !picked || !observation.trim() || decide.isPending;
  return (
    <>
      <TextField
        label={translate('demobilisation.reason')}
        value={observation}
        onChange={(event) => onObservation(event.target.value)}
        multiline={multiline}
        minRows={multiline ? 2 : undefined}
        fullWidth
        sx={{ mt: 2 }}
        inputProps={{ maxLength: 500 }}
      />
      <Refusal error={decide.error} />
      <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 2, flexWrap: 'wrap' }}>
        <Button
          variant="contained"
          color="success"
          disabled={!picked || decide.isPending}
          onClick={() => (confirmApproval ? setAsking(true) : decide.mutate('APROBAR'))}
        >
          {translate('demobilisation.approve', { smart_count: picked })}
        </Button>
        <Button variant="outlined" disabled={needsReason} onClick={() => decide.mutate('OBSERVAR')}>
          {translate('demobilisation.observe')}
        </Button>
        <Button
          variant="outlined"
          color="error"
          disabled={needsReason}
          onClick={() => decide.mutate('RECHAZAR')}
        >
          {translate('demobilisation.reject')}
        </Button>
        {pending && (
          <Button disabled={!pending.length} onClick={() => onPick?.(pending)}>
            {translate('demobilisation.selectPending')}
          </Button>
        )}
      </Stack>
      {confirmApproval && (
        <Dialog open={asking} onClose={() => setAsking(false)} aria-labelledby="approval-question">
          <DialogTitle id="approval-question">{confirmApproval.title}</DialogTitle>
          <DialogContent>
            <DialogContentText>{confirmApproval.consequence}</DialogContentText>
            <List dense data-testid="approval-names">
              {confirmApproval.names.map((name) => (
                <ListItem key={name} disableGutters>
                  <ListItemText primary={name} />
                </ListItem>
              ))}
            </List>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setAsking(false)}>{translate('ra.action.cancel')}</Button>
            <Button
              variant="contained"
              color="success"
              onClick={() => {
                setAsking(false);
                decide.mutate('APROBAR');
              }}
            >
              {translate('demobilisation.confirmApprove', { smart_count: picked })}
            </Button>
          </DialogActions>
        </Dialog>
      )}
    </>
  );
}
