import { Box, Card, CardContent, LinearProgress, Stack, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { isIsoDate } from '../../../shared/dates.js';
import { DateInput } from '../../components/fields.js';
import { Refusal } from '../../components/Refusal.js';
import { ScreenHeader } from '../../components/ScreenHeader.js';
import { useConsoleTitle } from '../../resources/ScreenTitle.js';
import { siteToday, transportApi } from './api.js';
import { BoardTrip, OnTheRoadNow } from './BoardParts.js';

/** How often the board asks again. */
const REFRESH_MS = 30_000;

/**
 * The live board of a day (the coordinator's): each trip with its state and its seats booked,
 * boarded and free, and who is on the road now, bus by bus; it asks again every 30 seconds.
 */
export default function BoardScreen() {
  const translate = useTranslate();
  const text = (key: string) => translate(`transport.screens.board.${key}`);
  const title = translate('app.menu.items.transportBoard');
  useConsoleTitle(title);
  const [day, setDay] = useState<string | undefined>(siteToday());
  const ready = Boolean(day && isIsoDate(day));
  const board = useQuery({
    queryKey: ['transport-board', day],
    queryFn: () => transportApi.liveBoard(day as string),
    enabled: ready,
    refetchInterval: REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  const data = ready ? board.data : undefined;
  return (
    <Stack spacing={2} sx={{ mt: 1, minWidth: 0 }} data-testid="transport-board">
      <ScreenHeader title={title}>
        <DateInput id="board-day" label={text('day')} value={day} onChange={setDay} />
      </ScreenHeader>
      {board.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
      <Refusal error={board.error} />
      <Card>
        <CardContent>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
            {text('trips')}
          </Typography>
          {data && !data.viajes.length && <Typography color="text.secondary">{text('noTrips')}</Typography>}
          <Box
            sx={{
              display: 'grid',
              gap: 2,
              gridTemplateColumns: {
                xs: 'minmax(0, 1fr)',
                sm: 'repeat(2, minmax(0, 1fr))',
                lg: 'repeat(3, minmax(0, 1fr))',
              },
            }}
            data-testid="board-trips"
          >
            {data?.viajes.map((v) => (
              <BoardTrip key={v.IdViaje} trip={v} />
            ))}
          </Box>
        </CardContent>
      </Card>
      <Card data-testid="on-the-road">
        <CardContent>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
            {text('onTheRoad')}
          </Typography>
          {data && <OnTheRoadNow people={data.enRuta} />}
        </CardContent>
      </Card>
    </Stack>
  );
}
