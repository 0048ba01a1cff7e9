import AddIcon from '@mui/icons-material/Add';
import { Alert, Box, Button, LinearProgress, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { Pick } from '../../components/fields.js';
import { Refusal } from '../../components/Refusal.js';
import { ScreenHeader } from '../../components/ScreenHeader.js';
import { formatDate } from '../../format.js';
import { type DiningChoices, diningApi, type LastMeal } from './api.js';
import { DiningScreen } from './DiningScreen.js';
import { LastMeals } from './LastMeals.js';
import { ManualMealDialog } from './ManualMealDialog.js';
import { SittingCard } from './SittingCard.js';
import { VoidDialog } from './VoidDialog.js';

/** How often the room's day is read again while the screen is open. */
const REFRESH_MS = 10_000;

function Management({ choices, title }: { choices: DiningChoices; title: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const text = (key: string, options?: Record<string, unknown>) =>
    translate(`dining.screens.management.${key}`, options);
  const rooms = choices.comedores;
  const [roomId, setRoomId] = useState<number | ''>(
    (rooms.find((r) => r.Activo === 'S') ?? rooms[0]).IdComedor,
  );
  const room = rooms.find((r) => r.IdComedor === roomId);
  const [registering, setRegistering] = useState(false);
  const [voiding, setVoiding] = useState<LastMeal>();
  const day = useQuery({
    queryKey: ['dining-day', roomId],
    queryFn: () => diningApi.day(roomId as number),
    enabled: roomId !== '',
    refetchInterval: REFRESH_MS,
  });
  const changed = () => queryClient.invalidateQueries({ queryKey: ['dining-day'] });
  const data = day.data?.comedor.IdComedor === roomId ? day.data : undefined;
  const outside = data?.sinServicio;
  const anyOutside =
    outside && (outside.servidos || outside.anulados || Object.keys(outside.rechazos).length);
  return (
    <>
      <ScreenHeader title={title}>
        <Typography color="text.secondary" data-testid="dining-today">
          {formatDate(data?.fecha ?? choices.hoy)}
        </Typography>
        {rooms.length > 1 && (
          <Pick
            id="dining-room"
            label={translate('dining.screens.room')}
            value={roomId}
            options={rooms.map((r) => ({
              value: r.IdComedor,
              label:
                r.Activo === 'S'
                  ? r.Descripcion
                  : `${r.Descripcion} (${translate('dining.screens.inactive')})`,
            }))}
            onChange={(value) => value !== '' && setRoomId(value)}
            width={320}
          />
        )}
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          disabled={!room}
          onClick={() => setRegistering(true)}
          data-testid="manual-open"
        >
          {text('manual')}
        </Button>
      </ScreenHeader>
      {day.isPending && <LinearProgress aria-label={translate('ra.page.loading')} />}
      <Refusal error={day.error} />
      {data && data.comedor.Activo !== 'S' && <Alert severity="warning">{text('roomInactive')}</Alert>}
      {data && (
        <Box
          data-testid="dining-sittings"
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 260px), 1fr))',
          }}
        >
          {data.servicios.map((s) => (
            <SittingCard
              key={s.IdServicio}
              id={String(s.IdServicio)}
              title={s.Descripcion}
              service={{ hours: `${s.HoraInicio} – ${s.HoraFin}`, open: s.abierto }}
              counts={s}
              capacity={data.capacidad}
            />
          ))}
          {outside && anyOutside ? (
            <SittingCard id="none" title={text('outside')} counts={outside} capacity={null} />
          ) : null}
        </Box>
      )}
      {data && !data.servicios.length && <Alert severity="info">{text('noServices')}</Alert>}
      {data && <LastMeals meals={data.ultimos} onVoid={setVoiding} />}
      {registering && room && (
        <ManualMealDialog
          room={room}
          initialService={data?.servicios.find((s) => s.abierto)?.IdServicio}
          onClose={() => setRegistering(false)}
          onDone={async (meal) => {
            setRegistering(false);
            await changed();
            notify('dining.screens.management.registered', {
              type: 'success',
              messageArgs: { name: meal.persona?.Nombres ?? '' },
            });
          }}
        />
      )}
      {voiding && (
        <VoidDialog
          meal={voiding}
          onClose={() => setVoiding(undefined)}
          onDone={async () => {
            setVoiding(undefined);
            await changed();
            notify('dining.screens.management.voidedDone', { type: 'success' });
          }}
        />
      )}
    </>
  );
}

/**
 * Dining hall management: a room's sittings of today followed live (served against capacity,
 * voided, refused by reason, its last meals), meals registered by hand when a reader is down,
 * and wrong meals voided with their reason.
 */
export default function ManagementScreen() {
  const translate = useTranslate();
  const title = translate('app.menu.items.diningManagement');
  return (
    <DiningScreen title={title} testId="dining-management">
      {(choices) => <Management choices={choices} title={title} />}
    </DiningScreen>
  );
}
