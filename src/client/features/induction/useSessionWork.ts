import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { saveBase64 } from '../../files.js';
import { type Booking, inductionApi, type SessionDetail } from './api.js';
import { type Entry, scoreProblem } from './BookingResults.js';

/** The trainer's work on a scheduled session's bookings: what is entered, saved, closed and printed. */
export function useSessionWork(id: number, detail: SessionDetail | undefined, say: (text: string) => void) {
  const translate = useTranslate();
  const client = useQueryClient();
  const [edits, setEdits] = useState<Record<number, Entry>>({});
  const open = (detail?.reservas ?? []).filter((b) => b.Estado === 'R');
  const entryOf = (b: Booking): Entry =>
    edits[b.IdInscripcion] ?? { Asistio: b.Asistio, Nota: b.Nota === null ? '' : String(b.Nota) };
  const lines = () =>
    open.map((b) => {
      const e = entryOf(b);
      const Nota = e.Asistio === 'S' && e.Nota.trim() !== '' ? Number(e.Nota) : null;
      return { IdInscripcion: b.IdInscripcion, Asistio: e.Asistio, Nota };
    });
  const refresh = async () => {
    setEdits({});
    await client.invalidateQueries({ queryKey: ['induction-session', id] });
    await client.invalidateQueries({ queryKey: ['induction-sessions'] });
  };
  const dirty = Object.keys(edits).length > 0;
  const save = useMutation({
    mutationFn: () => inductionApi.saveResults(id, lines()),
    onSuccess: async () => {
      await refresh();
      say(translate('induction.screens.session.saved'));
    },
  });
  const close = useMutation({
    mutationFn: async () => {
      if (dirty) await inductionApi.saveResults(id, lines());
      return inductionApi.close(id);
    },
    onSuccess: async (counts) => {
      await refresh();
      say(translate('induction.screens.session.closed', counts));
    },
  });
  const certificate = useMutation({
    mutationFn: (b: Booking) => inductionApi.certificate(Number(b.IdRegistro)),
    onSuccess: (file) => {
      saveBase64(file.fileBase64, file.fileName, file.fileType ?? 'application/pdf');
      say(translate('induction.screens.session.printed'));
    },
  });
  return {
    entryOf,
    setEntry: (b: Booking, entry: Entry) => setEdits((before) => ({ ...before, [b.IdInscripcion]: entry })),
    /** A badge marked someone present: what is being entered for them says so too. */
    marked: async (bookingId: number) => {
      await client.invalidateQueries({ queryKey: ['induction-session', id] });
      setEdits((before) =>
        before[bookingId] ? { ...before, [bookingId]: { ...before[bookingId], Asistio: 'S' } } : before,
      );
    },
    refresh,
    dirty,
    invalid: open.some((b) => scoreProblem(entryOf(b).Nota)),
    save,
    close,
    certificate,
  };
}
