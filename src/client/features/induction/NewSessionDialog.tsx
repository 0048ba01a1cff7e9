import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
  type Theme,
  useMediaQuery,
} from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { DateInput, Pick } from '../../components/fields.js';
import { session } from '../../session/store.js';
import { type Course, inductionApi, inLanguage, siteToday } from './api.js';
import { FieldRefusal, useFieldProblems } from './FieldRefusal.js';

const LANGUAGES = ['ES', 'EN', 'QU'];

/**
 * A new session: course, date, hours, room, capacity, trainer and language, created through the
 * generic resource; the server's refusal (a date in the past, a capacity of 0…) shows under its
 * field and, with the field's name, above the buttons. Nothing is kept until it is accepted.
 */
export function NewSessionDialog({
  courses,
  onClose,
  onDone,
}: {
  courses: Course[];
  onClose(): void;
  onDone(date: string, message: string): void;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const label = (field: string) => translate(`resources.training-session.fields.${field}`);
  const [course, setCourse] = useState<number | ''>('');
  const [date, setDate] = useState<string | undefined>(siteToday());
  const [start, setStart] = useState('08:00');
  const [end, setEnd] = useState('12:00');
  const [room, setRoom] = useState('');
  const [capacity, setCapacity] = useState('20');
  const [trainer, setTrainer] = useState<string | ''>(session.auth()?.username ?? '');
  const [language, setLanguage] = useState<string | ''>('ES');
  const trainers = useQuery({
    queryKey: ['induction-trainers'],
    queryFn: inductionApi.trainers,
    staleTime: 5 * 60_000,
  });
  const chosen = courses.find((c) => c.IdCurso === course);
  const languages = chosen ? chosen.Idiomas.split(',') : LANGUAGES;
  const save = useMutation({
    mutationFn: () =>
      inductionApi.createSession({
        ...(course !== '' && { IdCurso: course }),
        ...(date && { Fecha: date }),
        HoraInicio: start,
        HoraFin: end,
        Sala: room.trim().toUpperCase(),
        ...(capacity.trim() !== '' && { Capacidad: Number(capacity) }),
        ...(trainer !== '' && { IdInstructor: trainer }),
        ...(language !== '' && { Idioma: language }),
      }),
    onSuccess: () => onDone(date ?? siteToday(), translate('induction.screens.create.done')),
  });
  const problems = useFieldProblems(save.error);
  const field = (name: string) => ({ error: Boolean(problems[name]), helperText: problems[name] });
  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      fullScreen={phone}
      aria-labelledby="new-session-title"
    >
      <DialogTitle id="new-session-title">{translate('induction.screens.create.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }} data-testid="new-session">
          <Pick
            id="session-course"
            label={label('IdCurso')}
            value={course}
            options={courses.map((c) => ({
              value: c.IdCurso,
              label: `${c.Codigo} · ${inLanguage(locale, c.Nombre, c.NombreIngles)}`,
            }))}
            onChange={(value) => {
              setCourse(value);
              const offered = courses.find((c) => c.IdCurso === value)?.Idiomas.split(',') ?? LANGUAGES;
              if (!offered.includes(language)) setLanguage(offered[0]);
            }}
            width="100%"
            required
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <DateInput
              id="session-date"
              label={label('Fecha')}
              value={date}
              onChange={setDate}
              min={siteToday()}
            />
            {(['HoraInicio', 'HoraFin'] as const).map((name) => (
              <TextField
                key={name}
                id={`session-${name}`}
                type="time"
                size="small"
                required
                label={label(name)}
                value={name === 'HoraInicio' ? start : end}
                onChange={(event) => (name === 'HoraInicio' ? setStart : setEnd)(event.target.value)}
                slotProps={{ inputLabel: { shrink: true } }}
                sx={{ width: { xs: '100%', sm: 150 } }}
                {...field(name)}
              />
            ))}
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              id="session-room"
              size="small"
              required
              label={label('Sala')}
              value={room}
              onChange={(event) => setRoom(event.target.value.toUpperCase())}
              slotProps={{ htmlInput: { maxLength: 100 } }}
              sx={{ flex: 1 }}
              {...field('Sala')}
            />
            <TextField
              id="session-capacity"
              size="small"
              required
              type="number"
              label={label('Capacidad')}
              value={capacity}
              onChange={(event) => setCapacity(event.target.value)}
              slotProps={{ htmlInput: { min: 1, max: 500, step: 1 } }}
              sx={{ width: { xs: '100%', sm: 150 } }}
              {...field('Capacidad')}
            />
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <Pick
              id="session-trainer"
              label={label('IdInstructor')}
              value={trainer}
              options={(trainers.data ?? []).map((u) => ({
                value: u.IdUsuario,
                label: [u.Nombre, u.Apellido].filter(Boolean).join(' ') || u.IdUsuario,
              }))}
              onChange={setTrainer}
              width={300}
              required
            />
            <Pick
              id="session-language"
              label={label('Idioma')}
              value={language}
              options={languages.map((l) => ({ value: l, label: translate(`enums.sessionLanguage.${l}`) }))}
              onChange={setLanguage}
              width={180}
              required
            />
          </Stack>
          <FieldRefusal error={save.error} label={label} testId="new-session-refusal" />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        <Button
          variant="contained"
          disabled={save.isPending}
          onClick={() => save.mutate()}
          data-testid="new-session-save"
        >
          {translate('induction.screens.create.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
