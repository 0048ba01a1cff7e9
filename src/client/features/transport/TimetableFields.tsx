import { Stack, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { DateInput, Pick } from '../../components/fields.js';
import { type PersonChoice, PersonPicker } from '../../components/PersonPicker.js';
import { choicesApi, type TimetablePlan } from './api.js';
import { useTimetableChoices } from './useTimetableChoices.js';

/** What the timetable's form holds while the coordinator fills it. */
export interface Draft {
  roster: number | '';
  anchor?: string;
  from?: string;
  to?: string;
  route: number | '';
  hour: string;
  direction: 'S' | 'B';
  bus: number | '';
  driver: PersonChoice | null;
}

/** The plan to send, once every part of it is chosen. */
export function planOf(d: Draft): TimetablePlan | undefined {
  if (d.roster === '' || d.route === '' || d.bus === '' || !d.driver) return undefined;
  if (!d.anchor || !d.from || !d.to || !d.hour) return undefined;
  return {
    IdTipoHorario: d.roster,
    FechaAncla: d.anchor,
    desde: d.from,
    hasta: d.to,
    IdRuta: d.route,
    Hora: d.hour,
    Sentido: d.direction,
    IdBus: d.bus,
    IdConductor: d.driver.IdPersona,
  };
}

/** The roster and its anchor, and the period its trips are made in. */
function RosterFields({ d, set, today }: { d: Draft; set(part: Partial<Draft>): void; today: string }) {
  const translate = useTranslate();
  const text = (key: string) => translate(`transport.screens.timetable.${key}`);
  const { rosters } = useTimetableChoices();
  return (
    <>
      <Pick
        id="timetable-roster"
        label={text('roster')}
        value={d.roster}
        options={rosters}
        onChange={(roster) => set({ roster })}
        width="100%"
        required
      />
      <DateInput
        id="timetable-anchor"
        label={text('anchor')}
        value={d.anchor}
        onChange={(anchor) => set({ anchor })}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <DateInput
          id="timetable-from"
          label={text('from')}
          value={d.from}
          onChange={(from) => set({ from })}
          min={today}
        />
        <DateInput
          id="timetable-to"
          label={text('to')}
          value={d.to}
          onChange={(to) => set({ to })}
          min={d.from}
        />
      </Stack>
    </>
  );
}

/** The trips' route, hour and direction, bus and driver. */
function TripFields({ d, set }: { d: Draft; set(part: Partial<Draft>): void }) {
  const translate = useTranslate();
  const field = (name: string) => translate(`resources.trip.fields.${name}`);
  const { routes, buses } = useTimetableChoices();
  return (
    <>
      <Pick
        id="timetable-route"
        label={field('IdRuta')}
        value={d.route}
        options={routes}
        onChange={(route) => set({ route })}
        width="100%"
        required
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          id="timetable-hour"
          type="time"
          size="small"
          required
          label={field('Hora')}
          value={d.hour}
          onChange={(event) => set({ hour: event.target.value })}
          slotProps={{ inputLabel: { shrink: true } }}
          sx={{ width: { xs: '100%', sm: 150 } }}
        />
        <Pick
          id="timetable-direction"
          label={field('Sentido')}
          value={d.direction}
          options={(['S', 'B'] as const).map((s) => ({
            value: s,
            label: translate(`enums.tripDirection.${s}`),
          }))}
          onChange={(direction) => set({ direction: direction || 'S' })}
          width={240}
          required
        />
      </Stack>
      <Pick
        id="timetable-bus"
        label={field('IdBus')}
        value={d.bus}
        options={buses}
        onChange={(bus) => set({ bus })}
        width="100%"
        required
      />
      <PersonPicker
        id="timetable-driver"
        label={field('IdConductor')}
        value={d.driver}
        onChange={(driver) => set({ driver })}
        find={choicesApi.people}
        queryKey="transport-drivers"
        noneKey="transport.screens.timetable.noDriver"
        required
      />
    </>
  );
}

/** The timetable's form: the roster and period, then the trips' route, hour, bus and driver. */
export function TimetableFields(props: { d: Draft; set(part: Partial<Draft>): void; today: string }) {
  return (
    <>
      <RosterFields {...props} />
      <TripFields {...props} />
    </>
  );
}
