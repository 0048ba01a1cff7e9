import { Alert, Button, Stack, TextField } from '@mui/material';
import type { UseMutationResult } from '@tanstack/react-query';
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

/**
 * The authoriser's decision on the requests it picked (demobilisations, renewals): approve,
 * or observe or reject with the observation, all together or none.
 */
export function MassDecision({
  picked,
  observation,
  onObservation,
  decide,
  multiline = false,
  pending,
  onPick,
}: {
  picked: number;
  observation: string;
  onObservation(value: string): void;
  decide: UseMutationResult<unknown, Error, string>;
  multiline?: boolean;
  /** The pending requests listed: a button picks them all. */
  pending?: number[];
  onPick?(ids: number[]): void;
}) {
  const translate = useTranslate();
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
          onClick={() => decide.mutate('APROBAR')}
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
    </>
  );
}
