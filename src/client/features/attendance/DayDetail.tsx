import {
  Button,
  Card,
  CardContent,
  Chip,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import { addDays } from '../../../shared/dates.js';
import { type AttendanceDay, type DayJustificationRow, type DayMarking, flagsOf } from './api.js';
import { clockOf, hoursText, STATUS_COLOURS } from './MonthCalendar.js';

/**
 * A day whole: its result, planned and marked hours, each figure, what was flagged, and the
 * markings it read (those of its date, and of the next morning up to its last exit for a night turn).
 */
export function DayDetail({
  day,
  row,
  markings,
  justifications,
  timeZone,
  onJustify,
  onRemove,
}: {
  day: string;
  row: AttendanceDay | undefined;
  markings: DayMarking[];
  justifications: DayJustificationRow[];
  timeZone: string;
  /** Opens the justification of the day (a supervisor's; none on a closed day). */
  onJustify?(): void;
  onRemove?(id: number): void;
}) {
  const translate = useTranslate();
  const text = (key: string, options?: Record<string, unknown>) =>
    translate(`attendance.screens.${key}`, options);
  const next = addDays(day, 1);
  const own = markings.filter(
    (m) =>
      m.Fecha.slice(0, 10) === day ||
      (m.Fecha.slice(0, 10) === next && row?.UltimaSalida && m.FechaHora <= row.UltimaSalida),
  );
  const figures: Array<[string, string]> = row
    ? [
        [text('planned'), row.EntradaPlan ? `${row.EntradaPlan} – ${row.SalidaPlan}` : '—'],
        [text('marked'), `${clockOf(row.PrimeraEntrada, timeZone)} → ${clockOf(row.UltimaSalida, timeZone)}`],
        [text('worked'), hoursText(row.MinutosTrabajados)],
        [text('break'), `${row.MinutosRefrigerio} min`],
        [text('late'), `${row.MinutosTardanza} min`],
        [text('earlyLeave'), `${row.MinutosSalidaTemprana} min`],
        [text('overtimeBefore'), `${row.MinutosExtraAntes} min`],
        [text('overtimeAfter'), `${row.MinutosExtraDespues} min`],
        [text('justified'), `${row.MinutosJustificados} min`],
      ]
    : [];
  return (
    <Card data-testid="attendance-day">
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        <Typography variant="subtitle1" component="h2">
          {text('dayTitle', { day: `${day.slice(8)}/${day.slice(5, 7)}/${day.slice(0, 4)}` })}
          {row && (
            <Chip
              size="small"
              sx={{ ml: 1 }}
              color={STATUS_COLOURS[row.Estado]}
              label={translate(`attendance.status.${row.Estado}`)}
            />
          )}
        </Typography>
        {!row && <Typography color="text.secondary">{text('notComputedLong')}</Typography>}
        {row?.Feriado && <Typography>{text('holiday', { name: row.Feriado })}</Typography>}
        {row &&
          flagsOf(row).map((flag) => (
            <Typography key={flag} color="warning.main">
              {translate(`attendance.flags.${flag}`)}
            </Typography>
          ))}
        {row?.Pendiente === 'S' && <Typography color="warning.main">{text('pending')}</Typography>}
        {figures.length > 0 && (
          <Table size="small" sx={{ maxWidth: 480 }}>
            <TableBody>
              {figures.map(([label, value]) => (
                <TableRow key={label}>
                  <TableCell component="th" scope="row">
                    {label}
                  </TableCell>
                  <TableCell>{value}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <Typography variant="subtitle2" component="h3" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          {translate('attendance.justify.list')}
          {onJustify && row?.Cerrado !== 'S' && (
            <Button size="small" variant="outlined" onClick={onJustify} data-testid="attendance-justify">
              {translate('attendance.justify.button')}
            </Button>
          )}
        </Typography>
        {justifications.length ? (
          <Table size="small" sx={{ maxWidth: 640 }} data-testid="attendance-justifications">
            <TableBody>
              {justifications.map((j) => (
                <TableRow key={j.IdJustificacionPersona}>
                  <TableCell>
                    {j.Descripcion} ({j.CodigoReferencia})
                  </TableCell>
                  <TableCell>
                    {translate(`enums.justificationKind.${j.Tipo}`)}
                    {j.Horas != null ? ` · ${j.Horas} h` : ''}
                  </TableCell>
                  <TableCell sx={{ wordBreak: 'break-word' }}>{j.Observacion ?? ''}</TableCell>
                  <TableCell>{translate(`enums.justificationOrigin.${j.Origen}`)}</TableCell>
                  {onRemove && row?.Cerrado !== 'S' && (
                    <TableCell>
                      <Button size="small" color="error" onClick={() => onRemove(j.IdJustificacionPersona)}>
                        {translate('attendance.justify.remove')}
                      </Button>
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : (
          <Typography color="text.secondary">{translate('attendance.justify.none')}</Typography>
        )}
        <Typography variant="subtitle2" component="h3">
          {text('markings')}
        </Typography>
        {own.length ? (
          <Table size="small" sx={{ maxWidth: 480 }} data-testid="attendance-markings">
            <TableHead>
              <TableRow>
                <TableCell>{text('time')}</TableCell>
                <TableCell>{text('direction')}</TableCell>
                <TableCell>{text('result')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {own.map((m) => (
                <TableRow key={m.IdMarcacion}>
                  <TableCell>
                    {m.Fecha.slice(0, 10) === day ? '' : `${m.Fecha.slice(8, 10)}/${m.Fecha.slice(5, 7)} `}
                    {clockOf(m.FechaHora, timeZone)}
                  </TableCell>
                  <TableCell>
                    {translate(m.Funcion === 'E' ? 'attendance.screens.entry' : 'attendance.screens.exit')}
                  </TableCell>
                  <TableCell>
                    {translate(
                      m.Resultado === 'P' ? 'attendance.screens.passed' : 'attendance.screens.denied',
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : (
          <Typography color="text.secondary">{text('noMarkings')}</Typography>
        )}
      </CardContent>
    </Card>
  );
}
