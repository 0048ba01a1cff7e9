import DownloadIcon from '@mui/icons-material/Download';
import { Button, Card, CardContent, CardHeader, Stack, TextField } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import type { EntityCode } from '../../../../shared/accreditation.js';
import { Grid, type GridColumn, gridParams, pageOf, useGridState } from '../../../components/grid/Grid.js';
import { saveWorkbook } from '../../../files.js';
import { useSettled } from '../../../useSettled.js';
import { accreditationApi, type CompanyRow, type Side } from '../api.js';

/**
 * The contractor companies with their pending, observed and total requests, 10 a page, filtered
 * by document and name: the screen holds them (its requests card names the chosen one), the card
 * shows them.
 */
export function useCompanies(side: Side, entity: EntityCode) {
  const [documentText, setDocumentText] = useState('');
  const [nameText, setNameText] = useState('');
  const documentFilter = useSettled(documentText, 350);
  const nameFilter = useSettled(nameText, 350);
  const [grid, setGrid] = useGridState(10);
  const companies = useQuery({
    queryKey: ['accreditation', 'companies', side, entity, grid, documentFilter, nameFilter],
    queryFn: () =>
      accreditationApi.companies(gridParams(grid), {
        IdEntidad: entity,
        Documento: documentFilter,
        CompaniaContratista: nameFilter,
      }),
    placeholderData: keepPreviousData,
  });
  return {
    companies,
    documentText,
    setDocumentText,
    nameText,
    setNameText,
    documentFilter,
    nameFilter,
    grid,
    setGrid,
  };
}

interface Props {
  /** The companies the screen holds (useCompanies). */
  held: ReturnType<typeof useCompanies>;
  /** The screen's title and the kind's name, for the exported workbook's title. */
  heading: string;
  company?: number;
  /** Chooses a company (or none again) for the requests below. */
  onChoose: (company: number | undefined) => void;
}

export function CompaniesCard({ held, heading, company, onChoose }: Props) {
  const translate = useTranslate();
  const notify = useNotify();
  const { companies, grid } = held;
  const exportCompanies = async () => {
    try {
      const file = await accreditationApi.exportCompanies({
        Documento: held.documentFilter || undefined,
        CompaniaContratista: held.nameFilter || undefined,
        Titulo: heading,
        NombreArchivo: translate('accreditation.screens.companiesFile'),
      });
      saveWorkbook(file);
    } catch {
      notify('app.export.failed', { type: 'info' });
    }
  };
  const columns: GridColumn<CompanyRow>[] = [
    { id: 'CompaniaContratista', label: translate('summary.columns.CompaniaContratista'), sortable: true },
    { id: 'Documento', label: translate('summary.columns.Documento'), sortable: true },
    { id: 'PENDIENTES', label: translate('summary.columns.PENDIENTES'), sortable: true, align: 'right' },
    { id: 'OBSERVADOS', label: translate('summary.columns.OBSERVADOS'), sortable: true, align: 'right' },
    { id: 'Total', label: translate('summary.columns.Total'), sortable: true, align: 'right' },
  ];
  return (
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
            value={held.documentText}
            onChange={(event) => held.setDocumentText(event.target.value)}
          />
          <TextField
            size="small"
            label={translate('summary.columns.CompaniaContratista')}
            value={held.nameText}
            onChange={(event) => held.setNameText(event.target.value)}
          />
        </Stack>
        <Grid
          label={translate('accreditation.screens.companies')}
          columns={columns}
          {...pageOf(companies)}
          state={grid}
          onState={held.setGrid}
          rowKey={(row) => row.IdCompaniaContratista}
          selectedKey={company}
          onRowClick={(row) =>
            onChoose(row.IdCompaniaContratista === company ? undefined : row.IdCompaniaContratista)
          }
          testId="company-grid"
        />
      </CardContent>
    </Card>
  );
}
