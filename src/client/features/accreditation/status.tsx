import { Chip, type ChipProps } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { RequestStatus } from '../../../../workflows/request.machine.js';
import type { LineStatus } from '../../../../workflows/requirement-approval.machine.js';

/**
 * The colours of spec section 4: incomplete grey (blue on the dashboard), pending orange, observed
 * yellow, rejected dark red, approved green. Text colours keep a 4.5:1 contrast on each.
 */
export const STATUS_COLOURS: Record<RequestStatus, { background: string; text: string; dashboard: string }> =
  {
    I: { background: '#e0e0e0', text: '#212121', dashboard: '#1565c0' },
    P: { background: '#ef6c00', text: '#000000', dashboard: '#e65100' },
    O: { background: '#fdd835', text: '#000000', dashboard: '#f9a825' },
    R: { background: '#8e0000', text: '#ffffff', dashboard: '#8e0000' },
    A: { background: '#2e7d32', text: '#ffffff', dashboard: '#2e7d32' },
  };

/** A request's status as a badge in its colour. */
export function StatusChip({
  status,
  size = 'small',
  kind = 'request',
}: {
  status: RequestStatus | LineStatus | null | undefined;
  size?: ChipProps['size'];
  /** A request's status or a requirement's (pending, approved, rejected, observed). */
  kind?: 'request' | 'line';
}) {
  const translate = useTranslate();
  if (!status) return null;
  const colours = STATUS_COLOURS[status];
  return (
    <Chip
      size={size}
      label={translate(
        kind === 'request' ? `enums.requestStatus.${status}` : `enums.approvalStatus.${status}`,
      )}
      className={`status-chip status-${status}`}
      data-status={status}
      sx={{ bgcolor: colours.background, color: colours.text, fontWeight: 500 }}
    />
  );
}
