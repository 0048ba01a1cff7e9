import { Alert, LinearProgress, Stack } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { Refusal } from '../../components/Refusal.js';
import { ScreenHeader } from '../../components/ScreenHeader.js';
import { useConsoleTitle } from '../../resources/ScreenTitle.js';
import { type DiningChoices, diningApi } from './api.js';

/** The division's dining rooms and their services: both dining screens start from them. */
export function useRooms() {
  return useQuery({
    queryKey: ['dining-rooms'],
    queryFn: diningApi.rooms,
    retry: false,
    staleTime: 5 * 60_000,
  });
}

/**
 * The frame of the dining screens: the tab's title, and once the division's rooms have loaded the
 * screen itself; until then a progress bar, and instead of it the refusal, or the notice that the
 * division has no dining room.
 */
export function DiningScreen({
  title,
  testId,
  children,
}: {
  title: string;
  testId: string;
  children(choices: DiningChoices): ReactNode;
}) {
  const translate = useTranslate();
  useConsoleTitle(title);
  const rooms = useRooms();
  return (
    <Stack spacing={2} sx={{ mt: 1, minWidth: 0 }} data-testid={testId}>
      {rooms.data?.comedores.length ? (
        children(rooms.data)
      ) : (
        <>
          <ScreenHeader title={title} />
          {rooms.isPending && <LinearProgress aria-label={translate('ra.page.loading')} />}
          {rooms.data && (
            <Alert severity="info" data-testid="dining-no-rooms">
              {translate('dining.screens.noRooms')}
            </Alert>
          )}
          <Refusal error={rooms.error} testId="dining-refusal" />
        </>
      )}
    </Stack>
  );
}
