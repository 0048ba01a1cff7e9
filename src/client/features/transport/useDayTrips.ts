import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { isIsoDate } from '../../../shared/dates.js';
import { seatsApi, siteToday } from './api.js';

/** A day's trips: its date picked, its trips listed, each opening its page. */
export function useDayTrips(enabled = true) {
  const [day, setDay] = useState<string | undefined>(siteToday());
  const ready = Boolean(day && isIsoDate(day));
  const trips = useQuery({
    queryKey: ['transport-trips', day],
    queryFn: () => seatsApi.trips(day as string),
    enabled: ready && enabled,
    placeholderData: keepPreviousData,
  });
  return { day, setDay, ready, trips };
}
