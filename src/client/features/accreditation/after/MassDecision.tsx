import {
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
import { useRef, useState } from 'react';
import { useTranslate } from 'react-admin';
import { Refusal } from '../../../components/Refusal.js';
import { SelectionButton } from '../../../components/SelectionButton.js';
import type { RequestRow } from '../api.js';
import { holderName } from './tables.js';

/** A request as a refusal names it: its number and whom it is for. */
export const requestName = (row: RequestRow) => `${row.NumeroSolicitud} · ${holderName(row)}`;

/** What approving ends, asked before it is done: a title, the people or vehicles, and what ends for them. */
export interface ApprovalQuestion {
  title: string;
  names: string[];
  consequence: string;
}

/**
 * The authoriser's decision on the requests it picked (demobilisations, renewals): approve,
 * or observe or reject with the observation, all together or none; pressed with none picked, a
 * decision says "Select a row". With `confirmApproval`, an approval is asked first, naming whom it ends.
 */
export function MassDecision({
  picked: ids,
  rows,
  observation,
  onObservation,
  decide,
  multiline = false,
  pending,
  onPick,
  confirmApproval,
}: {
  /** The requests picked, in the order they are sent, among `rows`. */
  picked: number[];
  rows: RequestRow[];
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
  const picked = ids.length;
  const names = ids.map((id) => {
    const row = rows.find((r) => r.IdSolicitud === id);
    return row ? requestName(row) : String(id);
  });
  // Observing or rejecting without a reason marks the reason's field and takes the user there.
  const reasonField = useRef<HTMLInputElement>(null);
  const [reasonMissing, setReasonMissing] = useState(false);
  const withReason = (action: string) => {
    if (observation.trim()) {
      decide.mutate(action);
      return;
    }
    setReasonMissing(true);
    reasonField.current?.scrollIntoView({ block: 'center' });
    reasonField.current?.focus();
  };
  return (
    <>
      <TextField
        label={translate('demobilisation.reason')}
        value={observation}
        onChange={(event) => onObservation(event.target.value)}
        inputRef={reasonField}
        error={reasonMissing && !observation.trim()}
        helperText={
          reasonMissing && !observation.trim() ? translate('demobilisation.reasonFirst') : undefined
        }
        multiline={multiline}
        minRows={multiline ? 2 : undefined}
        fullWidth
        sx={{ mt: 2 }}
        inputProps={{ maxLength: 500 }}
      />
      <Refusal error={decide.error} names={names} />
      <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 2, flexWrap: 'wrap' }}>
        <SelectionButton
          variant="contained"
          color="success"
          disabled={decide.isPending}
          selected={picked}
          onClick={() => (confirmApproval ? setAsking(true) : decide.mutate('APROBAR'))}
        >
          {translate('demobilisation.approve', { smart_count: picked })}
        </SelectionButton>
        <SelectionButton
          variant="outlined"
          disabled={decide.isPending}
          selected={picked}
          onClick={() => withReason('OBSERVAR')}
        >
          {translate('demobilisation.observe')}
        </SelectionButton>
        <SelectionButton
          variant="outlined"
          color="error"
          disabled={decide.isPending}
          selected={picked}
          onClick={() => withReason('RECHAZAR')}
        >
          {translate('demobilisation.reject')}
        </SelectionButton>
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
