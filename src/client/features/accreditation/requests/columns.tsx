import { Button, Checkbox } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { GridColumn } from '../../../components/grid/Grid.js';
import { formatDate, formatDateTime } from '../../../format.js';
import type { RequestRow, Side } from '../api.js';
import { StatusChip } from '../status.js';

interface Selection {
  selected: number[];
  onSelect: (update: (list: number[]) => number[]) => void;
}

/**
 * The requests grid's columns: the number, the requester's selection of its incomplete requests
 * (for a bulk delete, spec section 4), the holder, the company (the authoriser's), the dates, the
 * profile, the status and the button that opens it.
 */
export function useRequestColumns(
  side: Side,
  { selected, onSelect }: Selection,
  open: (row: RequestRow) => void,
): GridColumn<RequestRow>[] {
  const translate = useTranslate();
  const select: GridColumn<RequestRow> = {
    id: 'select',
    label: translate('accreditation.columns.select'),
    render: (row) =>
      row.EstadoAprobacion === 'I' ? (
        <Checkbox
          size="small"
          checked={selected.includes(row.IdSolicitud)}
          onClick={(event) => event.stopPropagation()}
          onChange={(event) =>
            onSelect((list) =>
              event.target.checked ? [...list, row.IdSolicitud] : list.filter((id) => id !== row.IdSolicitud),
            )
          }
          slotProps={{
            input: {
              'aria-label': translate('accreditation.screens.selectRequest', { number: row.NumeroSolicitud }),
            },
          }}
        />
      ) : null,
  };
  const opens = (row: RequestRow) =>
    side === 'autorizador' && row.EstadoAprobacion === 'P'
      ? 'accreditation.actions.evaluate'
      : side === 'solicitante' && (row.EstadoAprobacion === 'I' || row.EstadoAprobacion === 'O')
        ? 'ra.action.edit'
        : 'accreditation.actions.open';
  return [
    {
      id: 'IdSolicitud',
      label: translate('accreditation.columns.NumeroSolicitud'),
      sortable: true,
      render: (row) => <span className="request-number">{row.NumeroSolicitud}</span>,
    },
    // After the number, which a phone's card shows as its title.
    ...(side === 'solicitante' ? [select] : []),
    { id: 'Nombres', label: translate('accreditation.columns.Nombres'), sortable: true },
    { id: 'Documento', label: translate('accreditation.columns.Documento') },
    ...(side === 'autorizador'
      ? [{ id: 'CompaniaContratista', label: translate('accreditation.columns.CompaniaContratista') }]
      : []),
    {
      id: 'FechaInicio',
      label: translate('accreditation.columns.FechaInicio'),
      sortable: true,
      render: (row) => formatDate(row.FechaInicio),
    },
    {
      id: 'FechaFin',
      label: translate('accreditation.columns.FechaFin'),
      sortable: true,
      render: (row) => formatDate(row.FechaFin),
    },
    {
      id: 'FechaSolicitud',
      label: translate('accreditation.columns.FechaSolicitud'),
      sortable: true,
      render: (row) => formatDateTime(row.FechaSolicitud),
    },
    { id: 'DescripcionPerfil', label: translate('accreditation.columns.DescripcionPerfil') },
    {
      id: 'EstadoAprobacion',
      label: translate('accreditation.columns.EstadoAprobacion'),
      sortable: true,
      render: (row) => <StatusChip status={row.EstadoAprobacion} />,
    },
    {
      id: 'open',
      label: translate('accreditation.columns.action'),
      render: (row) => (
        <Button
          size="small"
          variant="outlined"
          onClick={(event) => {
            event.stopPropagation();
            open(row);
          }}
          data-open-request={row.IdSolicitud}
        >
          {translate(opens(row))}
        </Button>
      ),
    },
  ];
}
