import {
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Stack,
  type Theme,
  Typography,
  useMediaQuery,
} from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { MEAL_REASONS, type MealReason } from '../../../shared/dining.js';
import { Grid, type GridColumn } from '../../components/grid/Grid.js';
import type { LastMeal } from './api.js';
import { reasonText } from './texts.js';

/** The meals a phone shows before the supervisor asks for them all. */
const ON_A_PHONE = 10;

/** What a meal was: served or refused, and voided (with why). */
function Result({ meal }: { meal: LastMeal }) {
  const translate = useTranslate();
  const voided = meal.Anulado === 'S';
  return (
    <Box sx={{ minWidth: { md: 120 } }}>
      <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
        <Chip
          size="small"
          variant="outlined"
          color={meal.Resultado === 'P' ? 'success' : 'error'}
          label={translate(`dining.screens.management.result.${meal.Resultado}`)}
          data-result={meal.Resultado}
        />
        {voided && (
          <Chip
            size="small"
            color="warning"
            label={translate('dining.screens.management.voidedYes')}
            data-voided="true"
          />
        )}
      </Stack>
      {voided && meal.MotivoAnulacion && (
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.5 }}>
          {meal.MotivoAnulacion}
        </Typography>
      )}
    </Box>
  );
}

/**
 * A room's last meals of the day, newest first: who, when, for which service, served or refused
 * and why, from a reader or by hand, voided; a served meal not voided can be voided. A phone shows
 * the newest few until asked for all.
 */
export function LastMeals({ meals, onVoid }: { meals: LastMeal[]; onVoid(meal: LastMeal): void }) {
  const translate = useTranslate();
  const narrow = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'), { noSsr: true });
  const [all, setAll] = useState(false);
  const text = (key: string, options?: Record<string, unknown>) =>
    translate(`dining.screens.management.${key}`, options);
  const column = (key: string) => translate(`dining.screens.management.columns.${key}`);
  const columns: GridColumn<LastMeal>[] = [
    {
      id: 'Nombres',
      label: column('Nombres'),
      render: (meal) => (
        <Box
          component="span"
          sx={{ display: 'inline-block', minWidth: { md: 150 } }}
          data-meal={meal.IdConsumo}
        >
          {meal.Nombres ?? '—'}
          <Typography component="span" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
            {meal.Documento}
          </Typography>
        </Box>
      ),
    },
    { id: 'Hora', label: column('Hora'), render: (meal) => meal.Hora.slice(0, 8) },
    { id: 'Servicio', label: column('Servicio'), render: (meal) => meal.Servicio ?? '—' },
    { id: 'Compania', label: column('Compania'), render: (meal) => meal.Compania ?? '—' },
    { id: 'Resultado', label: column('Resultado'), render: (meal) => <Result meal={meal} /> },
    {
      id: 'Motivo',
      label: column('Motivo'),
      // The reason in words with the meal's service; the server's text stands for a code of its own.
      render: (meal) =>
        meal.Resultado === 'P'
          ? ''
          : MEAL_REASONS.includes(meal.CodigoMotivo as MealReason)
            ? reasonText(translate, meal.CodigoMotivo, { service: meal.Servicio ?? undefined })
            : (meal.Motivo ?? meal.CodigoMotivo),
    },
    {
      id: 'Origen',
      label: column('Origen'),
      render: (meal) => translate(`dining.screens.origin.${meal.Origen}`, { _: meal.Origen }),
    },
    {
      id: 'accion',
      label: column('accion'),
      render: (meal) =>
        meal.Resultado === 'P' && meal.Anulado === 'N' ? (
          <Button
            size="small"
            color="error"
            variant="outlined"
            onClick={() => onVoid(meal)}
            data-void={meal.IdConsumo}
          >
            {text('void')}
          </Button>
        ) : null,
    },
  ];
  const shown = narrow && !all ? meals.slice(0, ON_A_PHONE) : meals;
  const title = text('last');
  return (
    <Card data-testid="dining-last-meals">
      <CardContent sx={{ pb: 0 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
      </CardContent>
      <Grid
        label={title}
        columns={columns}
        rows={shown}
        total={shown.length}
        state={{ page: 0, perPage: shown.length }}
        onState={() => undefined}
        rowKey={(meal) => meal.IdConsumo}
        empty={text('noMeals')}
        paged={false}
      />
      {shown.length < meals.length && (
        <Box sx={{ px: 2, pb: 2 }}>
          <Button onClick={() => setAll(true)} data-testid="last-meals-all">
            {text('showAll', { count: meals.length })}
          </Button>
        </Box>
      )}
    </Card>
  );
}
