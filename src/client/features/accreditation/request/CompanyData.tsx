import { Alert, Table, TableBody, TableCell, TableRow } from '@mui/material';
import { useTranslate } from 'react-admin';
import { COMPANY_FIELDS } from '../../../../shared/accreditation.js';
import { session } from '../../../session/store.js';

type Data = Record<string, unknown>;

/**
 * A company's own request: the contractor's data, as its administration keeps them (the request
 * asks its requirements, not new data). A new request shows the session's company.
 */
export function CompanyData({ record }: { record?: Data }) {
  const translate = useTranslate();
  const current = session.profile()?.current;
  const values: Data = record ?? { Compania: current?.Compania };
  const shown = COMPANY_FIELDS.filter((field) => values[field] !== undefined && values[field] !== null);
  return (
    <>
      <Alert severity="info" sx={{ mb: 2 }}>
        {translate('accreditation.form.companyData')}
      </Alert>
      <Table
        size="small"
        aria-label={translate('accreditation.form.step.personal_E')}
        data-testid="company-data"
      >
        <TableBody>
          {shown.map((field) => (
            <TableRow key={field}>
              <TableCell component="th" scope="row" sx={{ fontWeight: 500, width: '40%' }}>
                {translate(`resources.company.fields.${field}`)}
              </TableCell>
              <TableCell>{String(values[field])}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </>
  );
}
