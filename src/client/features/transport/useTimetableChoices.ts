import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { choicesApi } from './api.js';

const FIVE_MINUTES = 5 * 60_000;

/** What the timetable's pickers offer: the rosters, the active routes and buses (by plate). */
export function useTimetableChoices() {
  const translate = useTranslate();
  const rosters = useQuery({
    queryKey: ['transport-rosters'],
    queryFn: choicesApi.rosters,
    staleTime: FIVE_MINUTES,
  });
  const routes = useQuery({
    queryKey: ['transport-routes'],
    queryFn: choicesApi.routes,
    staleTime: FIVE_MINUTES,
  });
  const buses = useQuery({
    queryKey: ['transport-buses'],
    queryFn: () =>
      choicesApi.buses((n) => translate('transport.screens.common.seatCount', { smart_count: n })),
    staleTime: FIVE_MINUTES,
  });
  return {
    rosters: rosters.data ?? [],
    routes: routes.data ?? [],
    buses: buses.data ?? [],
    error: rosters.error ?? routes.error ?? buses.error,
  };
}
