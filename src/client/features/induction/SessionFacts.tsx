import { Box, Card, CardContent, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatDate } from '../../format.js';
import type { SessionDetail } from './api.js';

/** A session's when, where, who and how many, and what passes its course. */
export function SessionFacts({ detail }: { detail: SessionDetail }) {
  const translate = useTranslate();
  const field = (name: string) => translate(`resources.training-session.fields.${name}`);
  const text = (key: string) => translate(`induction.screens.session.${key}`);
  const facts: Array<[string, string, string]> = [
    ['date', field('Fecha'), formatDate(detail.Fecha)],
    ['hours', text('hours'), `${detail.HoraInicio}–${detail.HoraFin}`],
    ['room', field('Sala'), detail.Sala],
    ['trainer', field('IdInstructor'), detail.Instructor],
    ['seats', text('seats'), `${detail.Reservados}/${detail.Capacidad}`],
    ['passing', text('passing'), String(detail.NotaMinima)],
    [
      'modality',
      translate('resources.course.fields.Modalidad'),
      translate(`enums.courseModality.${detail.Modalidad}`),
    ],
  ];
  return (
    <Card>
      <CardContent
        component="dl"
        sx={{
          m: 0,
          display: 'grid',
          gap: 2,
          gridTemplateColumns: {
            xs: 'repeat(2, minmax(0, 1fr))',
            sm: 'repeat(4, minmax(0, 1fr))',
            lg: 'repeat(7, minmax(0, 1fr))',
          },
        }}
        data-testid="session-facts"
      >
        {facts.map(([id, label, value]) => (
          <Box key={id} sx={{ minWidth: 0 }}>
            <Typography component="dt" variant="caption" color="text.secondary">
              {label}
            </Typography>
            <Typography component="dd" variant="body1" sx={{ m: 0, overflowWrap: 'anywhere' }} data-fact={id}>
              {value}
            </Typography>
          </Box>
        ))}
      </CardContent>
    </Card>
  );
}
