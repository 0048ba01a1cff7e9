import { Alert, LinearProgress, Stack } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { Refusal } from '../../components/Refusal.js';
import { ScreenHeader } from '../../components/ScreenHeader.js';
import { useConsoleTitle } from '../../resources/ScreenTitle.js';
import { type CampChoices, hotelApi } from './api.js';

/** The session's camps, their blocks and the room types: every lodging screen starts from them. */
export function useCamps() {
  return useQuery({
    queryKey: ['hotel-camps'],
    queryFn: hotelApi.camps,
    // A refusal (not a camp's administrator) is an answer, not a failure to try again.
    retry: false,
    staleTime: 5 * 60_000,
  });
}

/**
 * The frame of every lodging screen: the tab's title, and once the session's camps have loaded
 * the screen itself; until then a progress bar, and instead of it the refusal a user who runs no
 * camp gets (not assigned as hotel administrator).
 */
export function HotelScreen({
  title,
  testId,
  children,
}: {
  title: string;
  testId: string;
  children(choices: CampChoices): ReactNode;
}) {
  const translate = useTranslate();
  useConsoleTitle(title);
  const camps = useCamps();
  return (
    <Stack spacing={2} sx={{ mt: 1, minWidth: 0 }} data-testid={testId}>
      {camps.data?.asignado ? (
        children(camps.data)
      ) : camps.data ? (
        <>
          <ScreenHeader title={title} />
          <Alert severity="error" data-testid="hotel-refusal">
            {translate('hotel.refusals.notAdministrator')}
          </Alert>
        </>
      ) : (
        <>
          <ScreenHeader title={title} />
          {camps.isPending && <LinearProgress aria-label={translate('ra.page.loading')} />}
          <Refusal error={camps.error} testId="hotel-refusal" />
        </>
      )}
    </Stack>
  );
}
