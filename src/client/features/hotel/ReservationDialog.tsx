import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Radio,
  RadioGroup,
  Stack,
  Switch,
} from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { addDays } from '../../../shared/dates.js';
import type { LodgingTurn } from '../../../shared/hotel.js';
import { DateInput, Pick } from '../../components/fields.js';
import { Refusal } from '../../components/Refusal.js';
import { type CampChoices, type Candidate, hotelApi } from './api.js';
import { BedPicker } from './BedPicker.js';
import { campOptions, RoomTypePick, siteToday, TurnPick } from './fields.js';
import { PersonPicker } from './PersonPicker.js';
import { useStaysChanged } from './StayDialog.js';

/** What the grid's free cell fills in: the camp, the bed and the night. */
export interface ReservationPrefill {
  IdCampamento: number;
  IdCama: number;
  FechaInicio: string;
}

/**
 * A new reservation: the person, the camp, arrival and departure, the turn, and either a bed
 * (free every night; the hotel administrator's choice) or a bed of a room type that the product
 * assigns (the person's profile's when none is chosen). The administrator may also check someone
 * in at once, from today (a walk-in). A refusal stays in the dialog.
 */
export function ReservationDialog({
  choices,
  prefill,
  onClose,
  onDone,
}: {
  choices: CampChoices;
  prefill?: ReservationPrefill;
  onClose(): void;
  onDone(message: string): void;
}) {
  const translate = useTranslate();
  const changed = useStaysChanged();
  const today = siteToday();
  const admin = choices.administrador;
  const [person, setPerson] = useState<Candidate | null>(null);
  const [camp, setCamp] = useState<number | ''>(
    prefill?.IdCampamento ?? (choices.campamentos.length === 1 ? choices.campamentos[0].IdCampamento : ''),
  );
  const [from, setFrom] = useState<string | undefined>(prefill?.FechaInicio ?? today);
  const [to, setTo] = useState<string | undefined>(addDays(prefill?.FechaInicio ?? today, 7));
  const [turn, setTurn] = useState<LodgingTurn>('C');
  const [mode, setMode] = useState<'type' | 'bed'>(prefill ? 'bed' : 'type');
  const [bed, setBed] = useState<number | undefined>(prefill?.IdCama);
  const [type, setType] = useState<number | ''>('');
  const [walkIn, setWalkIn] = useState(false);
  const [shown, setShown] = useState(false);
  const arrival = walkIn ? today : from;
  const missing = !person || camp === '' || !arrival || !to || (mode === 'bed' && !bed);
  const save = useMutation({
    mutationFn: () => {
      const where = mode === 'bed' ? { IdCama: bed } : type === '' ? {} : { IdTipoHabitacion: type };
      const body = { IdCampamento: camp, IdPersona: person?.IdPersona, FechaFin: to, Turno: turn, ...where };
      return walkIn ? hotelApi.walkIn(body) : hotelApi.reserve({ ...body, FechaInicio: arrival });
    },
    onSuccess: async () => {
      await changed();
      onDone(
        translate(walkIn ? 'hotel.screens.reservation.checkedIn' : 'hotel.screens.reservation.done', {
          name: person?.Persona ?? '',
        }),
      );
    },
  });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="reservation-dialog-title">
      <DialogTitle id="reservation-dialog-title">{translate('hotel.screens.reservation.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }} data-testid="reservation-dialog">
          <PersonPicker id="reservation-person" value={person} onChange={setPerson} />
          <Pick
            id="reservation-camp"
            label={translate('resources.reservation.fields.IdCampamento')}
            value={camp}
            options={campOptions(choices.campamentos)}
            onChange={setCamp}
            width="100%"
            required
          />
          {admin && (
            <FormControlLabel
              control={
                <Switch
                  checked={walkIn}
                  onChange={(event) => setWalkIn(event.target.checked)}
                  data-testid="reservation-walk-in"
                />
              }
              label={translate('hotel.screens.reservation.walkIn')}
            />
          )}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <DateInput
              id="reservation-from"
              label={translate('resources.reservation.fields.FechaInicio')}
              value={arrival}
              onChange={setFrom}
              min={today}
              disabled={walkIn}
            />
            <DateInput
              id="reservation-to"
              label={translate('resources.reservation.fields.FechaFin')}
              value={to}
              onChange={setTo}
              min={arrival}
            />
            <TurnPick id="reservation-turn" value={turn} onChange={setTurn} />
          </Stack>
          {admin && (
            <RadioGroup
              row
              value={mode}
              onChange={(event) => setMode(event.target.value as 'type' | 'bed')}
              aria-label={translate('resources.reservation.fields.IdCama')}
            >
              <FormControlLabel
                value="type"
                control={<Radio />}
                label={translate('hotel.screens.reservation.byType')}
              />
              <FormControlLabel
                value="bed"
                control={<Radio />}
                label={translate('hotel.screens.reservation.byBed')}
              />
            </RadioGroup>
          )}
          {mode === 'bed' ? (
            <BedPicker
              id="reservation-bed"
              camp={camp}
              from={arrival}
              to={to}
              value={bed}
              onChange={setBed}
            />
          ) : (
            <RoomTypePick
              id="reservation-room-type"
              label={translate('resources.reservation.fields.IdTipoHabitacion')}
              choices={choices}
              value={type}
              onChange={setType}
              width="100%"
            />
          )}
          {shown && missing && (
            <Alert severity="warning" data-testid="reservation-missing">
              {translate('hotel.screens.reservation.missing')}
            </Alert>
          )}
          <Refusal error={save.error} testId="reservation-refusal" />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        <Button
          variant="contained"
          disabled={save.isPending}
          onClick={() => {
            setShown(true);
            if (!missing) save.mutate();
          }}
          data-testid="reservation-save"
        >
          {translate(walkIn ? 'hotel.screens.reservation.checkIn' : 'hotel.screens.reservation.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
