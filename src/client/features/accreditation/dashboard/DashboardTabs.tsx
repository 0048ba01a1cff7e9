import { Tab, Tabs } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { EntityCode } from '../../../../shared/accreditation.js';
import { areaPath } from '../after/api.js';
import { screenPath } from '../api.js';

/** A dashboard tab: the request type its cards count. */
export interface DashboardTab {
  key: string;
  type: 'M' | 'D' | 'A';
}

/** The list a dashboard's card leads to: a kind's requests for one side and entity. */
export const kindPath = (
  kind: DashboardTab['type'],
  side: 'solicitante' | 'autorizador',
  entity: EntityCode,
) => (kind === 'M' ? screenPath(side, entity) : areaPath(kind, side, entity));

/** The dashboards' tabs (spec section 2), one per request type; `disabled` says which the session may not see. */
export function DashboardTabs({
  tabs,
  tab,
  onChange,
  disabled,
}: {
  tabs: readonly DashboardTab[];
  tab: number;
  onChange: (tab: number) => void;
  disabled?: (tab: DashboardTab) => boolean;
}) {
  const translate = useTranslate();
  return (
    <Tabs
      value={tab}
      onChange={(_e, value) => onChange(value)}
      aria-label={translate('accreditation.dashboard.tabs')}
      variant="scrollable"
      scrollButtons="auto"
      allowScrollButtonsMobile
    >
      {tabs.map((t) => (
        <Tab key={t.key} label={translate(`accreditation.dashboard.tab.${t.key}`)} disabled={disabled?.(t)} />
      ))}
    </Tabs>
  );
}
