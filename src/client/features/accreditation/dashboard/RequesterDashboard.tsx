import SearchIcon from '@mui/icons-material/Search';
import {
  Alert,
  Box,
  Button,
  Card,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormGroup,
  InputLabel,
  LinearProgress,
  MenuItem,
  Select,
  Stack,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocale, useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { ENTITY_CODES, type EntityCode, typeConcerns } from '../../../../shared/accreditation.js';
import { DASHBOARD } from '../../../../shared/constants.js';
import { useSlot } from '../../../providers/extensions.js';
import { useConsoleTitle } from '../../../resources/ScreenTitle.js';
import { afterApi } from '../after/api.js';
import { accreditationApi, overdueOf, rowsOf } from '../api.js';
import { DashboardTabs, kindPath } from './DashboardTabs.js';
import { CardButton, StatusCard } from './StatusCard.js';

/** The months a requester's dashboard counts at first: this one and the ones before it, this year. */
export function defaultMonths(today: Date, count: number = DASHBOARD.defaultMonths): number[] {
  const month = today.getMonth() + 1;
  return Array.from({ length: count }, (_, i) => month - count + 1 + i).filter((m) => m >= 1);
}

/** The dashboard tabs of spec section 2, by the route-state flag that opens each. */
const TABS = [
  { key: 'mobilisation', flag: 'VIEWACREDITACION', type: 'M' as const },
  { key: 'demobilisation', flag: 'VIEWDESAFILIACION', type: 'D' as const },
  { key: 'renewal', flag: 'VIEWREQUISITOS', type: 'A' as const },
  // The headcount tab uses the mobilisation permission (spec section 2).
  { key: 'headcount', flag: 'VIEWDOTACION', type: 'M' as const },
];

/**
 * The requester's dashboard (spec section 2): a tab per request type it may see (the view
 * permissions), a year and month filter, and a card per kind with its requests by status, each
 * status leading to the requests it counts.
 */
export default function RequesterDashboard() {
  const translate = useTranslate();
  const Headcount = useSlot('requesterHeadcount');
  useConsoleTitle(translate('app.menu.home'));
  const locale = useLocale();
  const state = (useLocation().state ?? {}) as Record<string, string>;
  const today = new Date();
  const [year, setYear] = useState(today.getFullYear());
  const [months, setMonths] = useState(() => defaultMonths(today));
  const [asked, setAsked] = useState({ year, months });
  const permissions = useQuery({ queryKey: ['view-permissions'], queryFn: accreditationApi.viewPermissions });
  const visible = (type: string): EntityCode[] =>
    ENTITY_CODES.filter((e) =>
      (permissions.data ?? []).some((p) => p.Tipo === type && p.IdEntidad === e && p.Ver === 'S'),
    );
  const opened = Math.max(
    0,
    TABS.findIndex((tab) => state[tab.flag] === 'Y'),
  );
  const [tab, setTab] = useState(opened);
  const kind = TABS[tab].type;
  const counts = useQuery({
    queryKey: ['dashboard', 'requester', kind, asked.year, asked.months.join(','), locale],
    queryFn: () =>
      kind === 'M'
        ? accreditationApi.requesterDashboard(asked.year, asked.months)
        : afterApi.requesterDashboard(kind, asked.year, asked.months),
    enabled: asked.months.length > 0,
  });
  const monthName = (m: number) =>
    new Date(2000, m - 1, 1).toLocaleDateString(locale === 'en' ? 'en-GB' : 'es-PE', { month: 'short' });
  const years = Array.from({ length: 5 }, (_, i) => today.getFullYear() - i);
  // Demobilisation and requirement update are for workers and vehicles (spec section 2).
  const shown = visible(kind).filter((e) => typeConcerns(kind, e));
  const link = (entity: EntityCode, status?: string) => {
    const search = new URLSearchParams({ anio: String(asked.year), meses: asked.months.join(',') });
    if (status) search.set('estado', status);
    return `${kindPath(kind, 'solicitante', entity)}?${search}`;
  };
  // A lapsed correction of another month is flagged too: its list looks back as far as the filter goes.
  const overdueLink = (entity: EntityCode) =>
    `${kindPath(kind, 'solicitante', entity)}?estado=O&meses=${DASHBOARD.maxMonths}`;
  return (
    <Stack spacing={2} sx={{ mt: 1 }} data-testid="requester-dashboard">
      <Card>
        <DashboardTabs tabs={TABS} tab={tab} onChange={setTab} disabled={(t) => !visible(t.type).length} />
        <Box
          component="form"
          sx={{ p: 2, display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}
          onSubmit={(event) => {
            event.preventDefault();
            setAsked({ year, months: [...months].sort((a, b) => a - b) });
          }}
          aria-label={translate('accreditation.dashboard.filter')}
        >
          <FormControl size="small" sx={{ minWidth: 110 }}>
            <InputLabel id="dashboard-year">{translate('accreditation.dashboard.year')}</InputLabel>
            <Select
              labelId="dashboard-year"
              label={translate('accreditation.dashboard.year')}
              value={year}
              onChange={(event) => setYear(Number(event.target.value))}
            >
              {years.map((y) => (
                <MenuItem key={y} value={y}>
                  {y}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          <FormGroup row aria-label={translate('accreditation.dashboard.months')} sx={{ flex: '1 1 420px' }}>
            {Array.from({ length: 12 }, (_, i) => i + 1).map((m) => (
              <FormControlLabel
                key={m}
                sx={{ mr: 1 }}
                control={
                  <Checkbox
                    size="small"
                    checked={months.includes(m)}
                    onChange={(event) =>
                      setMonths((list) => (event.target.checked ? [...list, m] : list.filter((x) => x !== m)))
                    }
                  />
                }
                label={monthName(m)}
              />
            ))}
          </FormGroup>
          <Button type="submit" variant="contained" startIcon={<SearchIcon />} disabled={!months.length}>
            {translate('accreditation.dashboard.search')}
          </Button>
        </Box>
        {(counts.isFetching || permissions.isPending) && (
          <LinearProgress aria-label={translate('ra.page.loading')} />
        )}
      </Card>
      {permissions.isSuccess && !shown.length && (
        <Alert severity="info">{translate('accreditation.dashboard.nothingToSee')}</Alert>
      )}
      {TABS[tab].key === 'headcount' && shown.length > 0 && Headcount && (
        <Headcount kinds={shown.filter((e) => e !== 'E')} period={asked} />
      )}
      <Stack direction="row" useFlexGap flexWrap="wrap" spacing={2}>
        {TABS[tab].key !== 'headcount' &&
          shown.map((entity) => (
            <StatusCard
              key={entity}
              entity={entity}
              rows={rowsOf(counts.data, entity)}
              overdue={{
                ...overdueOf(counts.data, entity),
                to: link(entity, 'O'),
                otherTo: overdueLink(entity),
              }}
              rowLink={(row) => link(entity, row.ESTADO)}
              action={<CardButton to={link(entity)} label={translate('accreditation.dashboard.open')} />}
            />
          ))}
      </Stack>
    </Stack>
  );
}
