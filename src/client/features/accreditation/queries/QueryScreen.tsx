import DownloadIcon from '@mui/icons-material/Download';
import { Alert, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { FilterBar } from '../../../components/FilterBar.js';
import { DateInput, Pick } from '../../../components/fields.js';
import { Grid, type GridColumn, gridParams, pageOf, useGridState } from '../../../components/grid/Grid.js';
import { Refusal } from '../../../components/Refusal.js';
import { ScreenHeader } from '../../../components/ScreenHeader.js';
import { downloadFile } from '../../../files.js';
import { formatDate, formatDateTime } from '../../../format.js';
import { useConsoleTitle } from '../../../resources/ScreenTitle.js';
import { apiCall, queryString } from '../../../session/http.js';
import { activeCompanies, restList } from '../../../session/records.js';
import { session } from '../../../session/store.js';
import type { RequestRow } from '../api.js';
import { StatusChip } from '../status.js';

/** The three queries of /consultas: mobilisations, demobilisations, the current status. */
export type QueryMode = 'M' | 'D' | 'status';

type Filters = Record<string, string | number | undefined>;

interface StatusRow {
  IdAcreditacion: number;
  Documento: string;
  Nombres: string;
  CompaniaContratista: string | null;
  NumeroContrato: string | null;
  FechaInicio: string;
  FechaFin: string;
  Estado: 'A' | 'S' | 'T';
  ProximoRequisito: string | null;
  ProximoVencimiento: string | null;
  Presente: 'S' | 'N';
  Desde: string | null;
}

type Page<T> = { data: T[]; totalCount: number };
/** A row of either list: a request, or an accreditation's status. */
type Listed = RequestRow | StatusRow;
const staleChoices = { staleTime: 5 * 60_000, retry: false } as const;

/**
 * A query a client runs the site with (spec section 2, /consultas): the division's mobilisations or
 * demobilisations by company, contract, status and request dates, or the current status of its
 * accredited people and vehicles (where, since and until when, the requirement expiring next,
 * present now); 20 a page, and every row as an Excel workbook. A contractor sees its company only.
 */
export default function QueryScreen({ mode }: { mode: QueryMode }) {
  const translate = useTranslate();
  const notify = useNotify();
  const q = (key: string, options?: Record<string, unknown>) => translate(`queries.${key}`, options);
  const title = translate(
    `app.menu.items.${mode === 'M' ? 'queryMobilisations' : mode === 'D' ? 'queryDemobilisations' : 'queryStatus'}`,
  );
  useConsoleTitle(title, q('title'));
  const contractor = session.profile()?.current.IdCompania != null;
  const [entity, setEntity] = useState<string>(mode === 'status' ? 'T' : '');
  const [status, setStatus] = useState<string>('');
  const [presence, setPresence] = useState<string>('');
  const [company, setCompany] = useState<number | ''>('');
  const [contract, setContract] = useState<number | ''>('');
  const [from, setFrom] = useState<string>();
  const [to, setTo] = useState<string>();
  const [text, setText] = useState('');
  const [grid, setGrid] = useGridState(20);
  const filtering =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setGrid((state) => ({ ...state, page: 0 }));
    };
  const companies = useQuery({
    queryKey: ['query-companies'],
    queryFn: activeCompanies,
    enabled: !contractor,
    ...staleChoices,
  });
  const contracts = useQuery({
    queryKey: ['query-contracts', company],
    queryFn: () =>
      restList<{ IdContrato: number; NumeroContrato: string }>(
        'contract',
        company === '' ? {} : { IdCompaniaContratista: company },
        '[0,499]',
      ),
    ...staleChoices,
  });
  const filters: Filters = {
    ...(mode === 'status'
      ? { IdEntidad: entity, Estado: status, Presente: presence, Texto: text.trim() || undefined }
      : { Tipo: mode, IdEntidad: entity, EstadoAprobacion: status }),
    IdCompania: company === '' ? undefined : company,
    IdContrato: contract === '' ? undefined : contract,
    FechaDesde: from,
    FechaHasta: to,
  };
  const path = mode === 'status' ? '/api/consulta/estado' : '/api/consulta/solicitudes';
  const list = useQuery({
    queryKey: ['query', mode, filters, grid],
    queryFn: () =>
      apiCall<Page<Listed>>(
        'GET',
        `${path}?${queryString({ ...filters, skip: gridParams(grid).skip, take: gridParams(grid).take })}`,
      ),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const excel = useMutation({
    mutationFn: () => downloadFile(`${path}/excel?${queryString(filters)}`, 'consulta.xlsx'),
    onSuccess: () => notify('app.export.done', { type: 'success' }),
  });
  const entities = mode === 'status' ? ['T', 'V'] : mode === 'D' ? ['T', 'V'] : ['T', 'V', 'P'];
  const statuses = mode === 'status' ? ['A', 'S', 'T'] : ['I', 'P', 'O', 'R', 'A'];
  const statusLabel = (s: string) =>
    mode === 'status' ? q(`states.${s}`) : translate(`enums.requestStatus.${s}`);

  const requestColumns: GridColumn<RequestRow>[] = [
    { id: 'NumeroSolicitud', label: translate('accreditation.columns.NumeroSolicitud') },
    { id: 'Nombres', label: translate('accreditation.columns.Nombres') },
    { id: 'Documento', label: translate('accreditation.columns.Documento') },
    { id: 'CompaniaContratista', label: translate('accreditation.columns.CompaniaContratista') },
    { id: 'NumeroContrato', label: translate('accreditation.columns.NumeroContrato') },
    {
      id: 'FechaInicio',
      label: translate('accreditation.columns.FechaInicio'),
      render: (r) => formatDate(r.FechaInicio),
    },
    {
      id: 'FechaFin',
      label: translate('accreditation.columns.FechaFin'),
      render: (r) => formatDate(r.FechaFin),
    },
    {
      id: 'FechaSolicitud',
      label: translate('accreditation.columns.FechaSolicitud'),
      render: (r) => formatDateTime(r.FechaSolicitud),
    },
    {
      id: 'EstadoAprobacion',
      label: translate('accreditation.columns.EstadoAprobacion'),
      render: (r) => <StatusChip status={r.EstadoAprobacion} />,
    },
  ];
  const statusColumns: GridColumn<StatusRow>[] = [
    { id: 'Nombres', label: q(entity === 'V' ? 'columns.Placa' : 'columns.Nombres') },
    ...(entity === 'V' ? [] : [{ id: 'Documento', label: q('columns.Documento') }]),
    { id: 'CompaniaContratista', label: q('columns.CompaniaContratista') },
    { id: 'NumeroContrato', label: q('columns.NumeroContrato') },
    { id: 'FechaInicio', label: q('columns.FechaInicio'), render: (r) => formatDate(r.FechaInicio) },
    { id: 'FechaFin', label: q('columns.FechaFin'), render: (r) => formatDate(r.FechaFin) },
    { id: 'Estado', label: q('columns.Estado'), render: (r) => q(`states.${r.Estado}`) },
    {
      id: 'ProximoRequisito',
      label: q('columns.ProximoRequisito'),
      render: (r) =>
        r.ProximoRequisito ? `${r.ProximoRequisito} · ${formatDate(r.ProximoVencimiento as string)}` : '—',
    },
    {
      id: 'Presente',
      label: q('columns.Presente'),
      render: (r) =>
        r.Presente === 'S' ? `${q('present')} · ${formatDateTime(r.Desde as string)}` : q('absent'),
    },
  ];

  return (
    <Stack spacing={2} sx={{ mt: 1, minWidth: 0 }} data-testid={`query-${mode}`}>
      <ScreenHeader title={title}>
        <Typography variant="body2" color="text.secondary" sx={{ flexBasis: '100%', order: 3 }}>
          {q(`subtitle.${mode}`)}
        </Typography>
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          disabled={excel.isPending || !list.data?.totalCount}
          onClick={() => excel.mutate()}
          data-testid="query-excel"
        >
          {q('export')}
        </Button>
      </ScreenHeader>
      <FilterBar testId="query-filters">
        <Pick
          id="query-entity"
          label={q('filters.entity')}
          value={entity}
          options={entities.map((e) => ({ value: e, label: q(`entities.${e}`) }))}
          onChange={filtering(setEntity)}
          none={mode === 'status' ? undefined : q('filters.all')}
          width={160}
        />
        <Pick
          id="query-status"
          label={q('filters.status')}
          value={status}
          options={statuses.map((s) => ({ value: s, label: statusLabel(s) }))}
          onChange={filtering(setStatus)}
          none={q('filters.all')}
          width={160}
        />
        {!contractor && (
          <Pick
            id="query-company"
            label={q('filters.company')}
            value={company}
            options={(companies.data ?? []).map((c) => ({ value: c.IdCompania, label: c.Compania }))}
            onChange={filtering((value: number | '') => {
              setCompany(value);
              setContract('');
            })}
            none={q('filters.all')}
            width={260}
          />
        )}
        <Pick
          id="query-contract"
          label={q('filters.contract')}
          value={contract}
          options={(contracts.data ?? []).map((c) => ({ value: c.IdContrato, label: c.NumeroContrato }))}
          onChange={filtering(setContract)}
          none={q('filters.all')}
          width={180}
        />
        <DateInput id="query-from" label={q('filters.from')} value={from} onChange={filtering(setFrom)} />
        <DateInput id="query-to" label={q('filters.to')} value={to} onChange={filtering(setTo)} min={from} />
        {mode === 'status' && (
          <>
            <Pick
              id="query-presence"
              label={q('filters.presence')}
              value={presence}
              options={[
                { value: 'S' as string, label: q('present') },
                { value: 'N' as string, label: q('absent') },
              ]}
              onChange={filtering(setPresence)}
              none={q('filters.all')}
              width={160}
            />
            <TextField
              size="small"
              label={q('filters.text')}
              value={text}
              onChange={(event) => filtering(setText)(event.target.value)}
              sx={{ width: { xs: '100%', sm: 240 } }}
            />
          </>
        )}
      </FilterBar>
      <Refusal error={list.error || excel.error} testId="query-refusal" />
      <Card sx={{ minWidth: 0 }}>
        <CardContent>
          {list.data?.totalCount === 0 ? (
            <Alert severity="info" data-testid="query-empty">
              {q('empty')}
            </Alert>
          ) : (
            <Grid<Listed>
              label={title}
              columns={(mode === 'status' ? statusColumns : requestColumns) as GridColumn<Listed>[]}
              {...pageOf(list)}
              state={grid}
              onState={setGrid}
              rowKey={(row) => ('IdAcreditacion' in row ? row.IdAcreditacion : row.IdSolicitud)}
              testId="query-grid"
            />
          )}
        </CardContent>
      </Card>
    </Stack>
  );
}
