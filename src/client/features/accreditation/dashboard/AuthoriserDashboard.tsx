import {
  Card,
  CardContent,
  FormControl,
  InputLabel,
  LinearProgress,
  MenuItem,
  Select,
  Stack,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocale, useTranslate } from 'react-admin';
import { ENTITY_CODES } from '../../../../shared/accreditation.js';
import { DASHBOARD } from '../../../../shared/constants.js';
import { useConsoleTitle } from '../../../resources/ScreenTitle.js';
import { afterApi } from '../after/api.js';
import { accreditationApi, overdueOf, rowsOf } from '../api.js';
import { DashboardTabs, kindPath } from './DashboardTabs.js';
import { CardButton, StatusCard } from './StatusCard.js';

/** The authoriser's tabs (spec section 2): mobilisation, demobilisation, requirement update. */
const TABS = [
  { key: 'mobilisation', type: 'M' as const },
  { key: 'demobilisation', type: 'D' as const },
  { key: 'renewal', type: 'A' as const },
];

/**
 * The authoriser's dashboard (spec section 2): a card per kind it approves with its requests by
 * status over the last months, and an Evaluate button leading to its approvals.
 */
export default function AuthoriserDashboard() {
  const translate = useTranslate();
  useConsoleTitle(translate('app.menu.home'));
  const locale = useLocale();
  const [months, setMonths] = useState<number>(DASHBOARD.defaultMonths);
  const [tab, setTab] = useState(0);
  const kind = TABS[tab].type;
  const counts = useQuery({
    queryKey: ['dashboard', 'authoriser', kind, months, locale],
    queryFn: () =>
      kind === 'M'
        ? accreditationApi.authoriserDashboard(months)
        : afterApi.authoriserDashboard(kind, months),
  });
  const link = (entity: (typeof ENTITY_CODES)[number], status?: string) =>
    `${kindPath(kind, 'autorizador', entity)}?${new URLSearchParams({ meses: String(months), ...(status ? { estado: status } : {}) })}`;
  return (
    <Stack spacing={2} sx={{ mt: 1 }} data-testid="authoriser-dashboard">
      <Card>
        <DashboardTabs tabs={TABS} tab={tab} onChange={setTab} />
        <CardContent>
          <FormControl size="small" sx={{ minWidth: 200 }}>
            <InputLabel id="dashboard-months">{translate('accreditation.dashboard.lastMonths')}</InputLabel>
            <Select
              labelId="dashboard-months"
              label={translate('accreditation.dashboard.lastMonths')}
              value={months}
              onChange={(event) => setMonths(Number(event.target.value))}
            >
              {DASHBOARD.monthChoices.map((m) => (
                <MenuItem key={m} value={m}>
                  {translate('accreditation.dashboard.monthsCount', { smart_count: m })}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
        </CardContent>
        {counts.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
      </Card>
      <Stack direction="row" useFlexGap flexWrap="wrap" spacing={2}>
        {ENTITY_CODES.filter((e) => rowsOf(counts.data, e).length > 0).map((entity) => (
          <StatusCard
            key={entity}
            entity={entity}
            rows={rowsOf(counts.data, entity)}
            overdue={{
              ...overdueOf(counts.data, entity),
              to: link(entity, 'O'),
              otherTo: `${kindPath(kind, 'autorizador', entity)}?estado=O&meses=${DASHBOARD.maxMonths}`,
            }}
            rowLink={(row) => link(entity, row.ESTADO)}
            action={
              <CardButton to={link(entity, 'P')} label={translate('accreditation.dashboard.evaluate')} />
            }
          />
        ))}
      </Stack>
    </Stack>
  );
}
