import DownloadIcon from '@mui/icons-material/Download';
import { Button, Card, CardContent, CardHeader, Chip, Stack, TextField } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type Dispatch, type SetStateAction, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import type { RequestStatus } from '../../../../../workflows/request.machine.js';
import type { EntityCode } from '../../../../shared/accreditation.js';
import { Grid, type GridState, gridParams, pageOf } from '../../../components/grid/Grid.js';
import { saveWorkbook } from '../../../files.js';
import { useSettled } from '../../../useSettled.js';
import { accreditationApi, type RequestRow, type Side, screenPath } from '../api.js';
import { useRequestColumns } from './columns.js';
import { DeleteSelected } from './DeleteSelected.js';

const STATUSES: RequestStatus[] = ['I', 'P', 'O', 'R', 'A'];

export interface RequestFilters {
  status: RequestStatus | null;
  company?: number;
  /** The dashboard's period: months of a year, or months back. */
  period: { CantYear?: string; CantMonth?: string; CantMeses?: string };
  /** Whether a period filters the list (shown as a chip that removes it). */
  periodShown: boolean;
}

interface Props {
  side: Side;
  entity: EntityCode;
  heading: string;
  companyName?: string;
  filters: RequestFilters;
  grid: GridState;
  onGrid: Dispatch<SetStateAction<GridState>>;
  /** Sets (or removes) one of the screen's filters in its address: estado, meses, anio. */
  onFilter: (changes: Record<string, string | undefined>) => void;
}

/**
 * The requests of the chosen company (or all): filtered by status as the dashboard's row said,
 * by the dashboard's period and by a person's name or document; exported; the requester's
 * incomplete ones deleted together; each opened to be edited or evaluated.
 */
export function RequestsCard({ side, entity, heading, companyName, filters, grid, onGrid, onFilter }: Props) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [searchText, setSearchText] = useState('');
  const search = useSettled(searchText, 350);
  const { status, company, period } = filters;
  // Digits look for a document or plate; anything else for a name.
  const filter = search
    ? JSON.stringify([
        /^[\d.-]+$/.test(search) ? 'Documento' : 'Nombres',
        'contains',
        search.replace(/[.-]/g, ''),
      ])
    : undefined;
  const requests = useQuery({
    queryKey: ['accreditation', 'requests', side, entity, grid, status, company, period, filter],
    queryFn: () =>
      accreditationApi.requests(gridParams(grid), {
        IdEntidad: entity,
        EstadoAprobacion: status ?? undefined,
        IdCompaniaContratista: company,
        ...period,
        filter,
      }),
    placeholderData: keepPreviousData,
  });
  const location = useLocation();
  // The request goes back to this list, its filters and all.
  const open = (row: RequestRow) =>
    navigate(screenPath(side, entity, row.IdSolicitud), {
      state: { from: `${location.pathname}${location.search}` },
    });
  const [selected, setSelected] = useState<number[]>([]);
  const columns = useRequestColumns(side, { selected, onSelect: setSelected }, open);
  const exportRequests = useExport(() => ({
    IdEntidad: entity,
    EstadoAprobacion: status ?? undefined,
    IdCompaniaContratista: company,
    Titulo: heading,
  }));
  return (
    <Card>
      <CardHeader
        title={translate('accreditation.requests')}
        subheader={companyName}
        slotProps={{ title: { component: 'h2', variant: 'h6' } }}
        action={
          <Stack direction="row" spacing={1}>
            {side === 'solicitante' && (
              <DeleteSelected
                selected={selected}
                onSelected={setSelected}
                remove={accreditationApi.removeMany}
                refresh={['accreditation']}
              />
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
            onClick={() => onFilter({ estado: undefined })}
          />
          {STATUSES.filter((s) => side === 'solicitante' || s !== 'I').map((s) => (
            <Chip
              key={s}
              label={translate(`enums.requestStatus.${s}`)}
              color={status === s ? 'primary' : 'default'}
              variant={status === s ? 'filled' : 'outlined'}
              onClick={() => onFilter({ estado: s })}
              data-status-filter={s}
            />
          ))}
          {filters.periodShown && (
            <Chip
              label={translate('accreditation.screens.periodFilter')}
              onDelete={() => onFilter({ meses: undefined, anio: undefined })}
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
          columns={columns}
          {...pageOf(requests)}
          state={grid}
          onState={onGrid}
          rowKey={(row) => row.IdSolicitud}
          onRowClick={open}
          empty={translate('accreditation.screens.noRequests')}
          testId="request-grid"
        />
      </CardContent>
    </Card>
  );
}

/** The list as a workbook, with the list's filters. */
function useExport(filters: () => Record<string, unknown>) {
  const translate = useTranslate();
  const notify = useNotify();
  return async () => {
    try {
      const file = await accreditationApi.exportRequests({
        ...filters(),
        NombreArchivo: translate('accreditation.requests'),
      });
      saveWorkbook(file);
    } catch {
      notify('app.export.failed', { type: 'info' });
    }
  };
}
