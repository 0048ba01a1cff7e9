import {
  Box,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  type Theme,
  Typography,
  useTheme,
} from '@mui/material';
import { getContrastRatio } from '@mui/material/styles';
import { useTranslate } from 'react-admin';
import { DAY_STATUSES, type DayStatus } from '../../../shared/attendance.js';
import { formatDate } from '../../format.js';
import type { PeriodPerson, PeriodTotals } from './api.js';
import { hoursText, STATUS_COLOURS } from './MonthCalendar.js';

/**
 * A status's cell colours: the light shade of its palette colour, and black or white, whichever
 * reads better on it (a small bold code needs 4.5:1; MUI's own contrast text aims at 3:1).
 */
function statusColours(theme: Theme, status: DayStatus) {
  const colour = STATUS_COLOURS[status];
  const background = colour === 'default' ? theme.palette.grey[300] : theme.palette[colour].light;
  const text = getContrastRatio(background, '#000') >= getContrastRatio(background, '#fff') ? '#000' : '#fff';
  return { bgcolor: background, color: text };
}

const weekday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay() || 7;

/** The first column stays in view while the days scroll under it. */
const sticky = {
  position: 'sticky',
  left: 0,
  zIndex: 2,
  bgcolor: 'background.paper',
  borderRight: 1,
  borderRightColor: 'divider',
  minWidth: { xs: 140, sm: 220 },
} as const;
/** A name longer than the first column ends in an ellipsis. */
const nameWidth = { maxWidth: { xs: 124, sm: 260 } } as const;
const companyWidth = { maxWidth: { xs: 140, sm: 240 } } as const;
/** The company's column: on a phone the days come right after the person (the company is in the name's tooltip). */
const wide = { display: { xs: 'none', sm: 'table-cell' } } as const;

const TOTALS: Array<{ key: keyof PeriodTotals; header: string; hours?: true }> = [
  { key: 'diasTrabajados', header: 'daysWorked' },
  { key: 'minutosTrabajados', header: 'hoursWorked', hours: true },
  { key: 'minutosExtra', header: 'overtime', hours: true },
  { key: 'minutosTardanza', header: 'lateMinutes' },
  { key: 'faltas', header: 'absences' },
  { key: 'justificadas', header: 'justified' },
];

/** A status's short code on its colour: a day's cell, and the legend's. */
export function StatusCode({ status }: { status: DayStatus }) {
  const translate = useTranslate();
  const theme = useTheme();
  return (
    <Box
      component="span"
      sx={{
        ...statusColours(theme, status),
        display: 'inline-block',
        minWidth: 24,
        px: 0.25,
        borderRadius: 0.5,
        textAlign: 'center',
        fontSize: 12,
        fontWeight: 600,
        lineHeight: '20px',
      }}
    >
      {translate(`attendance.codes.${status}`)}
    </Box>
  );
}

/**
 * A period's grid: a row per person with the name and document in a column that stays in view,
 * the company, a narrow column per day with its result's code on its colour (a mark when a later
 * marking left it pending), and the person's totals. It scrolls sideways inside its card.
 */
export function PeriodGrid({ people, dates }: { people: PeriodPerson[]; dates: string[] }) {
  const translate = useTranslate();
  const h = (key: string) => translate(`attendance.export.${key}`);
  const pending = translate('attendance.screens.pending');
  return (
    <Box
      sx={{ overflowX: 'auto', maxWidth: '100%' }}
      // Scrolled by keyboard too: the region takes the focus and says what it holds.
      tabIndex={0}
      role="region"
      aria-label={translate('app.menu.items.periodAttendance')}
    >
      <Table
        size="small"
        data-testid="attendance-period-grid"
        sx={{ '& td, & th': { whiteSpace: 'nowrap' } }}
      >
        <TableHead>
          <TableRow>
            <TableCell sx={{ ...sticky, zIndex: 3 }}>{h('person')}</TableCell>
            <TableCell sx={wide}>{h('company')}</TableCell>
            {dates.map((d) => (
              <TableCell
                key={d}
                align="center"
                sx={{ px: 0.25, minWidth: 30, bgcolor: weekday(d) > 5 ? 'action.hover' : undefined }}
              >
                <Box sx={{ lineHeight: 1.2 }}>{Number(d.slice(8, 10))}</Box>
                <Typography variant="caption" color="text.secondary">
                  {translate(`attendance.weekdays.${weekday(d)}`).charAt(0)}
                </Typography>
              </TableCell>
            ))}
            {TOTALS.map((t) => (
              <TableCell key={t.key} align="right" sx={{ whiteSpace: 'normal !important', minWidth: 80 }}>
                {h(t.header)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {people.map((p) => {
            const byDay = new Map(p.dias.map((d) => [d.Fecha.slice(0, 10), d]));
            return (
              <TableRow key={p.IdPersona} data-person={p.IdPersona} hover>
                <TableCell sx={sticky}>
                  <Typography
                    variant="body2"
                    noWrap
                    title={p.Compania ? `${p.Persona} · ${p.Compania}` : p.Persona}
                    sx={nameWidth}
                  >
                    {p.Persona}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {p.Documento}
                  </Typography>
                </TableCell>
                <TableCell sx={wide}>
                  <Typography variant="body2" noWrap title={p.Compania ?? undefined} sx={companyWidth}>
                    {p.Compania ?? '—'}
                  </Typography>
                </TableCell>
                {dates.map((d) => {
                  const day = byDay.get(d);
                  const title = day
                    ? [
                        formatDate(d),
                        translate(`attendance.status.${day.Estado}`),
                        hoursText(day.MinutosTrabajados),
                        day.MinutosTardanza > 0 &&
                          translate('attendance.screens.lateShort', { minutes: day.MinutosTardanza }),
                        day.Pendiente === 'S' && pending,
                      ]
                        .filter(Boolean)
                        .join(' · ')
                    : undefined;
                  return (
                    <TableCell
                      key={d}
                      align="center"
                      data-day={d}
                      data-status={day?.Estado ?? ''}
                      title={title}
                      sx={{ px: 0.25, position: 'relative' }}
                    >
                      {day && <StatusCode status={day.Estado} />}
                      {day?.Pendiente === 'S' && (
                        <Box
                          component="span"
                          data-pending="S"
                          sx={{
                            position: 'absolute',
                            top: 2,
                            right: 2,
                            width: 6,
                            height: 6,
                            borderRadius: '50%',
                            bgcolor: 'warning.dark',
                          }}
                        />
                      )}
                    </TableCell>
                  );
                })}
                {TOTALS.map((t) => (
                  <TableCell key={t.key} align="right">
                    {t.hours ? hoursText(p.totales[t.key]) : p.totales[t.key]}
                  </TableCell>
                ))}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Box>
  );
}

/** The codes of the grid's cells with the results they stand for. */
export function PeriodLegend() {
  const translate = useTranslate();
  return (
    <Stack
      direction="row"
      useFlexGap
      sx={{ flexWrap: 'wrap', gap: 1.5, alignItems: 'center' }}
      data-testid="attendance-period-legend"
    >
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {translate('attendance.period.legend')}:
      </Typography>
      {DAY_STATUSES.map((status) => (
        <Stack key={status} direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          <StatusCode status={status} />
          <Typography variant="body2">{translate(`attendance.status.${status}`)}</Typography>
        </Stack>
      ))}
    </Stack>
  );
}
