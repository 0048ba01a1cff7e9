import { Alert } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { FieldError } from '../../../shared/errors.js';
import { ApiRequestError } from '../../session/http.js';

/** The field problems of a refusal, each in the console's language, by field (none for another error). */
export function useFieldProblems(error: unknown): Record<string, string> {
  const translate = useTranslate();
  if (!(error instanceof ApiRequestError)) return {};
  const errors = (error.body as { errors?: Record<string, FieldError> } | undefined)?.errors ?? {};
  return Object.fromEntries(
    Object.entries(errors).map(([field, e]) => [
      field,
      translate(e.messageKey, { _: e.message, ...e.params }),
    ]),
  );
}

/**
 * A form's refusal: the server's message, then each field's problem after the field's name (`label`),
 * so that a field without a place of its own for a message (a select, a date) is named too.
 */
export function FieldRefusal({
  error,
  label,
  testId,
}: {
  error: unknown;
  label(field: string): string;
  testId: string;
}) {
  const translate = useTranslate();
  const problems = useFieldProblems(error);
  if (!error) return null;
  const known = error instanceof ApiRequestError ? error : undefined;
  return (
    <Alert severity="error" data-testid={testId}>
      {known?.messageKey ? translate(known.messageKey, known.params) : String((error as Error).message)}
      {Object.keys(problems).length > 0 && (
        <ul>
          {Object.entries(problems).map(([field, message]) => (
            <li key={field}>{`${label(field)}: ${message}`}</li>
          ))}
        </ul>
      )}
    </Alert>
  );
}
