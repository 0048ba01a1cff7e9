import {
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  List,
  ListItem,
  ListItemButton,
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
import { useLocale, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { Pager } from '../../../components/grid/Pager.js';
import { formatDateTime, formatStay } from '../../../format.js';
import { apiCall } from '../../../session/http.js';
import { type GroupRow, HeadcountGroups } from './HeadcountGroups.js';

type Kind = 'T' | 'V' | 'P';
type State = 'P' | 'A';
const PAGE = 15;
const BASE = '/api/acreditacionsolicitud';

interface CardRow {
  ENTIDAD: Kind;
  ESTADO: State;
  TOTAL: number;
}
interface HeadcountRow {
  IdPersona: number | null;
  IdVehiculo: number | null;
  Documento: string | null;
  NombreCompleto: string | null;
  Placa: string | null;
  Marca: string | null;
  Zona: string | null;
  FechaMarca: string | null;
  Permanencia: number | null;
  Contrato: string | null;
}
type Answer = [
  Array<Record<string, number>>,
  CardRow[],
  CardRow[],
  CardRow[],
  Array<Record<string, unknown>>,
];

/** The popup's columns (spec section 2, headcount tab). */
function columnsOf(kind: Kind, state: State): Array<keyof HeadcountRow> {
  const who: Array<keyof HeadcountRow> = kind === 'V' ? ['Placa', 'Marca'] : ['Documento', 'NombreCompleto'];
  if (state === 'P') return [...who, 'Zona', 'FechaMarca', 'Permanencia'];
  return kind === 'P' ? who : [...who, 'Contrato'];
}

/** The dashboard's year and months as the headcount calls take them (none: today's). */
type Period = { year: number; months: number[] } | undefined;
const periodQuery = (period: Period): Record<string, string> =>
  period?.months.length ? { CantYear: String(period.year), CantMonth: period.months.join(',') } : {};

function HeadcountPopup({
  kind,
  state,
  period,
  onClose,
}: {
  kind: Kind;
  state: State;
  period: Period;
  onClose(): void;
}) {
  const translate = useTranslate();
  const [page, setPage] = useState(0);
  const rows = useQuery({
    queryKey: ['headcount-detail', kind, state, page, periodQuery(period)],
    queryFn: () =>
      apiCall<{ data: HeadcountRow[]; totalCount: number }>(
        'GET',
        `${BASE}/dashboarddotaciondetalle?${new URLSearchParams({
          TipoConsulta: state,
          TipoEntidad: kind,
          skip: String(page * PAGE),
          take: String(PAGE),
          requireTotalCount: 'true',
          ...periodQuery(period),
        })}`,
      ),
  });
  const columns = columnsOf(kind, state);
  const cell = (row: HeadcountRow, column: keyof HeadcountRow) => {
    const value = row[column];
    if (value == null) return '';
    if (column === 'FechaMarca') return formatDateTime(String(value));
    if (column === 'Permanencia') return formatStay(Number(value));
    return String(value);
  };
  const title = `${translate(`headcount.entities.${kind}`)}: ${translate(`headcount.${state === 'P' ? 'present' : 'absent'}`)}`;
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth aria-label={title}>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        {rows.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" data-testid="headcount-table">
            <TableHead>
              <TableRow>
                {columns.map((c) => (
                  <TableCell key={c}>{translate(`headcount.columns.${c}`)}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {(rows.data?.data ?? []).map((row) => (
                <TableRow key={`${row.IdPersona ?? ''}-${row.IdVehiculo ?? ''}-${row.Documento ?? ''}`}>
                  {columns.map((c) => (
                    <TableCell key={c}>{cell(row, c)}</TableCell>
                  ))}
                </TableRow>
              ))}
              {rows.isSuccess && !rows.data.data.length && (
                <TableRow>
                  <TableCell colSpan={columns.length}>{translate('headcount.empty')}</TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </Box>
        <Pager
          count={rows.data?.totalCount ?? 0}
          page={page}
          onPageChange={(_e, p) => setPage(p)}
          rowsPerPage={PAGE}
          rowsPerPageOptions={[PAGE]}
          labelDisplayedRows={({ from, to, count }) => translate('headcount.rows', { from, to, count })}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * The requester dashboard's headcount tab (spec section 2): a card per kind it may see with the
 * present and the absent, each row opening the popup that lists them (15 a page), as of the end of
 * the latest month the dashboard's filter asks (today's while that month lasts).
 */
export default function HeadcountTab({ kinds, period }: { kinds: Kind[]; period?: Period }) {
  const translate = useTranslate();
  const locale = useLocale();
  const [open, setOpen] = useState<{ kind: Kind; state: State } | null>(null);
  const query = periodQuery(period);
  const answer = useQuery({
    queryKey: ['headcount', locale, query],
    queryFn: () => apiCall<Answer>('GET', `${BASE}/dashboarddotacion?${new URLSearchParams(query)}`),
  });
  const index: Record<Kind, 1 | 2 | 3> = { T: 1, V: 2, P: 3 };
  return (
    <Stack spacing={2} data-testid="headcount-tab">
      {answer.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
      <Stack direction="row" useFlexGap flexWrap="wrap" spacing={1}>
        <Button component={Link} to="/acceso/evacuacion" variant="outlined" size="small">
          {translate('headcount.openRollCall')}
        </Button>
        <Button component={Link} to="/acceso/requisitos-vencidos" variant="outlined" size="small">
          {translate('requirementReport.open')}
        </Button>
      </Stack>
      <Stack direction="row" useFlexGap flexWrap="wrap" spacing={2}>
        {kinds.map((kind) => {
          const rows = (answer.data?.[index[kind]] ?? []) as CardRow[];
          const title = translate(`headcount.entities.${kind}`);
          return (
            <Card
              key={kind}
              sx={{ flex: '1 1 280px', maxWidth: { md: 420 } }}
              component="section"
              aria-label={title}
            >
              <CardHeader title={title} slotProps={{ title: { component: 'h2', variant: 'h6' } }} />
              <CardContent sx={{ pt: 0 }}>
                <List dense disablePadding>
                  {rows.map((row) => (
                    <ListItem key={row.ESTADO} disablePadding>
                      <ListItemButton
                        onClick={() => setOpen({ kind, state: row.ESTADO })}
                        data-headcount-row={`${kind}${row.ESTADO}`}
                        sx={{
                          borderLeft: 6,
                          borderColor: row.ESTADO === 'P' ? 'success.main' : 'grey.500',
                          mb: 0.5,
                          borderRadius: 1,
                        }}
                      >
                        <Box sx={{ flex: 1 }}>
                          {translate(`headcount.${row.ESTADO === 'P' ? 'present' : 'absent'}`)}
                        </Box>
                        <Typography component="span" sx={{ fontWeight: 600 }}>
                          {row.TOTAL}
                        </Typography>
                      </ListItemButton>
                    </ListItem>
                  ))}
                </List>
              </CardContent>
            </Card>
          );
        })}
      </Stack>
      <HeadcountGroups
        mode={answer.data?.[0]?.[0]?.ModoDotacion as unknown as string | undefined}
        groups={(answer.data?.[4] ?? []) as unknown as GroupRow[]}
        kinds={kinds}
      />
      {open && (
        <HeadcountPopup kind={open.kind} state={open.state} period={period} onClose={() => setOpen(null)} />
      )}
    </Stack>
  );
}
