import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import type { BlockedRow } from '../../../../shared/access.js';
import { formatDate } from '../../../format.js';
import { useConsoleTitle } from '../../../resources/ScreenTitle.js';
import { WorkbookButton } from '../../../resources/WorkbookButton.js';
import { apiCall } from '../../../session/http.js';
import { ReportChoice, ReportPage } from '../ReportPage.js';

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
          <ReportChoice
            id="requirement-report-kind"
            label={translate('requirementReport.kind')}
            all={translate('requirementReport.all')}
            value={kind}
            options={(['T', 'V'] as const).map((k) => ({
              value: k,
              label: translate(`accreditation.entities.${k}`),
            }))}
            onChange={setKind}
            minWidth={220}
          />
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
