import {
  Alert,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  CardHeader,
  List,
  ListItem,
  ListItemButton,
  Typography,
} from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { EntityCode } from '../../../../shared/accreditation.js';
import type { CardRow } from '../api.js';
import { STATUS_COLOURS } from '../status.js';
import { ENTITY_ICONS } from './icons.js';

/**
 * A dashboard card of one kind (workers, vehicles, visits): its total and a row per status with
 * its count in the status's colour, each row leading to the requests it counts.
 */
export function StatusCard({
  entity,
  rows,
  rowLink,
  action,
  overdue,
}: {
  entity: EntityCode;
  rows: CardRow[];
  rowLink(row: CardRow): string;
  action?: ReactNode;
  /**
   * Observed requests past a correction deadline, flagged under the rows: `count` of the card's
   * months (part of its Observed row), leading to them, and `other` of other months, leading to those.
   */
  overdue?: { count: number; to: string; other: number; otherTo: string };
}) {
  const translate = useTranslate();
  const Icon = ENTITY_ICONS[entity];
  const total = rows.reduce((sum, row) => sum + row.TOTAL, 0);
  const title = translate(`accreditation.entities.${entity}`);
  return (
    <Card
      sx={{ flex: '1 1 280px', maxWidth: { md: 420 } }}
      component="section"
      aria-label={title}
      data-entity={entity}
    >
      <CardHeader
        avatar={<Icon color="primary" />}
        title={title}
        slotProps={{ title: { component: 'h2', variant: 'h6' } }}
        action={
          <Typography variant="h5" component="p" sx={{ pr: 1, pt: 0.5 }} data-total={entity}>
            {total}
          </Typography>
        }
      />
      <CardContent sx={{ pt: 0 }}>
        <List dense disablePadding>
          {rows.map((row) => (
            <ListItem key={row.ESTADO} disablePadding>
              <ListItemButton
                component={Link}
                to={rowLink(row)}
                data-status-row={row.ESTADO}
                sx={{
                  borderLeft: 6,
                  borderColor: STATUS_COLOURS[row.ESTADO].dashboard,
                  mb: 0.5,
                  borderRadius: 1,
                }}
              >
                <Box sx={{ flex: 1 }}>{translate(`enums.requestStatus.${row.ESTADO}`)}</Box>
                <Typography component="span" sx={{ fontWeight: 600 }} data-count={row.ESTADO}>
                  {row.TOTAL}
                </Typography>
              </ListItemButton>
            </ListItem>
          ))}
        </List>
        {overdue &&
          (
            [
              ['overdue', overdue.count, overdue.to],
              ['overdueElsewhen', overdue.other, overdue.otherTo],
            ] as const
          ).map(
            ([key, count, to]) =>
              count > 0 && (
                <Alert
                  key={key}
                  severity="warning"
                  data-overdue={key === 'overdue' ? entity : `${entity}-other`}
                  action={
                    <Button component={Link} to={to} color="inherit" size="small">
                      {translate('accreditation.dashboard.see')}
                    </Button>
                  }
                  sx={{ mt: 1 }}
                >
                  {translate(`accreditation.dashboard.${key}`, { smart_count: count })}
                </Alert>
              ),
          )}
      </CardContent>
      {action && <CardActions sx={{ justifyContent: 'flex-end' }}>{action}</CardActions>}
    </Card>
  );
}

export function CardButton({ to, label }: { to: string; label: string }) {
  return (
    <Button component={Link} to={to} variant="contained" size="small">
      {label}
    </Button>
  );
}
