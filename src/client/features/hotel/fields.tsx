import { Chip, FormControl, InputLabel, MenuItem, Select } from '@mui/material';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { useTranslate } from 'react-admin';
import { siteDate } from '../../../shared/dates.js';
import { LODGING_TURNS, type LodgingTurn, type ReservationState } from '../../../shared/hotel.js';
import { DATE_FORMAT, DatesProvider, fromDate, toDate } from '../../resources/form/dates.js';
import { session } from '../../session/store.js';
import type { Camp, CampChoices } from './api.js';

/** Today at the division's site, as the server counts nights. */
export const siteToday = () => siteDate(session.siteCountry());

export interface Option<T extends string | number> {
  value: T;
  label: string;
}

/** A select of a few options; `none` names the empty choice (all, or none chosen) when there is one. */
export function Pick<T extends string | number>({
  id,
  label,
  value,
  options,
  onChange,
  none,
  width = 220,
  required,
}: {
  id: string;
  label: string;
  value: NoInfer<T> | '';
  options: Option<T>[];
  onChange(value: NoInfer<T> | ''): void;
  none?: string;
  width?: number | string;
  required?: boolean;
}) {
  // With an empty choice, it shows in the box: "all" reads better than a blank.
  const empty = none !== undefined;
  return (
    <FormControl size="small" required={required} sx={{ width: { xs: '100%', sm: width } }}>
      <InputLabel id={`${id}-label`} shrink={empty || undefined}>
        {label}
      </InputLabel>
      <Select
        labelId={`${id}-label`}
        id={id}
        label={label}
        displayEmpty={empty}
        notched={empty || undefined}
        value={options.some((o) => o.value === value) ? value : ''}
        onChange={(event) => {
          const picked = event.target.value as T | '';
          const option = options.find((o) => String(o.value) === String(picked));
          onChange(option ? option.value : '');
        }}
      >
        {none !== undefined && <MenuItem value="">{none}</MenuItem>}
        {options.map((o) => (
          <MenuItem key={o.value} value={o.value}>
            {o.label}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}

/** The camps to choose from. */
export const campOptions = (camps: Camp[]): Option<number>[] =>
  camps.map((c) => ({ value: c.IdCampamento, label: c.Descripcion }));

/** The turn of a stay: the whole bed, or a hot bed's day or night half. */
export function TurnPick({
  id,
  value,
  onChange,
}: {
  id: string;
  value: LodgingTurn;
  onChange(value: LodgingTurn): void;
}) {
  const translate = useTranslate();
  return (
    <Pick
      id={id}
      label={translate('resources.reservation.fields.Turno')}
      value={value}
      options={LODGING_TURNS.map((t) => ({ value: t, label: translate(`enums.lodgingTurn.${t}`) }))}
      onChange={(v) => onChange(v || 'C')}
      width={180}
    />
  );
}

/** A date typed as dd/MM/yyyy or picked on a calendar, kept as yyyy-MM-dd. */
export function DateInput({
  id,
  label,
  value,
  onChange,
  min,
  width = 180,
  disabled,
}: {
  id: string;
  label: string;
  value: string | undefined;
  onChange(value: string | undefined): void;
  min?: string;
  width?: number;
  disabled?: boolean;
}) {
  return (
    <DatesProvider>
      <DatePicker
        label={label}
        format={DATE_FORMAT}
        value={toDate(value)}
        minDate={toDate(min) ?? undefined}
        disabled={disabled}
        onChange={(v) => onChange(fromDate(v))}
        slotProps={{ textField: { id, size: 'small', sx: { width: { xs: '100%', sm: width } } } }}
      />
    </DatesProvider>
  );
}

const STATE_COLOURS: Record<ReservationState, 'info' | 'success' | 'default' | 'warning' | 'error'> = {
  R: 'info',
  I: 'success',
  S: 'default',
  L: 'warning',
  A: 'error',
  M: 'default',
};

/** A reservation's state in words. */
export function StateChip({ state }: { state: ReservationState }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      variant="outlined"
      color={STATE_COLOURS[state]}
      label={translate(`enums.reservationState.${state}`)}
      data-state={state}
    />
  );
}

/** The room type of a stay: one of the client's, or (empty) the one the person's camp profile names. */
export function RoomTypePick({
  id,
  label,
  choices,
  value,
  onChange,
  width,
}: {
  id: string;
  label: string;
  choices: CampChoices;
  value: number | '';
  onChange(value: number | ''): void;
  width?: number | string;
}) {
  const translate = useTranslate();
  return (
    <Pick
      id={id}
      label={label}
      value={value}
      options={choices.tiposHabitacion.map((t) => ({ value: t.IdTipoHabitacion, label: t.Descripcion }))}
      onChange={onChange}
      none={translate('hotel.screens.reservation.profileType')}
      width={width}
    />
  );
}
