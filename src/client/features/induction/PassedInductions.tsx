import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { Button, Chip, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useLocale, useTranslate } from 'react-admin';
import { type GridColumn, LocalGrid, personColumn } from '../../components/grid/Grid.js';
import { Refusal } from '../../components/Refusal.js';
import { saveBase64 } from '../../files.js';
import { formatDate } from '../../format.js';
import { inductionApi, inLanguage, type PassedInduction } from './api.js';

type Standing = 'valid' | 'expiring' | 'expired' | 'revoked';

const standingOf = (r: PassedInduction): Standing =>
  r.Estado === 'R' ? 'revoked' : !r.Vigente ? 'expired' : r.PorVencer ? 'expiring' : 'valid';

const COLOURS: Record<Standing, 'success' | 'warning' | 'default'> = {
  valid: 'success',
  expiring: 'warning',
  expired: 'default',
  revoked: 'default',
};

/** Whether a passed induction holds: valid, expiring within 30 days (highlighted), expired or revoked. */
function StandingChip({ record }: { record: PassedInduction }) {
  const translate = useTranslate();
  const standing = standingOf(record);
  return (
    <Chip
      size="small"
      color={COLOURS[standing]}
      variant={standing === 'revoked' ? 'outlined' : 'filled'}
      label={translate(`induction.screens.workers.standing.${standing}`)}
      data-standing={standing}
    />
  );
}

/** The workers' passed inductions, newest first, each with its valid-until and its certificate. */
export function PassedInductions({ rows }: { rows: PassedInduction[] | undefined }) {
  const translate = useTranslate();
  const locale = useLocale();
  const text = (key: string) => translate(`induction.screens.workers.${key}`);
  const certificate = useMutation({
    mutationFn: (id: number) => inductionApi.certificate(id),
    onSuccess: (file) => saveBase64(file.fileBase64, file.fileName, file.fileType ?? 'application/pdf'),
  });
  const columns: GridColumn<PassedInduction>[] = [
    personColumn(text('person')),
    { id: 'Curso', label: text('course'), render: (row) => inLanguage(locale, row.Curso, row.CursoIngles) },
    { id: 'Fecha', label: text('passedOn'), render: (row) => formatDate(row.Fecha) },
    { id: 'Nota', label: text('score'), align: 'right' },
    {
      id: 'VenceEl',
      label: text('validUntil'),
      render: (row) => (
        <Typography
          component="span"
          variant="body2"
          color={row.PorVencer ? 'warning.dark' : undefined}
          sx={{ fontWeight: row.PorVencer ? 700 : undefined, whiteSpace: 'nowrap' }}
        >
          {formatDate(row.VenceEl)}
        </Typography>
      ),
    },
    { id: 'Estado', label: text('state'), render: (row) => <StandingChip record={row} /> },
    {
      id: 'actions',
      label: '',
      align: 'right',
      render: (row) => (
        <Button
          size="small"
          startIcon={<PictureAsPdfIcon />}
          disabled={certificate.isPending && certificate.variables === row.IdRegistro}
          onClick={() => certificate.mutate(row.IdRegistro)}
          data-testid={`certificate-${row.IdRegistro}`}
        >
          {text('certificate')}
        </Button>
      ),
    },
  ];
  return (
    <>
      <Refusal error={certificate.error} testId="certificate-refusal" />
      <LocalGrid
        label={text('passed')}
        columns={columns}
        rows={rows}
        rowKey={(row) => row.IdRegistro}
        empty={text('noRecords')}
        testId="passed-inductions"
      />
    </>
  );
}
