import AddIcon from '@mui/icons-material/Add';
import { Alert, Button, Card, Stack, TextField, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { useTranslate } from 'react-admin';
import type { ReservationState } from '../../../shared/hotel.js';
import { Pick } from '../../components/fields.js';
import {
  Grid,
  type GridColumn,
  gridParams,
  pageOf,
  personColumn,
  useGridState,
} from '../../components/grid/Grid.js';
import { Refusal } from '../../components/Refusal.js';
import { ScreenHeader } from '../../components/ScreenHeader.js';
import { formatDate } from '../../format.js';
import { type CampChoices, hotelApi, type ReservationRow } from './api.js';
import { campOptions, StateChip } from './fields.js';
import { HotelScreen } from './HotelScreen.js';
import { ReservationDialog } from './ReservationDialog.js';
import { type StayAction, StayDialog, stayActions } from './StayDialog.js';

const STATES: ReservationState[] = ['R', 'I', 'S', 'L', 'A', 'M'];

function Reservations({ choices, title }: { choices: CampChoices; title: string }) {
  const translate = useTranslate();
  const field = (name: string) => translate(`resources.reservation.fields.${name}`);
  const [text, setText] = useState('');
  const search = useDeferredValue(text.trim());
  const [state, setState] = useState<ReservationState | ''>('');
  const [camp, setCamp] = useState<number | ''>('');
  const [grid, setGrid] = useGridState(20);
  const [creating, setCreating] = useState(false);
  const [open, setOpen] = useState<{ row: ReservationRow; action: StayAction }>();
  const [notice, setNotice] = useState<string>();
  const rows = useQuery({
    queryKey: ['hotel-reservations', search, state, camp, grid],
    queryFn: () =>
      hotelApi.reservations({
        ...gridParams(grid),
        buscar: search || undefined,
        Estado: state || undefined,
        IdCampamento: camp || undefined,
      }),
    placeholderData: keepPreviousData,
  });
  const firstPage = () => setGrid((before) => ({ ...before, page: 0 }));
  const columns: GridColumn<ReservationRow>[] = [
    personColumn(field('IdPersona')),
    { id: 'Compania', label: field('IdCompania') },
    {
      id: 'Cama',
      label: field('IdCama'),
      render: (row) => (
        <span style={{ whiteSpace: 'nowrap' }}>
          {row.Cama}
          {choices.campamentos.length > 1 && (
            <Typography component="span" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
              {row.Campamento}
            </Typography>
          )}
        </span>
      ),
    },
    { id: 'FechaInicio', label: field('FechaInicio'), render: (row) => formatDate(row.FechaInicio) },
    { id: 'FechaFin', label: field('FechaFin'), render: (row) => formatDate(row.FechaFin) },
    { id: 'Turno', label: field('Turno'), render: (row) => translate(`enums.lodgingTurn.${row.Turno}`) },
    { id: 'Estado', label: field('Estado'), render: (row) => <StateChip state={row.Estado} /> },
    {
      id: 'Origen',
      label: field('Origen'),
      render: (row) => translate(`enums.reservationOrigin.${row.Origen}`),
    },
    {
      id: 'acciones',
      label: translate('hotel.screens.reservations.actions'),
      render: (row) => (
        <Stack direction="row" spacing={0.5} flexWrap="wrap" useFlexGap data-reservation={row.IdReserva}>
          {stayActions(row.Estado, choices.administrador).map((action) => (
            <Button
              key={action}
              size="small"
              color={action === 'cancel' ? 'error' : 'primary'}
              onClick={(event) => {
                event.stopPropagation();
                setNotice(undefined);
                setOpen({ row, action });
              }}
              data-action={action}
            >
              {translate(`hotel.screens.stay.actions.${action}`)}
            </Button>
          ))}
        </Stack>
      ),
    },
  ];
  return (
    <>
      <ScreenHeader title={title}>
        <TextField
          size="small"
          id="reservations-search"
          label={translate('hotel.screens.reservations.search')}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            firstPage();
          }}
          sx={{ width: { xs: '100%', sm: 300 } }}
        />
        {choices.campamentos.length > 1 && (
          <Pick
            id="reservations-camp"
            label={field('IdCampamento')}
            value={camp}
            options={campOptions(choices.campamentos)}
            onChange={(v) => {
              setCamp(v);
              firstPage();
            }}
            none={translate('hotel.screens.all')}
          />
        )}
        <Pick
          id="reservations-state"
          label={field('Estado')}
          value={state}
          options={STATES.map((s) => ({ value: s, label: translate(`enums.reservationState.${s}`) }))}
          onChange={(v) => {
            setState(v);
            firstPage();
          }}
          none={translate('hotel.screens.all')}
          width={180}
        />
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          onClick={() => {
            setNotice(undefined);
            setCreating(true);
          }}
          data-testid="reservation-new"
        >
          {translate('hotel.screens.reservation.title')}
        </Button>
      </ScreenHeader>
      <Card>
        {notice && (
          <Alert severity="success" sx={{ m: 2 }} data-testid="reservations-notice">
            {notice}
          </Alert>
        )}
        <Refusal error={rows.error} sx={{ m: 2 }} />
        <Grid
          label={title}
          columns={columns}
          {...pageOf(rows)}
          state={grid}
          onState={setGrid}
          rowKey={(row) => row.IdReserva}
          empty={translate('hotel.screens.reservations.empty')}
          pageSizes={[10, 20, 50, 100]}
          testId="reservations-grid"
        />
      </Card>
      {creating && (
        <ReservationDialog
          choices={choices}
          onClose={() => setCreating(false)}
          onDone={(message) => {
            setCreating(false);
            setNotice(message);
          }}
        />
      )}
      {open && (
        <StayDialog
          stay={open.row}
          administrator={choices.administrador}
          initial={open.action}
          onClose={() => setOpen(undefined)}
          onDone={(message) => {
            setOpen(undefined);
            setNotice(message);
          }}
        />
      )}
    </>
  );
}

/**
 * The reservations of the session's camps (a requester's: its company's people's), found by name,
 * document or bed and by state; a new one; and for the hotel administrator each one's check-in,
 * check-out, move and cancellation (a requester cancels only).
 */
export default function ReservationsScreen() {
  const translate = useTranslate();
  const title = translate('app.menu.items.reservations');
  return (
    <HotelScreen title={title} testId="hotel-reservations">
      {(choices) => <Reservations choices={choices} title={title} />}
    </HotelScreen>
  );
}
