import { Chip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { siteDate } from '../../../shared/dates.js';
import { LODGING_TURNS, type LodgingTurn, type ReservationState } from '../../../shared/hotel.js';
import { type Option, Pick } from '../../components/fields.js';
import { session } from '../../session/store.js';
import type { Camp, CampChoices } from './api.js';

/** Today at the division's site, as the server counts nights. */
export const siteToday = () => siteDate(session.siteCountry());

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
