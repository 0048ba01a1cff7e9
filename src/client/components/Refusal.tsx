import { Alert, type AlertProps } from '@mui/material';
import { useTranslate } from 'react-admin';
import { ApiRequestError } from '../session/http.js';

/**
 * The refusal a call answered, in words: its message, and for a call on several rows each row
 * that stopped it, by name (`names[i]` for the field `<list>.<i>`) and with its rule's message.
 * Nothing while there is no error.
 */
export function Refusal({
  error,
  names = [],
  testId = 'refusal',
  sx,
}: {
  error: unknown;
  names?: string[];
  testId?: string;
  sx?: AlertProps['sx'];
}) {
  const translate = useTranslate();
  if (!error) return null;
  const known = error instanceof ApiRequestError ? error : undefined;
  const rows = Object.entries(
    ((known?.body as { errors?: Record<string, { message?: string }> } | undefined)?.errors ?? {}) as Record<
      string,
      { message?: string }
    >,
  );
  const rowName = (field: string) => {
    const index = /\.(\d+)$/.exec(field)?.[1];
    if (index === undefined) return undefined;
    return names[Number(index)] ?? translate('accreditation.refusals.rowNumber', { n: Number(index) + 1 });
  };
  return (
    <Alert severity="error" sx={sx} data-testid={testId}>
      {known?.messageKey ? translate(known.messageKey, known.params) : String((error as Error).message)}
      {rows.length > 0 && (
        <ul>
          {rows.map(([field, problem]) => (
            <li key={field}>
              {rowName(field) ? `${rowName(field)}: ` : ''}
              {problem.message}
            </li>
          ))}
        </ul>
      )}
    </Alert>
  );
}
