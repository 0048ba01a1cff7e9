import { Box } from '@mui/material';
import { type MouseEvent, memo, type ReactElement, useMemo } from 'react';
import { useLocale, useTranslate } from 'react-admin';
import { cellState, type GridBed, type GridStay, holdsNight } from '../../../shared/hotel.js';
import { formatDate } from '../../format.js';
import { CELL_LOOK, SUSPENDED_BORDER } from './cells.js';

const BED_COLUMN = 116;
const NIGHT_COLUMN = 34;

/** A night's heading: its day of the month and weekday (and its month on the first night and the 1st). */
function useNightHeadings(nights: readonly string[]) {
  const locale = useLocale();
  return useMemo(() => {
    const weekday = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
    const month = new Intl.DateTimeFormat(locale, { month: 'short', timeZone: 'UTC' });
    return nights.map((night, i) => {
      const date = new Date(`${night}T00:00:00Z`);
      const day = night.slice(8, 10);
      return {
        night,
        day: String(Number(day)),
        weekday: weekday.format(date).replace('.', ''),
        month: i === 0 || day === '01' ? month.format(date).replace('.', '') : '',
      };
    });
  }, [locale, nights]);
}

export interface AvailabilityTableProps {
  label: string;
  nights: readonly string[];
  today: string;
  /** The page's beds, in their order (camp, block, room, bed). */
  beds: readonly GridBed[];
  stays: ReadonlyMap<number, GridStay[]>;
  showCamp: boolean;
  onFree(bed: GridBed, night: string): void;
  onHeld(stays: GridStay[], bed: GridBed, anchor: HTMLElement): void;
}

/**
 * The availability grid's table: a row per bed under its block's heading (a line between rooms),
 * a column per night; the bed's code stays at the left and the nights' headings at the top while
 * the grid scrolls inside its box, sideways and down. Each night of a bed is a button named by the
 * bed, the night, its state and who holds it: a free one reserves it, a held one opens its stay.
 */
export const AvailabilityTable = memo(function AvailabilityTable({
  label,
  nights,
  today,
  beds,
  stays,
  showCamp,
  onFree,
  onHeld,
}: AvailabilityTableProps) {
  const translate = useTranslate();
  const headings = useNightHeadings(nights);
  const stateText = (state: string) => translate(`hotel.screens.grid.states.${state}`);
  const suspendedText = translate('hotel.screens.grid.suspended');
  const rows: ReactElement[] = [];
  beds.forEach((bed, i) => {
    const before = beds[i - 1];
    if (!before || before.IdModuloHotel !== bed.IdModuloHotel) {
      rows.push(
        <tr key={`block-${bed.IdCama}`} className="block">
          <th colSpan={nights.length + 1} scope="colgroup">
            <span>{showCamp ? `${bed.Campamento} · ${bed.Modulo}` : bed.Modulo}</span>
          </th>
        </tr>,
      );
    }
    const own = stays.get(bed.IdCama) ?? [];
    const roomStart =
      before && before.IdHabitacion !== bed.IdHabitacion && before.IdModuloHotel === bed.IdModuloHotel;
    rows.push(
      <tr key={bed.IdCama} className={roomStart ? 'room' : undefined}>
        <th scope="row" className="bed" title={`${bed.Habitacion} · ${bed.TipoHabitacion}`}>
          {bed.Codigo}
        </th>
        {nights.map((night) => {
          const state = cellState(bed, own, night);
          const on = state === 'free' || state === 'out' ? [] : own.filter((s) => holdsNight(s, night));
          const suspended = on.some((s) => s.Suspendida);
          const who = on.map((s) => `${s.Persona} (${s.Documento})`).join(', ');
          const text = [
            `${bed.Codigo}, ${formatDate(night)}: ${stateText(state)}`,
            who,
            suspended ? suspendedText : '',
          ]
            .filter(Boolean)
            .join(' — ');
          return (
            <td key={night} className={night === today ? 'today' : undefined}>
              <button
                type="button"
                className={suspended ? 'cell suspended' : 'cell'}
                data-state={state}
                data-bed={bed.Codigo}
                data-night={night}
                data-suspended={suspended || undefined}
                aria-label={text}
                title={text}
                disabled={state === 'out'}
                style={{
                  background: CELL_LOOK[state].background,
                  borderColor: CELL_LOOK[state].border,
                  color: state === 'reserved' ? SUSPENDED_BORDER : '#fff',
                }}
                onClick={(event: MouseEvent<HTMLButtonElement>) =>
                  state === 'free' ? onFree(bed, night) : onHeld(on, bed, event.currentTarget)
                }
              >
                {suspended ? '!' : ''}
              </button>
            </td>
          );
        })}
      </tr>,
    );
  });
  return (
    <Box
      tabIndex={0}
      role="region"
      aria-label={label}
      data-testid="availability-grid"
      sx={{
        overflow: 'auto',
        // The page's height less the header, the filters and the pager: the pager stays in sight.
        maxHeight: { xs: '70vh', md: 'max(300px, calc(100vh - 400px))' },
        minHeight: 240,
        borderTop: 1,
        borderColor: 'divider',
        '& table': { borderCollapse: 'separate', borderSpacing: 0, minWidth: '100%' },
        '& thead th': {
          position: 'sticky',
          top: 0,
          zIndex: 2,
          bgcolor: 'background.paper',
          borderBottom: 1,
          borderColor: 'divider',
          fontWeight: 400,
          fontSize: 12,
          lineHeight: 1.2,
          px: 0.25,
          py: 0.5,
          minWidth: NIGHT_COLUMN,
          textAlign: 'center',
          whiteSpace: 'nowrap',
        },
        '& thead th.today': { fontWeight: 700, color: 'primary.main' },
        '& th.bed': {
          position: 'sticky',
          left: 0,
          zIndex: 1,
          bgcolor: 'background.paper',
          minWidth: BED_COLUMN,
          width: BED_COLUMN,
          textAlign: 'left',
          fontWeight: 500,
          fontSize: 13,
          px: 1,
          whiteSpace: 'nowrap',
          borderRight: 1,
          borderColor: 'divider',
        },
        '& thead th.bed': { zIndex: 3 },
        '& tr.block th': { textAlign: 'left', bgcolor: 'grey.100', py: 0.5, fontSize: 13, fontWeight: 600 },
        '& tr.block th span': { position: 'sticky', left: 8 },
        '& tr.room > *': { borderTop: '2px solid', borderTopColor: 'grey.400' },
        '& td': { p: '1px', minWidth: NIGHT_COLUMN },
        '& td.today': { bgcolor: 'action.hover' },
        '& button.cell': {
          display: 'block',
          width: '100%',
          minWidth: NIGHT_COLUMN - 2,
          height: 24,
          p: 0,
          border: '1px solid',
          borderRadius: '3px',
          cursor: 'pointer',
          fontWeight: 700,
          fontSize: 13,
          lineHeight: '20px',
        },
        '& button.cell:disabled': { cursor: 'not-allowed' },
        '& button.cell.suspended': { outline: `2px solid ${SUSPENDED_BORDER}`, outlineOffset: '-2px' },
        '& button.cell:focus-visible': {
          outline: '3px solid',
          outlineColor: 'primary.main',
          outlineOffset: '-1px',
        },
      }}
    >
      <table aria-label={label}>
        <thead>
          <tr>
            <th scope="col" className="bed">
              {translate('resources.reservation.fields.IdCama')}
            </th>
            {headings.map((h) => (
              <th
                key={h.night}
                scope="col"
                className={h.night === today ? 'today' : undefined}
                title={formatDate(h.night)}
              >
                <div>{h.month || '\u00a0'}</div>
                <div style={{ fontSize: 13, fontWeight: 600 }}>{h.day}</div>
                <div>{h.weekday}</div>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{rows}</tbody>
      </table>
    </Box>
  );
});
