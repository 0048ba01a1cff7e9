import { Alert, Box, Card, LinearProgress, Menu, MenuItem, TextField } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { useTranslate } from 'react-admin';
import type { GridBed, GridStay } from '../../../shared/hotel.js';
import { DateInput, Pick } from '../../components/fields.js';
import { Pager } from '../../components/grid/Pager.js';
import { Refusal } from '../../components/Refusal.js';
import { ScreenHeader } from '../../components/ScreenHeader.js';
import { AvailabilityTable } from './AvailabilityTable.js';
import { type CampChoices, hotelApi } from './api.js';
import { staysByBed } from './BedPicker.js';
import { Legend } from './cells.js';
import { campOptions, siteToday } from './fields.js';
import { HotelScreen } from './HotelScreen.js';
import { ReservationDialog, type ReservationPrefill } from './ReservationDialog.js';
import { StayDialog, type StaySummary } from './StayDialog.js';

const SPANS = [7, 14, 31];

/** A stay of the grid as its dialog shows it. */
const summaryOf = (stay: GridStay, bed: GridBed): StaySummary => ({
  ...stay,
  IdCampamento: bed.IdCampamento,
  Cama: bed.Codigo,
});

function Availability({ choices, title }: { choices: CampChoices; title: string }) {
  const translate = useTranslate();
  const field = (name: string) => translate(`resources.reservation.fields.${name}`);
  const today = siteToday();
  const [camp, setCamp] = useState<number | ''>(
    choices.campamentos.length === 1 ? choices.campamentos[0].IdCampamento : '',
  );
  const [block, setBlock] = useState<number | ''>('');
  const [type, setType] = useState<number | ''>('');
  const [from, setFrom] = useState<string | undefined>(today);
  const [days, setDays] = useState<number>(14);
  const [text, setText] = useState('');
  const find = useDeferredValue(text.trim().toUpperCase());
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(60);
  const [reserving, setReserving] = useState<ReservationPrefill>();
  const [stay, setStay] = useState<StaySummary>();
  const [choosing, setChoosing] = useState<{ anchor: HTMLElement; stays: StaySummary[] }>();
  const [notice, setNotice] = useState<string>();
  const valid = Boolean(from && /^\d{4}-\d{2}-\d{2}$/.test(from));
  const grid = useQuery({
    queryKey: ['hotel-grid', camp, block, type, from, days],
    queryFn: () =>
      hotelApi.grid({
        desde: from as string,
        dias: days,
        IdCampamento: camp || undefined,
        IdModuloHotel: block || undefined,
        IdTipoHabitacion: type || undefined,
      }),
    enabled: valid,
    placeholderData: keepPreviousData,
  });
  const stays = useMemo(() => staysByBed(grid.data?.estadias ?? []), [grid.data]);
  // Found by bed code, or by the name or document of someone holding it in the range.
  const beds = useMemo(() => {
    const all = grid.data?.camas ?? [];
    if (!find) return all;
    return all.filter(
      (bed) =>
        bed.Codigo.toUpperCase().includes(find) ||
        (stays.get(bed.IdCama) ?? []).some(
          (s) => s.Persona.toUpperCase().includes(find) || s.Documento.toUpperCase().includes(find),
        ),
    );
  }, [grid.data, stays, find]);
  // A page past the last (fewer beds after a refresh) shows the last one.
  const at = Math.min(page, Math.max(0, Math.ceil(beds.length / perPage) - 1));
  const shown = useMemo(() => beds.slice(at * perPage, (at + 1) * perPage), [beds, at, perPage]);
  const filtered =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(0);
    };
  const onFree = useCallback((bed: GridBed, night: string) => {
    setNotice(undefined);
    setReserving({ IdCampamento: bed.IdCampamento, IdCama: bed.IdCama, FechaInicio: night });
  }, []);
  const onHeld = useCallback((held: GridStay[], bed: GridBed, anchor: HTMLElement) => {
    setNotice(undefined);
    if (held.length === 1) setStay(summaryOf(held[0], bed));
    else setChoosing({ anchor, stays: held.map((s) => summaryOf(s, bed)) });
  }, []);
  const camps = choices.campamentos;
  const blocks = camps.find((c) => c.IdCampamento === camp)?.modulos ?? [];
  return (
    <>
      <ScreenHeader title={title}>
        <Pick
          id="availability-camp"
          label={field('IdCampamento')}
          value={camp}
          options={campOptions(camps)}
          onChange={filtered((v: number | '') => {
            setCamp(v);
            setBlock('');
          })}
          none={translate('hotel.screens.all')}
          width={280}
        />
        <Pick
          id="availability-block"
          label={translate('hotel.screens.grid.block')}
          value={block}
          options={blocks.map((m) => ({ value: m.IdModuloHotel, label: m.Descripcion }))}
          onChange={filtered(setBlock)}
          none={translate('hotel.screens.all')}
          width={160}
        />
        <Pick
          id="availability-room-type"
          label={field('IdTipoHabitacion')}
          value={type}
          options={choices.tiposHabitacion.map((t) => ({
            value: t.IdTipoHabitacion,
            label: t.Descripcion,
          }))}
          onChange={filtered(setType)}
          none={translate('hotel.screens.all')}
          width={160}
        />
        <DateInput
          id="availability-from"
          label={translate('hotel.screens.grid.from')}
          value={from}
          onChange={filtered(setFrom)}
          width={160}
        />
        <Pick
          id="availability-days"
          label={translate('hotel.screens.grid.days')}
          value={days}
          options={SPANS.map((n) => ({
            value: n,
            label: translate('hotel.screens.grid.span', { smart_count: n }),
          }))}
          onChange={(v) => v && setDays(v)}
          width={130}
        />
        <TextField
          size="small"
          id="availability-find"
          label={translate('hotel.screens.grid.find')}
          value={text}
          onChange={(event) => filtered(setText)(event.target.value)}
          sx={{ width: { xs: '100%', sm: 200 } }}
        />
      </ScreenHeader>
      <Card sx={{ minWidth: 0 }}>
        <Box sx={{ px: 2, py: 1 }}>
          <Legend />
        </Box>
        {notice && (
          <Alert severity="success" sx={{ mx: 2, mb: 1 }} data-testid="availability-notice">
            {notice}
          </Alert>
        )}
        <Refusal error={grid.error} sx={{ mx: 2, mb: 1 }} />
        {grid.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
        {grid.data && !beds.length && (
          <Alert severity="info" sx={{ mx: 2, mb: 2 }} data-testid="availability-empty">
            {translate('hotel.screens.grid.empty')}
          </Alert>
        )}
        {grid.data && beds.length > 0 && (
          <>
            <AvailabilityTable
              label={title}
              nights={grid.data.dias}
              today={today}
              beds={shown}
              stays={stays}
              showCamp={camps.length > 1}
              onFree={onFree}
              onHeld={onHeld}
            />
            <Pager
              count={beds.length}
              page={at}
              rowsPerPage={perPage}
              rowsPerPageOptions={[30, 60, 120]}
              onPageChange={(_event, next) => setPage(next)}
              onRowsPerPageChange={(event) => {
                setPerPage(Number(event.target.value));
                setPage(0);
              }}
            />
          </>
        )}
      </Card>
      <Menu open={Boolean(choosing)} anchorEl={choosing?.anchor} onClose={() => setChoosing(undefined)}>
        {(choosing?.stays ?? []).map((s) => (
          <MenuItem
            key={s.IdReserva}
            onClick={() => {
              setChoosing(undefined);
              setStay(s);
            }}
          >
            {`${s.Persona} · ${translate(`enums.lodgingTurn.${s.Turno}`)}`}
          </MenuItem>
        ))}
      </Menu>
      {reserving && (
        <ReservationDialog
          choices={choices}
          prefill={reserving}
          onClose={() => setReserving(undefined)}
          onDone={(message) => {
            setReserving(undefined);
            setNotice(message);
          }}
        />
      )}
      {stay && (
        <StayDialog
          stay={stay}
          administrator={choices.administrador}
          onClose={() => setStay(undefined)}
          onDone={(message) => {
            setStay(undefined);
            setNotice(message);
          }}
        />
      )}
    </>
  );
}

/**
 * Bed availability (spec section 2 Hotel): the beds of a camp, block or room type by night over a
 * week, a fortnight or a month, a page of beds at a time; a free night reserves the bed from it, a
 * held one opens its stay (check-in, check-out, move, cancel).
 */
export default function AvailabilityScreen() {
  const translate = useTranslate();
  const title = translate('app.menu.items.bedAvailability');
  return (
    <HotelScreen title={title} testId="hotel-availability">
      {(choices) => <Availability choices={choices} title={title} />}
    </HotelScreen>
  );
}
