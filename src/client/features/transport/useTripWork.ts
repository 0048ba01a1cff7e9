import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { saveBase64 } from '../../files.js';
import { type Seat, seatsApi, transportApi } from './api.js';

/** Every transport query that shows a trip's seats or state: the trip's page, the day's lists, the board. */
export function useTripRefresh(id: number) {
  const client = useQueryClient();
  return async () => {
    await client.invalidateQueries({ queryKey: ['transport-trip', id] });
    await client.invalidateQueries({ queryKey: ['transport-trips'] });
    await client.invalidateQueries({ queryKey: ['transport-board'] });
  };
}

/** The manifest's PDF, saved as the browser saves downloads. */
export function useManifest(id: number, say: (text: string) => void) {
  const translate = useTranslate();
  return useMutation({
    mutationFn: () => seatsApi.manifest(id),
    onSuccess: (file) => {
      saveBase64(file.fileBase64, file.fileName, file.fileType ?? 'application/pdf');
      say(translate('transport.screens.trip.printed'));
    },
  });
}

/** A booked seat cancelled, its seat freed. */
export function useCancelSeat(id: number, say: (text: string) => void) {
  const translate = useTranslate();
  const refresh = useTripRefresh(id);
  return useMutation({
    mutationFn: (seat: Seat) => seatsApi.cancel(seat.IdReserva),
    onSuccess: async (_, seat) => {
      await refresh();
      say(translate('transport.screens.trip.seatCancelled', { name: seat.Persona }));
    },
  });
}

/** The coordinator's work on a trip: departure (its no-shows), arrival, cancelling, the manifest. */
export function useTripWork(id: number, say: (text: string) => void) {
  const translate = useTranslate();
  const text = (key: string, options?: object) => translate(`transport.screens.trip.${key}`, options);
  const refresh = useTripRefresh(id);
  const after = (key: string) => async () => {
    await refresh();
    say(text(key));
  };
  return {
    refresh,
    depart: useMutation({ mutationFn: () => transportApi.depart(id), onSuccess: after('departed') }),
    arrive: useMutation({ mutationFn: () => transportApi.arrive(id), onSuccess: after('arrived') }),
    cancel: useMutation({ mutationFn: () => transportApi.cancel(id), onSuccess: after('cancelled') }),
    manifest: useManifest(id, say),
    cancelSeat: useCancelSeat(id, say),
  };
}
