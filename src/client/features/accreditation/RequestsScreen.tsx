import AddIcon from '@mui/icons-material/Add';
import HomeIcon from '@mui/icons-material/Home';
import RefreshIcon from '@mui/icons-material/Refresh';
import { Box, Button, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { Link, useLocation, useParams, useSearchParams } from 'react-router-dom';
import type { RequestStatus } from '../../../../workflows/request.machine.js';
import type { EntityCode } from '../../../shared/accreditation.js';
import { useGridState } from '../../components/grid/Grid.js';
import { useConsoleTitle } from '../../resources/ScreenTitle.js';
import { KIND_OF_SEGMENT, type Side, screenPath } from './api.js';
import { CompaniesCard, useCompanies } from './requests/CompaniesCard.js';
import { RequestsCard } from './requests/RequestsCard.js';

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
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const company = params.get('compania') ? Number(params.get('compania')) : undefined;
  const [requestGrid, setRequestGrid] = useGridState(10, { selector: 'FechaSolicitud', desc: true });
  const companies = useCompanies(side, entity);
  const kindName = translate(`accreditation.entities.${entity}`);
  const title = translate(
    side === 'solicitante' ? 'accreditation.screens.requests' : 'accreditation.screens.approvals',
  );
  useConsoleTitle(kindName, title);
  /** Sets (or removes) filters in the address; the requests start again at their first page. */
  const setFilters = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes))
      if (value === undefined) next.delete(name);
      else next.set(name, value);
    setParams(next, { replace: true });
    setRequestGrid((grid) => ({ ...grid, page: 0 }));
  };
  // With a year, `meses` lists months of it (the requester's dashboard); without, it counts months back.
  const filters = {
    status: params.get('estado') as RequestStatus | null,
    company,
    period: {
      CantYear: params.get('anio') ?? undefined,
      CantMonth: params.get('anio') ? (params.get('meses') ?? undefined) : undefined,
      CantMeses: params.get('anio') ? undefined : (params.get('meses') ?? undefined),
    },
    periodShown: Boolean(params.get('meses') || params.get('anio')),
  };
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
            state={{ from: `${location.pathname}${location.search}` }}
            data-testid="new-request"
          >
            {translate('accreditation.actions.newRequest')}
          </Button>
        )}
        <Button
          startIcon={<RefreshIcon />}
          onClick={() => client.invalidateQueries({ queryKey: ['accreditation'] })}
        >
          {translate('ra.action.refresh')}
        </Button>
        <Button startIcon={<HomeIcon />} component={Link} to="/dashboard">
          {translate('app.menu.home')}
        </Button>
      </Box>
      <CompaniesCard
        held={companies}
        heading={`${title} · ${kindName}`}
        company={company}
        onChoose={(chosen) => setFilters({ compania: chosen === undefined ? undefined : String(chosen) })}
      />
      <RequestsCard
        side={side}
        entity={entity}
        heading={`${title} · ${kindName}`}
        companyName={
          companies.companies.data?.data.find((c) => c.IdCompaniaContratista === company)?.CompaniaContratista
        }
        filters={filters}
        grid={requestGrid}
        onGrid={setRequestGrid}
        onFilter={setFilters}
      />
    </Stack>
  );
}
