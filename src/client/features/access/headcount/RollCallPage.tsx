import PrintIcon from '@mui/icons-material/Print';
import { Button } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useCanAccess, useTranslate } from 'react-admin';
import type { RollCallRow } from '../../../../shared/access.js';
import { formatDateTime, formatStay } from '../../../format.js';
import { useConsoleTitle } from '../../../resources/ScreenTitle.js';
import { WorkbookButton } from '../../../resources/WorkbookButton.js';
import { apiCall, apiFetch } from '../../../session/http.js';
import { ReportChoice, ReportPage } from '../ReportPage.js';
import { AwayCard } from './AwayCard.js';

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

/**
 * The evacuation roll call for the security office: everyone inside now, in a zone (and the zones
 * inside it) or the whole division, refreshed every 10 seconds as markings arrive; printable and
 * exported to Excel.
 */
export default function RollCallPage() {
  const translate = useTranslate();
  useConsoleTitle(translate('headcount.rollCall'));
  const [zone, setZone] = useState<number | ''>('');
  // A contractor's requester sees its own people inside, in the whole division: it may not list zones.
  const { canAccess: mayListZones } = useCanAccess({ resource: 'zone', action: 'list' });
  const zones = useQuery({
    queryKey: ['roll-call-zones'],
    enabled: mayListZones === true,
    queryFn: async () => {
      const response = await apiFetch('/api/rest/zone?range=[0,199]&sort=["Descripcion","ASC"]');
      return response.ok ? ((await response.json()) as ZoneRow[]) : [];
    },
  });
  const query = zone === '' ? '' : `?IdZona=${zone}`;
  const rows = useQuery({
    queryKey: ['roll-call', zone],
    queryFn: () => apiCall<RollCallRow[]>('GET', `/api/acceso/evacuacion${query}`),
    refetchInterval: REFRESH_MS,
  });
  const cell = (row: RollCallRow, column: (typeof COLUMNS)[number]) => {
    if (column === 'FechaMarca') return formatDateTime(row.FechaMarca);
    if (column === 'Permanencia') return formatStay(row.Permanencia);
    return row[column] ?? '';
  };
  return (
    <>
      <ReportPage
        testId="roll-call"
        title={`${translate('headcount.rollCall')}: ${rows.data?.length ?? 0}`}
        controls={
          <>
            <ReportChoice
              id="roll-call-zone"
              label={translate('headcount.columns.Zona')}
              all={translate('headcount.allZones')}
              value={zone}
              options={(zones.data ?? []).map((z) => ({ value: z.IdZona, label: z.Descripcion }))}
              onChange={setZone}
              minWidth={240}
            />
            <Button startIcon={<PrintIcon />} onClick={() => window.print()}>
              {translate('headcount.print')}
            </Button>
            <WorkbookButton url={`/api/acceso/evacuacion${query ? `${query}&` : '?'}formato=xlsx`} />
          </>
        }
        rows={rows}
        columns={COLUMNS}
        heading={(c) => translate(`headcount.columns.${c}`)}
        cell={cell}
        rowKey={(row) => `${row.IdPersona ?? ''}-${row.IdVehiculo ?? ''}`}
        empty={translate('headcount.empty')}
        label={translate('headcount.rollCall')}
      />
      <AwayCard refreshMs={REFRESH_MS} />
    </>
  );
}
