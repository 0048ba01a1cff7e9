import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useRecordContext, useTranslate } from 'react-admin';
import type { ResourceMeta } from '../../shared/schema/types.js';
import { formatDateTime } from '../format.js';
import { apiFetch } from '../session/http.js';

interface AuditRow {
  IdAuditoria: number;
  Fecha: string;
  IdUsuario: string;
  Operacion: 'C' | 'U' | 'D';
  Campos: string | null;
  Antes: string | null;
  Despues: string | null;
}

type Data = Record<string, unknown>;

const parse = (json: string | null): Data => {
  try {
    return json ? (JSON.parse(json) as Data) : {};
  } catch {
    return {};
  }
};

/** A record's audit trail, read-only: who changed what and when, each change's before and after. */
export default function History({ meta }: { meta: ResourceMeta }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const { data: rows = [], isPending } = useQuery({
    queryKey: ['history', meta.name, record?.id],
    enabled: record?.id !== undefined,
    queryFn: async (): Promise<AuditRow[]> => {
      const response = await apiFetch(
        `/api/rest/${meta.name}/${encodeURIComponent(String(record?.id))}/history`,
      );
      return response.ok ? ((await response.json()) as AuditRow[]) : [];
    },
  });
  const show = (field: string, value: unknown) => {
    if (value === null || value === undefined || value === '') return '—';
    const prop = meta.schema.properties[field];
    if (prop?.enum) return translate(`enums.${prop['x-enum']}.${value}`);
    return Array.isArray(value) ? value.join(', ') : String(value);
  };
  return (
    <Box sx={{ px: 2, pb: 2 }} className="record-history">
      <Typography variant="overline">{translate('app.history.title')}</Typography>
      {!isPending && !rows.length && (
        <Typography variant="body2" color="text.secondary">
          {translate('app.history.empty')}
        </Typography>
      )}
      {rows.length > 0 && (
        // On a phone the table scrolls sideways inside its box; the page itself stays as wide as the screen.
        <Box
          sx={{ overflowX: 'auto', contain: 'inline-size' }}
          tabIndex={0}
          role="region"
          aria-label={translate('app.history.title')}
        >
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{translate('resources.audit.fields.Fecha')}</TableCell>
                <TableCell>{translate('resources.audit.fields.IdUsuario')}</TableCell>
                <TableCell>{translate('resources.audit.fields.Operacion')}</TableCell>
                <TableCell>{translate('app.history.field')}</TableCell>
                <TableCell>{translate('app.history.before')}</TableCell>
                <TableCell>{translate('app.history.after')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.flatMap((row) => {
                const before = parse(row.Antes);
                const after = parse(row.Despues);
                const fields = row.Campos ? row.Campos.split(', ') : [''];
                return fields.map((field, i) => (
                  <TableRow key={`${row.IdAuditoria}-${field}`}>
                    <TableCell>{i === 0 ? formatDateTime(row.Fecha) : ''}</TableCell>
                    <TableCell>{i === 0 ? row.IdUsuario : ''}</TableCell>
                    <TableCell>{i === 0 ? translate(`enums.auditOperation.${row.Operacion}`) : ''}</TableCell>
                    <TableCell>{field ? translate(`resources.${meta.name}.fields.${field}`) : '—'}</TableCell>
                    <TableCell>{field ? show(field, before[field]) : '—'}</TableCell>
                    <TableCell>{field ? show(field, after[field]) : '—'}</TableCell>
                  </TableRow>
                ));
              })}
            </TableBody>
          </Table>
        </Box>
      )}
    </Box>
  );
}
