import { Button, Checkbox, Chip, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { HolderKind, HolderRow } from '../../../shared/identification.js';
import type { GridColumn } from '../../components/grid/Grid.js';
import { formatDate } from '../../format.js';
import type { CredentialAction } from './CredentialDialog.js';

/**
 * The holders grid's columns: names, document (or plate), company, the accreditation's end, the
 * active credential with its choice for printing, whether it was printed, and the actions.
 */
export function useHolderColumns(
  kind: HolderKind,
  chosen: ReadonlySet<number>,
  toggle: (row: HolderRow) => void,
  onAction: (row: HolderRow, action: CredentialAction) => void,
): GridColumn<HolderRow>[] {
  const translate = useTranslate();
  /** A column's heading: a vehicle's plate, description and card where a person's document, names and badge are. */
  const heading = (column: string) =>
    translate(
      kind === 'V' && (column === 'Nombres' || column === 'Documento' || column === 'Impreso')
        ? `identification.screen.vehicleColumns.${column}`
        : `identification.screen.columns.${column}`,
    );
  const action = (row: HolderRow, kind: CredentialAction) => (
    <Button
      size="small"
      color={kind === 'inactivate' ? 'error' : 'primary'}
      onClick={(event) => {
        event.stopPropagation();
        onAction(row, kind);
      }}
      data-action={kind}
    >
      {translate(`identification.screen.${kind}`)}
    </Button>
  );
  return [
    { id: 'Nombres', label: heading('Nombres') },
    {
      id: 'Documento',
      label: heading('Documento'),
      // A document or a plate reads whole, never broken at its hyphen.
      render: (row) => <span style={{ whiteSpace: 'nowrap' }}>{row.Documento}</span>,
    },
    { id: 'Compania', label: heading('Compania') },
    {
      id: 'AcreditacionFin',
      label: heading('AcreditacionFin'),
      render: (row) => formatDate(row.AcreditacionFin),
    },
    {
      id: 'Numero',
      label: heading('Numero'),
      render: (row) =>
        row.IdCredencial ? (
          <Stack direction="row" spacing={1} alignItems="center">
            <Checkbox
              size="small"
              checked={chosen.has(row.IdCredencial)}
              onChange={() => toggle(row)}
              onClick={(event) => event.stopPropagation()}
              slotProps={{
                input: { 'aria-label': translate('identification.screen.choose', { name: row.Nombres }) },
              }}
            />
            <span>
              {row.Numero}
              <Typography component="span" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                {row.TipoCredencial} · {formatDate(row.FechaInicio)} – {formatDate(row.FechaFin)}
              </Typography>
            </span>
          </Stack>
        ) : (
          <Typography variant="body2" color="text.secondary">
            {translate('identification.screen.none')}
          </Typography>
        ),
    },
    {
      id: 'Impreso',
      label: heading('Impreso'),
      render: (row) =>
        row.IdCredencial ? (
          <Chip
            size="small"
            color={row.Impreso === 'S' ? 'success' : 'default'}
            label={translate(
              row.Impreso === 'S' ? 'identification.screen.printedYes' : 'identification.screen.printedNo',
            )}
          />
        ) : (
          ''
        ),
    },
    {
      id: 'acciones',
      label: heading('acciones'),
      render: (row) => (
        <Stack direction="row" spacing={0.5} flexWrap="wrap" useFlexGap data-holder={row.Titular}>
          {row.IdCredencial ? (
            <>
              {action(row, 'reissue')}
              {action(row, 'inactivate')}
            </>
          ) : (
            action(row, 'issue')
          )}
          {row.TipoTitular === 'P' && !row.Foto && (
            <Chip
              size="small"
              variant="outlined"
              color="warning"
              label={translate('identification.screen.noPhoto')}
            />
          )}
        </Stack>
      ),
    },
  ];
}
