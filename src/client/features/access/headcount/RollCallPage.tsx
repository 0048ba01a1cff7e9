import DownloadIcon from '@mui/icons-material/Download';
import PrintIcon from '@mui/icons-material/Print';
import {
  Box,
  Button,
  Card,
  CardContent,
  FormControl,
  InputLabel,
  LinearProgress,
  MenuItem,
  Select,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocale, useNotify, useTranslate } from 'react-admin';
import { saveBase64 } from '../../../files.js';
import { useConsoleTitle } from '../../../resources/ScreenTitle.js';
import { apiCall, apiFetch } from '../../../session/http.js';

interface RollRow {
  IdPersona: number | null;
  IdVehiculo: number | null;
  Documento: string | null;
  NombreCompleto: string | null;
  Placa: string | null;
  Compania: string | null;
  Zona: string | null;
  FechaMarca: string;
  Permanencia: number;
}
interface ZoneRow {
  IdZona: number;
  Descripcion: string;
}

const COLUMNS = [
  'Documento',
  'NombreCompleto',
  'Placa',
  'Compania',
  'Zona',
  'FechaMarca',
  'Permanencia',
] as const;
const REFRESH_MS = 10_000;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The evacuation roll call for the security office: everyone inside now, in a zone (and the zones
 * inside it) or the whole division, refreshed every 10 seconds as markings arrive; printable and
 * exported to Excel.
 */
export default function RollCallPage() {
  const translate = useTranslate();
  const locale = useLocale();
  const notify = useNotify();
  useConsoleTitle(translate('headcount.rollCall'));
  const [zone, setZone] = useState<number | ''>('');
  const zones = useQuery({
    queryKey: ['roll-call-zones'],
    queryFn: async () => {
      const response = await apiFetch('/api/rest/zone?range=[0,199]&sort=["Descripcion","ASC"]');
      return response.ok ? ((await response.json()) as ZoneRow[]) : [];
    },
  });
  const query = zone === '' ? '' : `?IdZona=${zone}`;
  const rows = useQuery({
    queryKey: ['roll-call', zone],
    queryFn: () => apiCall<RollRow[]>('GET', `/api/acceso/evacuacion${query}`),
    refetchInterval: REFRESH_MS,
  });
  const exportFile = async () => {
    try {
      const file = await apiCall<{ fileBase64: string; fileName: string }>(
        'GET',
        `/api/acceso/evacuacion${query ? `${query}&` : '?'}formato=xlsx`,
      );
      saveBase64(file.fileBase64, file.fileName, XLSX);
    } catch {
      notify('ra.notification.http_error', { type: 'warning' });
    }
  };
  const cell = (row: RollRow, column: (typeof COLUMNS)[number]) => {
    if (column === 'FechaMarca')
      return new Date(row.FechaMarca).toLocaleString(locale === 'en' ? 'en-GB' : 'es-PE');
    if (column === 'Permanencia')
      return `${Math.floor(row.Permanencia / 60)} h ${String(row.Permanencia % 60).padStart(2, '0')} min`;
    return row[column] ?? '';
  };
  return (
    <Stack spacing={2} sx={{ mt: 1 }} data-testid="roll-call">
      <Card>
        <CardContent sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
          <Typography variant="h6" component="h1" sx={{ flex: '1 1 auto' }}>
            {translate('headcount.rollCall')}: {rows.data?.length ?? 0}
          </Typography>
          <FormControl size="small" sx={{ minWidth: 240 }}>
            <InputLabel id="roll-call-zone">{translate('headcount.columns.Zona')}</InputLabel>
            <Select
              labelId="roll-call-zone"
              label={translate('headcount.columns.Zona')}
              value={zone}
              onChange={(event) => {
                const value = String(event.target.value);
                setZone(value === '' ? '' : Number(value));
              }}
            >
              <MenuItem value="">{translate('headcount.allZones')}</MenuItem>
              {(zones.data ?? []).map((z) => (
                <MenuItem key={z.IdZona} value={z.IdZona}>
                  {z.Descripcion}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          <Button startIcon={<PrintIcon />} onClick={() => window.print()}>
            {translate('headcount.print')}
          </Button>
          <Button startIcon={<DownloadIcon />} onClick={exportFile}>
            {translate('ra.action.export')}
          </Button>
        </CardContent>
        {rows.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
      </Card>
      <Card>
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small">
            <TableHead>
              <TableRow>
                {COLUMNS.map((c) => (
                  <TableCell key={c}>{translate(`headcount.columns.${c}`)}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {(rows.data ?? []).map((row) => (
                <TableRow key={`${row.IdPersona ?? ''}-${row.IdVehiculo ?? ''}`}>
                  {COLUMNS.map((c) => (
                    <TableCell key={c}>{cell(row, c)}</TableCell>
                  ))}
                </TableRow>
              ))}
              {rows.isSuccess && !rows.data.length && (
                <TableRow>
                  <TableCell colSpan={COLUMNS.length}>{translate('headcount.empty')}</TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </Box>
      </Card>
    </Stack>
  );
}
