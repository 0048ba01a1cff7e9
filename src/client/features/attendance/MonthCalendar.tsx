import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import { Box, ButtonBase, Chip, Typography, useMediaQuery, useTheme } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { DayStatus } from '../../../shared/attendance.js';
import { addDays } from '../../../shared/dates.js';
import { type AttendanceDay, flagsOf } from './api.js';

export const STATUS_COLOURS: Record<
  DayStatus,
  'success' | 'warning' | 'error' | 'info' | 'default' | 'secondary'
> = {
  WORKED: 'success',
  INCOMPLETE: 'warning',
  ABSENT: 'error',
  JUSTIFIED: 'info',
  REST: 'default',
  HOLIDAY: 'default',
  REST_WORKED: 'secondary',
  HOLIDAY_WORKED: 'secondary',
  NO_SCHEDULE: 'default',
};

/** Minutes as hours and minutes: 546 → "9 h 06". */
export const hoursText = (minutes: number) =>
  `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')}`;

/** An instant's wall-clock time at the site. */
export const clockOf = (iso: string | null, timeZone: string) =>
  iso
    ? new Intl.DateTimeFormat('en-GB', {
        timeZone,
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(new Date(iso))
    : '—';

const weekday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay() || 7;

function DayCell({
  day,
  row,
  timeZone,
  selected,
  onSelect,
}: {
  day: string;
  row: AttendanceDay | undefined;
  timeZone: string;
  selected: boolean;
  onSelect(): void;
}) {
  const translate = useTranslate();
  const late = row?.MinutosTardanza ?? 0;
  const overtime = (row?.MinutosExtraAntes ?? 0) + (row?.MinutosExtraDespues ?? 0);
  return (
    <ButtonBase
      onClick={onSelect}
      data-day={day}
      data-status={row?.Estado ?? ''}
      aria-pressed={selected}
      sx={{
        display: 'flex',
        // A row that wraps on a phone's list; a column in a month's grid.
        flexDirection: { xs: 'row', sm: 'column' },
        flexWrap: 'wrap',
        alignItems: { xs: 'center', sm: 'stretch' },
        justifyContent: 'flex-start',
        textAlign: 'left',
        gap: { xs: 1, sm: 0.5 },
        p: 1,
        minHeight: { xs: 0, sm: 96 },
        borderRadius: 1,
        border: 1,
        borderColor: selected ? 'primary.main' : 'divider',
        bgcolor: selected ? 'action.selected' : 'background.paper',
      }}
    >
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 0.5 }}>
        <Typography variant="subtitle2">{Number(day.slice(8))}</Typography>
        {row && flagsOf(row).length > 0 && (
          <WarningAmberIcon
            fontSize="small"
            color="warning"
            titleAccess={translate('attendance.screens.flagged')}
          />
        )}
      </Box>
      {row ? (
        <>
          <Chip
            size="small"
            color={STATUS_COLOURS[row.Estado]}
            label={translate(`attendance.status.${row.Estado}`)}
            sx={{ alignSelf: 'flex-start', maxWidth: '100%' }}
          />
          {row.Marcas > 0 && (
            <Typography variant="caption">
              {clockOf(row.PrimeraEntrada, timeZone)} → {clockOf(row.UltimaSalida, timeZone)}
            </Typography>
          )}
          {row.MinutosTrabajados > 0 && (
            <Typography variant="caption">{hoursText(row.MinutosTrabajados)}</Typography>
          )}
          {late > 0 && (
            <Typography variant="caption" color="error">
              {translate('attendance.screens.lateShort', { minutes: late })}
            </Typography>
          )}
          {overtime > 0 && (
            <Typography variant="caption" color="secondary">
              {translate('attendance.screens.overtimeShort', { minutes: overtime })}
            </Typography>
          )}
        </>
      ) : (
        <Typography variant="caption" color="text.secondary">
          {translate('attendance.screens.notComputed')}
        </Typography>
      )}
    </ButtonBase>
  );
}

/**
 * A month's days as a calendar from Monday (a list on a phone): each day's result, its first entry
 * and last exit at the site, hours worked, lateness and overtime; a day is chosen to see it whole.
 */
export function MonthCalendar({
  month,
  days,
  timeZone,
  selected,
  onSelect,
}: {
  /** yyyy-mm */
  month: string;
  days: AttendanceDay[];
  timeZone: string;
  selected?: string;
  onSelect(day: string): void;
}) {
  const translate = useTranslate();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const byDay = new Map(days.map((d) => [d.Fecha.slice(0, 10), d]));
  const first = `${month}-01`;
  const dates: string[] = [];
  for (let d = first; d.startsWith(month); d = addDays(d, 1)) dates.push(d);
  const cell = (day: string) => (
    <DayCell
      key={day}
      day={day}
      row={byDay.get(day)}
      timeZone={timeZone}
      selected={selected === day}
      onSelect={() => onSelect(day)}
    />
  );
  if (phone)
    return (
      <Box
        sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: 1, alignItems: 'stretch' }}
        data-testid="attendance-calendar"
      >
        {dates.map((day) => (
          <Box key={day} sx={{ display: 'contents' }}>
            <Typography variant="caption" sx={{ pt: 1, color: 'text.secondary' }}>
              {translate(`attendance.weekdays.${weekday(day)}`)}
            </Typography>
            {cell(day)}
          </Box>
        ))}
      </Box>
    );
  return (
    <Box
      sx={{ display: 'grid', gridTemplateColumns: 'repeat(7, minmax(0, 1fr))', gap: 1 }}
      data-testid="attendance-calendar"
    >
      {[1, 2, 3, 4, 5, 6, 7].map((d) => (
        <Typography key={d} variant="caption" sx={{ textAlign: 'center', color: 'text.secondary' }}>
          {translate(`attendance.weekdays.${d}`)}
        </Typography>
      ))}
      {dates.map((day) => (
        // The first day under its weekday; the others follow.
        <Box key={day} sx={{ display: 'grid', ...(day === first && { gridColumnStart: weekday(first) }) }}>
          {cell(day)}
        </Box>
      ))}
    </Box>
  );
}
