import { FormControl, InputLabel, MenuItem, Select } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import type { BlockedRow } from '../../../../shared/access.js';
import { formatDate } from '../../../format.js';
import { useConsoleTitle } from '../../../resources/ScreenTitle.js';
import { WorkbookButton } from '../../../resources/WorkbookButton.js';
import { apiCall } from '../../../session/http.js';
import { ReportPage } from '../ReportPage.js';

const COLUMNS = [
  'Documento',
  'NombreCompleto',
  'Compania',
  'NumeroContrato',
  'Requisito',
  'FechaVencimiento',
  'DiasVencido',
  'Estado',
] as const;

/**
 * The requirement report (spec section 2, Access): who the gate turns away for an expired
 * mandatory requirement and which one, longest expired first; workers, vehicles or both; exported
 * to Excel. A contractor sees its company's, the security office the division's.
 */
export default function RequirementReportPage() {
  const translate = useTranslate();
  useConsoleTitle(translate('requirementReport.title'));
  const [kind, setKind] = useState<'' | 'T' | 'V'>('');
  const query = kind ? `?IdEntidad=${kind}` : '';
  const rows = useQuery({
    queryKey: ['requirement-report', kind],
    queryFn: () => apiCall<BlockedRow[]>('GET', `/api/acceso/requisitosvencidos${query}`),
  });
  const cell = (row: BlockedRow, column: (typeof COLUMNS)[number]) => {
    if (column === 'Documento') return row.Documento ?? row.Placa ?? '';
    if (column === 'NombreCompleto') return row.NombreCompleto ?? '';
    if (column === 'FechaVencimiento') return formatDate(row.FechaVencimiento);
    if (column === 'Estado') return translate(`enums.accreditationState.${row.Estado}`);
    return row[column] ?? '';
  };
  return (
    <ReportPage
      testId="requirement-report"
      title={translate('requirementReport.count', { count: rows.data?.length ?? 0 })}
      controls={
        <>
          <FormControl size="small" sx={{ minWidth: 220 }}>
            <InputLabel id="requirement-report-kind" shrink>
              {translate('requirementReport.kind')}
            </InputLabel>
            <Select
              displayEmpty
              labelId="requirement-report-kind"
              label={translate('requirementReport.kind')}
              value={kind}
              onChange={(event) => setKind(event.target.value as '' | 'T' | 'V')}
            >
              <MenuItem value="">{translate('requirementReport.all')}</MenuItem>
              <MenuItem value="T">{translate('accreditation.entities.T')}</MenuItem>
              <MenuItem value="V">{translate('accreditation.entities.V')}</MenuItem>
            </Select>
          </FormControl>
          <WorkbookButton url={`/api/acceso/requisitosvencidos${query ? `${query}&` : '?'}formato=xlsx`} />
        </>
      }
      rows={rows}
      columns={COLUMNS}
      heading={(c) => translate(`requirementReport.columns.${c}`)}
      cell={cell}
      rowKey={(row) => `${row.IdAcreditacion}-${row.Requisito}`}
      rowProps={(row) => ({ 'data-accreditation': row.IdAcreditacion })}
      empty={translate('requirementReport.empty')}
      label={translate('requirementReport.title')}
    />
  );
}
