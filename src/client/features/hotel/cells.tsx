import { Box, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { CellState } from '../../../shared/hotel.js';

export const CELL_STATES: readonly CellState[] = ['free', 'reserved', 'occupied', 'overstay', 'half', 'out'];

/**
 * How each state of a bed's night looks: a colour, and for the states a colour alone would not
 * tell apart (held by halves, out of service) a pattern too.
 */
export const CELL_LOOK: Record<CellState, { background: string; border: string }> = {
  free: { background: '#e8f5e9', border: '#66bb6a' },
  reserved: { background: '#ffcc80', border: '#ef6c00' },
  occupied: { background: '#1565c0', border: '#0d47a1' },
  // Held past the departure day by a guest not checked out: striped, so not only its colour tells.
  overstay: {
    background: 'repeating-linear-gradient(135deg, #6a1b9a 0 4px, #1565c0 4px 8px)',
    border: '#4a148c',
  },
  half: { background: 'linear-gradient(135deg, #1565c0 0 50%, #e8f5e9 50% 100%)', border: '#0d47a1' },
  out: {
    background: 'repeating-linear-gradient(45deg, #bdbdbd 0 3px, #eeeeee 3px 6px)',
    border: '#9e9e9e',
  },
};

/** The warning a suspended person's stay carries in its cells. */
export const SUSPENDED_BORDER = '#b71c1c';

/** A swatch of a state, as the cells draw it. */
function Swatch({ state, suspended }: { state: CellState; suspended?: boolean }) {
  return (
    <Box
      aria-hidden
      sx={{
        width: 18,
        height: 18,
        borderRadius: 0.5,
        flex: '0 0 auto',
        background: CELL_LOOK[state].background,
        border: `${suspended ? 2 : 1}px solid ${suspended ? SUSPENDED_BORDER : CELL_LOOK[state].border}`,
        color: '#fff',
        fontSize: 12,
        fontWeight: 700,
        lineHeight: '14px',
        textAlign: 'center',
      }}
    >
      {suspended ? '!' : ''}
    </Box>
  );
}

/** What the colours of the grid mean. */
export function Legend() {
  const translate = useTranslate();
  return (
    <Stack
      direction="row"
      spacing={2}
      useFlexGap
      flexWrap="wrap"
      component="ul"
      sx={{ listStyle: 'none', m: 0, p: 0 }}
      aria-label={translate('hotel.screens.grid.legend')}
      data-testid="availability-legend"
    >
      {CELL_STATES.map((state) => (
        <Stack key={state} component="li" direction="row" spacing={0.75} alignItems="center">
          <Swatch state={state} />
          <Typography variant="body2">{translate(`hotel.screens.grid.states.${state}`)}</Typography>
        </Stack>
      ))}
      <Stack component="li" direction="row" spacing={0.75} alignItems="center">
        <Swatch state="occupied" suspended />
        <Typography variant="body2">{translate('hotel.screens.grid.suspended')}</Typography>
      </Stack>
    </Stack>
  );
}
