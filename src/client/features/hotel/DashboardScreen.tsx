import { Box, Card, CardContent, LinearProgress, Stack, Typography } from '@mui/material';
import { PieChart } from '@mui/x-charts/PieChart';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import type { CampToday } from '../../../shared/hotel.js';
import { ChartTexts } from '../../components/ChartTexts.js';
import { Refusal } from '../../components/Refusal.js';
import { ScreenHeader } from '../../components/ScreenHeader.js';
import { formatDate } from '../../format.js';
import { hotelApi } from './api.js';
import { CELL_LOOK } from './cells.js';
import { HotelScreen } from './HotelScreen.js';
import { StayLines } from './StayLines.js';

const FIGURES = ['camas', 'ocupadas', 'reservadas', 'libres', 'fueraServicio'] as const;
/** The slices of a camp's beds tonight, in the grid's colours. */
const SLICES = [
  { figure: 'ocupadas', colour: CELL_LOOK.occupied.border },
  { figure: 'reservadas', colour: CELL_LOOK.reserved.border },
  { figure: 'libres', colour: CELL_LOOK.free.border },
  { figure: 'fueraServicio', colour: '#9e9e9e' },
] as const;

/** A camp's beds tonight: the figures, the occupancy, and a pie of the beds by state. */
function CampCard({ camp }: { camp: CampToday }) {
  const translate = useTranslate();
  const label = (figure: string) => translate(`hotel.screens.dashboard.figures.${figure}`);
  return (
    <Card data-testid={`dashboard-camp-${camp.IdCampamento}`} sx={{ flex: '1 1 420px', minWidth: 0 }}>
      <CardContent>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {camp.Campamento}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }}>
          <Box
            component="dl"
            sx={{
              display: 'grid',
              gridTemplateColumns: 'auto auto',
              columnGap: 2,
              rowGap: 0.5,
              m: 0,
              flex: '0 0 auto',
            }}
          >
            {FIGURES.map((figure) => (
              <Box key={figure} sx={{ display: 'contents' }}>
                <Typography component="dt" variant="body2" color="text.secondary">
                  {label(figure)}
                </Typography>
                <Typography
                  component="dd"
                  variant="body2"
                  sx={{ m: 0, fontWeight: 600, textAlign: 'right' }}
                  data-figure={figure}
                >
                  {camp[figure]}
                </Typography>
              </Box>
            ))}
            <Typography component="dt" variant="body2" color="text.secondary">
              {label('ocupacion')}
            </Typography>
            <Typography component="dd" variant="h6" sx={{ m: 0, textAlign: 'right' }} data-figure="ocupacion">
              {`${camp.ocupacion} %`}
            </Typography>
          </Box>
          <Box
            sx={{ flex: '1 1 auto', minWidth: 0, maxWidth: 460, height: 180 }}
            role="img"
            aria-label={translate('hotel.screens.dashboard.chart', { camp: camp.Campamento })}
          >
            <ChartTexts noData={translate('hotel.screens.noData')}>
              <PieChart
                height={180}
                series={[
                  {
                    innerRadius: 40,
                    paddingAngle: 1,
                    data: SLICES.map((s) => ({
                      id: s.figure,
                      value: camp[s.figure],
                      label: label(s.figure),
                      color: s.colour,
                    })),
                  },
                ]}
                slotProps={{
                  legend: { direction: 'vertical', position: { vertical: 'middle', horizontal: 'end' } },
                }}
              />
            </ChartTexts>
          </Box>
        </Stack>
      </CardContent>
    </Card>
  );
}

function Dashboard({ title }: { title: string }) {
  const translate = useTranslate();
  const board = useQuery({
    queryKey: ['hotel-dashboard'],
    queryFn: hotelApi.dashboard,
    refetchInterval: 60_000,
  });
  const data = board.data;
  const list = (key: string) => translate(`hotel.screens.dashboard.lists.${key}`);
  return (
    <>
      <ScreenHeader title={title}>
        {data && (
          <Typography color="text.secondary" data-testid="dashboard-today">
            {translate('hotel.screens.dashboard.today', { date: formatDate(data.hoy) })}
          </Typography>
        )}
      </ScreenHeader>
      {board.isFetching && !data && <LinearProgress aria-label={translate('ra.page.loading')} />}
      <Refusal error={board.error} />
      {data && (
        <>
          <Stack direction="row" useFlexGap flexWrap="wrap" spacing={2}>
            {data.campamentos.map((camp) => (
              <CampCard key={camp.IdCampamento} camp={camp} />
            ))}
          </Stack>
          <Box
            sx={{
              display: 'grid',
              gap: 2,
              gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 460px), 1fr))',
            }}
          >
            <StayLines id="arrivals-today" title={list('arrivalsToday')} lines={data.llegadas.hoy} />
            <StayLines id="arrivals-tomorrow" title={list('arrivalsTomorrow')} lines={data.llegadas.manana} />
            <StayLines id="departures-today" title={list('departuresToday')} lines={data.salidas.hoy} />
            <StayLines
              id="departures-tomorrow"
              title={list('departuresTomorrow')}
              lines={data.salidas.manana}
            />
            <StayLines id="overstays" title={list('overstays')} lines={data.excedidos} reasons />
          </Box>
        </>
      )}
    </>
  );
}

/**
 * The lodging dashboard (spec section 2 Hotel): each camp's beds tonight (occupied, reserved,
 * free, out of service, the occupancy), the arrivals and departures of today and tomorrow, and
 * who stays past the reservation or the accreditation.
 */
export default function DashboardScreen() {
  const translate = useTranslate();
  const title = translate('app.menu.items.lodgingDashboard');
  return (
    <HotelScreen title={title} testId="hotel-dashboard">
      {() => <Dashboard title={title} />}
    </HotelScreen>
  );
}
