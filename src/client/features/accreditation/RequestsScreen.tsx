import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import DownloadIcon from '@mui/icons-material/Download';
import HomeIcon from '@mui/icons-material/Home';
import RefreshIcon from '@mui/icons-material/Refresh';
import {
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  Checkbox,
  Chip,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Confirm, useNotify, useTranslate } from 'react-admin';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { RequestStatus } from '../../../../workflows/request.machine.js';
import { type EntityCode, requestNumber } from '../../../shared/accreditation.js';
import { Grid, type GridColumn, gridParams, useGridState } from '../../components/grid/Grid.js';
import { saveWorkbook } from '../../files.js';
import { formatDate, formatDateTime } from '../../format.js';
import { useConsoleTitle } from '../../resources/ScreenTitle.js';
import { useSettled } from '../../useSettled.js';
import {
  accreditationApi,
  type CompanyRow,
  KIND_OF_SEGMENT,
  type RequestRow,
  type Side,
  screenPath,
} from './api.js';
import { StatusChip } from './status.js';

const STATUSES: RequestStatus[] = ['I', 'P', 'O', 'R', 'A'];

/**
 * The applicant requests screen of spec section 2, for the requester and the authoriser of one
 * kind: the contractor companies with their pending, observed and total requests (10 a page,
 * filtered by document and name, refresh, Excel, home), and below them the requests (of the
 * chosen company, or all), filtered by status as the dashboard's row said, each opened to be
 * edited or evaluated.
 */
export default function RequestsScreen({ side }: { side: Side }) {
  const { kind = 'persona' } = useParams();
  const entity = KIND_OF_SEGMENT[kind] as EntityCode;
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const status = params.get('estado') as RequestStatus | null;
  const company = params.get('compania') ? Number(params.get('compania')) : undefined;
  // With a year, `meses` lists months of it (the requester's dashboard); without, it counts months back.
  const period = {
    CantYear: params.get('anio') ?? undefined,
    CantMonth: params.get('anio') ? (params.get('meses') ?? undefined) : undefined,
    CantMeses: params.get('anio') ? undefined : (params.get('meses') ?? undefined),
  };
  const [documentText, setDocumentText] = useState('');
  const [nameText, setNameText] = useState('');
  const [searchText, setSearchText] = useState('');
  const documentFilter = useSettled(documentText, 350);
  const nameFilter = useSettled(nameText, 350);
  const search = useSettled(searchText, 350);
  const [companyGrid, setCompanyGrid] = useGridState(10);
  const [requestGrid, setRequestGrid] = useGridState(10, { selector: 'FechaSolicitud', desc: true });
  const kindName = translate(`accreditation.entities.${entity}`);
  const title = translate(
    side === 'solicitante' ? 'accreditation.screens.requests' : 'accreditation.screens.approvals',
  );
  useConsoleTitle(kindName, title);

  const companies = useQuery({
    queryKey: ['accreditation', 'companies', side, entity, companyGrid, documentFilter, nameFilter],
    queryFn: () =>
      accreditationApi.companies(gridParams(companyGrid), {
        IdEntidad: entity,
        Documento: documentFilter,
        CompaniaContratista: nameFilter,
      }),
    placeholderData: keepPreviousData,
  });
  // Digits look for a document or plate; anything else for a name.
  const filter = search
    ? JSON.stringify([
        /^[\d.-]+$/.test(search) ? 'Documento' : 'Nombres',
        'contains',
        search.replace(/[.-]/g, ''),
      ])
    : undefined;
  const requests = useQuery({
    queryKey: ['accreditation', 'requests', side, entity, requestGrid, status, company, period, filter],
    queryFn: () =>
      accreditationApi.requests(gridParams(requestGrid), {
        IdEntidad: entity,
        EstadoAprobacion: status ?? undefined,
        IdCompaniaContratista: company,
        ...period,
        filter,
      }),
    placeholderData: keepPreviousData,
  });
  const setParam = (name: string, value: string | undefined) => {
    const next = new URLSearchParams(params);
    if (value === undefined) next.delete(name);
    else next.set(name, value);
    setParams(next, { replace: true });
    setRequestGrid((grid) => ({ ...grid, page: 0 }));
  };
  const refresh = () => client.invalidateQueries({ queryKey: ['accreditation'] });
  const exportCompanies = async () => {
    try {
      const file = await accreditationApi.exportCompanies({
        Documento: documentFilter || undefined,
        CompaniaContratista: nameFilter || undefined,
        Titulo: `${title} · ${kindName}`,
        NombreArchivo: translate('accreditation.screens.companiesFile'),
      });
      saveWorkbook(file);
    } catch {
      notify('app.export.failed', { type: 'info' });
    }
  };
  const exportRequests = async () => {
    try {
      const file = await accreditationApi.exportRequests({
        IdEntidad: entity,
        EstadoAprobacion: status ?? undefined,
        IdCompaniaContratista: company,
        Titulo: `${title} · ${kindName}`,
        NombreArchivo: translate('accreditation.requests'),
      });
      saveWorkbook(file);
    } catch {
      notify('app.export.failed', { type: 'info' });
    }
  };
  const open = (row: RequestRow) => navigate(screenPath(side, entity, row.IdSolicitud));

  // The requester's incomplete requests chosen for a bulk delete (spec section 4).
  const [selected, setSelected] = useState<number[]>([]);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const removeSelected = async () => {
    setConfirmDelete(false);
    try {
      const done = await accreditationApi.removeMany(selected);
      setSelected([]);
      await client.invalidateQueries({ queryKey: ['accreditation'] });
      if (done.Rechazadas.length)
        notify('accreditation.refusals.someNotDeleted', {
          type: 'warning',
          messageArgs: {
            list: done.Rechazadas.map(
              (r) => `${requestNumber(r.IdSolicitud)} (${translate(r.messageKey)})`,
            ).join(', '),
          },
        });
      else
        notify('accreditation.screens.deletedMany', {
          type: 'success',
          messageArgs: { count: done.Eliminadas.length },
        });
    } catch (error) {
      notify(error instanceof Error ? error.message : 'ra.notification.http_error', { type: 'error' });
    }
  };
  const selectColumn: GridColumn<RequestRow>[] =
    side === 'solicitante'
      ? [
          {
            id: 'select',
            label: translate('accreditation.columns.select'),
            render: (row) =>
              row.EstadoAprobacion === 'I' ? (
                <Checkbox
                  size="small"
                  checked={selected.includes(row.IdSolicitud)}
                  onClick={(event) => event.stopPropagation()}
                  onChange={(event) =>
                    setSelected((list) =>
                      event.target.checked
                        ? [...list, row.IdSolicitud]
                        : list.filter((id) => id !== row.IdSolicitud),
                    )
                  }
                  slotProps={{
                    input: {
                      'aria-label': translate('accreditation.screens.selectRequest', {
                        number: row.NumeroSolicitud,
                      }),
                    },
                  }}
                />
              ) : null,
          },
        ]
      : [];

  const companyColumns: GridColumn<CompanyRow>[] = [
    { id: 'CompaniaContratista', label: translate('summary.columns.CompaniaContratista'), sortable: true },
    { id: 'Documento', label: translate('summary.columns.Documento'), sortable: true },
    { id: 'PENDIENTES', label: translate('summary.columns.PENDIENTES'), sortable: true, align: 'right' },
    { id: 'OBSERVADOS', label: translate('summary.columns.OBSERVADOS'), sortable: true, align: 'right' },
    { id: 'Total', label: translate('summary.columns.Total'), sortable: true, align: 'right' },
  ];
  const requestColumns: GridColumn<RequestRow>[] = [
    {
      id: 'IdSolicitud',
      label: translate('accreditation.columns.NumeroSolicitud'),
      sortable: true,
      render: (row) => <span className="request-number">{row.NumeroSolicitud}</span>,
    },
    // After the number, which a phone's card shows as its title.
    ...selectColumn,
    { id: 'Nombres', label: translate('accreditation.columns.Nombres'), sortable: true },
    { id: 'Documento', label: translate('accreditation.columns.Documento') },
    ...(side === 'autorizador'
      ? [{ id: 'CompaniaContratista', label: translate('accreditation.columns.CompaniaContratista') }]
      : []),
    {
      id: 'FechaInicio',
      label: translate('accreditation.columns.FechaInicio'),
      sortable: true,
      render: (row) => formatDate(row.FechaInicio),
    },
    {
      id: 'FechaFin',
      label: translate('accreditation.columns.FechaFin'),
      sortable: true,
      render: (row) => formatDate(row.FechaFin),
    },
    {
      id: 'FechaSolicitud',
      label: translate('accreditation.columns.FechaSolicitud'),
      sortable: true,
      render: (row) => formatDateTime(row.FechaSolicitud),
    },
    { id: 'DescripcionPerfil', label: translate('accreditation.columns.DescripcionPerfil') },
    {
      id: 'EstadoAprobacion',
      label: translate('accreditation.columns.EstadoAprobacion'),
      sortable: true,
      render: (row) => <StatusChip status={row.EstadoAprobacion} />,
    },
    {
      id: 'open',
      label: translate('accreditation.columns.action'),
      render: (row) => (
        <Button
          size="small"
          variant="outlined"
          onClick={(event) => {
            event.stopPropagation();
            open(row);
          }}
          data-open-request={row.IdSolicitud}
        >
          {translate(
            side === 'autorizador' && row.EstadoAprobacion === 'P'
              ? 'accreditation.actions.evaluate'
              : side === 'solicitante' && (row.EstadoAprobacion === 'I' || row.EstadoAprobacion === 'O')
                ? 'ra.action.edit'
                : 'accreditation.actions.open',
          )}
        </Button>
      ),
    },
  ];
  const chosen = companies.data?.data.find((c) => c.IdCompaniaContratista === company);
  return (
    <Stack spacing={2} sx={{ mt: 1 }} data-testid="requests-screen">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
        <Box sx={{ flex: '1 1 auto' }}>
          <Typography variant="h5" component="h1">
            {translate('accreditation.screens.title')}
          </Typography>
          <Typography color="text.secondary">
            {title} · {kindName}
          </Typography>
        </Box>
        {side === 'solicitante' && (
          <Button
            variant="contained"
            startIcon={<AddIcon />}
            component={Link}
            to={screenPath(side, entity, 'nueva')}
            data-testid="new-request"
          >
            {translate('accreditation.actions.newRequest')}
          </Button>
        )}
        <Button startIcon={<RefreshIcon />} onClick={refresh}>
          {translate('ra.action.refresh')}
        </Button>
        <Button startIcon={<HomeIcon />} component={Link} to="/dashboard">
          {translate('app.menu.home')}
        </Button>
      </Box>
      <Card>
        <CardHeader
          title={translate('accreditation.screens.companies')}
          slotProps={{ title: { component: 'h2', variant: 'h6' } }}
          action={
            <Button size="small" startIcon={<DownloadIcon />} onClick={exportCompanies}>
              {translate('app.export.label')}
            </Button>
          }
        />
        <CardContent sx={{ pt: 0 }}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 1 }}>
            <TextField
              size="small"
              label={translate('summary.columns.Documento')}
              value={documentText}
              onChange={(event) => setDocumentText(event.target.value)}
            />
            <TextField
              size="small"
              label={translate('summary.columns.CompaniaContratista')}
              value={nameText}
              onChange={(event) => setNameText(event.target.value)}
            />
          </Stack>
          <Grid
            label={translate('accreditation.screens.companies')}
            columns={companyColumns}
            rows={companies.data?.data}
            total={companies.data?.totalCount}
            loading={companies.isFetching}
            state={companyGrid}
            onState={setCompanyGrid}
            rowKey={(row) => row.IdCompaniaContratista}
            selectedKey={company}
            onRowClick={(row) =>
              setParam(
                'compania',
                row.IdCompaniaContratista === company ? undefined : String(row.IdCompaniaContratista),
              )
            }
            testId="company-grid"
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader
          title={translate('accreditation.requests')}
          subheader={chosen?.CompaniaContratista}
          slotProps={{ title: { component: 'h2', variant: 'h6' } }}
          action={
            <Stack direction="row" spacing={1}>
              {selected.length > 0 && (
                <Button
                  size="small"
                  color="error"
                  startIcon={<DeleteIcon />}
                  onClick={() => setConfirmDelete(true)}
                  data-testid="delete-selected"
                >
                  {translate('accreditation.screens.deleteSelected', { count: selected.length })}
                </Button>
              )}
              <Button size="small" startIcon={<DownloadIcon />} onClick={exportRequests}>
                {translate('app.export.label')}
              </Button>
            </Stack>
          }
        />
        <CardContent sx={{ pt: 0 }}>
          <Stack direction="row" useFlexGap flexWrap="wrap" spacing={1} sx={{ mb: 1 }} alignItems="center">
            <Chip
              label={translate('accreditation.screens.allStatuses')}
              color={status === null ? 'primary' : 'default'}
              onClick={() => setParam('estado', undefined)}
            />
            {STATUSES.filter((s) => side === 'solicitante' || s !== 'I').map((s) => (
              <Chip
                key={s}
                label={translate(`enums.requestStatus.${s}`)}
                color={status === s ? 'primary' : 'default'}
                variant={status === s ? 'filled' : 'outlined'}
                onClick={() => setParam('estado', s)}
                data-status-filter={s}
              />
            ))}
            {(params.get('meses') || params.get('anio')) && (
              <Chip
                label={translate('accreditation.screens.periodFilter')}
                onDelete={() => {
                  const next = new URLSearchParams(params);
                  next.delete('meses');
                  next.delete('anio');
                  setParams(next, { replace: true });
                }}
              />
            )}
            <TextField
              size="small"
              sx={{ ml: 'auto', minWidth: 220 }}
              label={translate('accreditation.screens.searchPerson')}
              value={searchText}
              onChange={(event) => setSearchText(event.target.value)}
            />
          </Stack>
          <Grid
            label={translate('accreditation.requests')}
            columns={requestColumns}
            rows={requests.data?.data}
            total={requests.data?.totalCount}
            loading={requests.isFetching}
            state={requestGrid}
            onState={setRequestGrid}
            rowKey={(row) => row.IdSolicitud}
            onRowClick={open}
            empty={translate('accreditation.screens.noRequests')}
            testId="request-grid"
          />
        </CardContent>
      </Card>
      <Confirm
        isOpen={confirmDelete}
        title="accreditation.screens.deleteSelectedTitle"
        content="accreditation.screens.deleteSelectedConfirm"
        translateOptions={{ count: selected.length }}
        confirm="ra.action.delete"
        confirmColor="warning"
        onConfirm={removeSelected}
        onClose={() => setConfirmDelete(false)}
      />
    </Stack>
  );
}
