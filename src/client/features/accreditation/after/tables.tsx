import { Box, Checkbox, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { RequestStatus } from '../../../../../workflows/request.machine.js';
import { formatDate } from '../../../format.js';
import type { RequestRow } from '../api.js';
import { StatusChip } from '../status.js';
import type { Candidate } from './api.js';

export const toggled = (list: number[], id: number) =>
  list.includes(id) ? list.filter((x) => x !== id) : [...list, id];

/** Whom a request is for, as the screens name it: the holder's name and document. */
export const holderName = (row: RequestRow) => `${row.Nombres ?? ''} (${row.Documento ?? ''})`;

/** An accredited worker or vehicle as the screens name it: the plate, or the name and document. */
export const candidateName = (row: Candidate) =>
  row.Placa ?? `${row.Apellido ?? ''} ${row.Nombre ?? ''} (${row.Documento ?? ''})`;

/** The names of the picked accreditations, in the order they are sent (for a refusal's rows). */
export const candidateNames = (rows: Candidate[], ids: number[]) =>
  ids.map((id) => {
    const row = rows.find((r) => r.IdAcreditacion === id);
    return row ? candidateName(row) : String(id);
  });

/** The requester's accredited workers or vehicles to pick from (demobilisation, contract requests). */
export function AccreditedTable({
  rows,
  selected,
  onToggle,
  label,
}: {
  rows: Candidate[];
  selected: number[];
  onToggle(id: number): void;
  label: string;
}) {
  const translate = useTranslate();
  return (
    // A table wider than a phone scrolls in its own box, which the keyboard reaches too.
    <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={label}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox" />
            <TableCell>{translate('demobilisation.holder')}</TableCell>
            <TableCell>{translate('demobilisation.contract')}</TableCell>
            <TableCell>{translate('demobilisation.until')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.IdAcreditacion} data-testid={`candidate-${row.IdAcreditacion}`}>
              <TableCell padding="checkbox">
                <Checkbox
                  checked={selected.includes(row.IdAcreditacion)}
                  onChange={() => onToggle(row.IdAcreditacion)}
                  slotProps={{
                    input: {
                      'aria-label': String(row.Documento || row.Placa || row.IdAcreditacion),
                    } as object,
                  }}
                />
              </TableCell>
              <TableCell>{candidateName(row)}</TableCell>
              <TableCell>{row.NumeroContrato}</TableCell>
              <TableCell>{formatDate(row.FechaFin)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

/**
 * Requests of one type (demobilisations, contract requests, requirement updates): the authoriser
 * picks pending ones to decide together, the requester incomplete ones to delete together
 * (`pickable` says which rows offer a tick: pending unless said); `date` is the third column (the request's end unless
 * said), `link` makes each number a link to its request, and `action` adds a last cell per row.
 */
export function RequestTable({
  rows,
  label,
  holderLabel,
  endLabel,
  date = (row) => row.FechaFin,
  link,
  testId,
  picked,
  onToggle,
  pickable = (row) => row.EstadoAprobacion === 'P',
  action,
  requirement = false,
}: {
  rows: RequestRow[];
  label: string;
  /** What the holder column names (a worker or vehicle, unless said). */
  holderLabel?: string;
  endLabel: string;
  date?(row: RequestRow): string | null | undefined;
  link?(row: RequestRow): string;
  testId: string;
  /** The rows picked (none: the table offers no ticks). */
  picked?: number[];
  onToggle?(id: number): void;
  /** The rows that may be picked. */
  pickable?(row: RequestRow): boolean;
  action?(row: RequestRow): ReactNode;
  /** Shows the requirement each request renews (the renewal lists). */
  requirement?: boolean;
}) {
  const translate = useTranslate();
  const columns = 4 + (picked ? 1 : 0) + (action ? 1 : 0) + (requirement ? 1 : 0);
  return (
    // A table wider than a phone scrolls in its own box, which the keyboard reaches too.
    <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={label}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {picked && <TableCell padding="checkbox" />}
            <TableCell>{translate('accreditation.columns.NumeroSolicitud')}</TableCell>
            <TableCell>{holderLabel ?? translate('demobilisation.holder')}</TableCell>
            {requirement && <TableCell>{translate('renewal.requirement')}</TableCell>}
            <TableCell>{endLabel}</TableCell>
            <TableCell>{translate('accreditation.columns.EstadoAprobacion')}</TableCell>
            {action && <TableCell />}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.length === 0 && (
            <TableRow>
              <TableCell colSpan={columns}>{translate('accreditation.screens.noRequests')}</TableCell>
            </TableRow>
          )}
          {rows.map((row) => (
            <TableRow key={row.IdSolicitud} data-testid={`${testId}-${row.IdSolicitud}`}>
              {picked && (
                <TableCell padding="checkbox">
                  <Checkbox
                    disabled={!pickable(row)}
                    checked={picked.includes(row.IdSolicitud)}
                    onChange={() => onToggle?.(row.IdSolicitud)}
                    slotProps={{
                      input: {
                        'aria-label': translate('accreditation.screens.selectRequest', {
                          number: row.NumeroSolicitud,
                        }),
                      } as object,
                    }}
                  />
                </TableCell>
              )}
              <TableCell>
                {link ? <Link to={link(row)}>{row.NumeroSolicitud}</Link> : row.NumeroSolicitud}
              </TableCell>
              <TableCell>{holderName(row)}</TableCell>
              {requirement && <TableCell data-column="requirement">{row.Requisito ?? ''}</TableCell>}
              <TableCell>{formatDate(date(row))}</TableCell>
              <TableCell>
                <StatusChip status={row.EstadoAprobacion as RequestStatus} />
              </TableCell>
              {action && <TableCell>{action(row)}</TableCell>}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
