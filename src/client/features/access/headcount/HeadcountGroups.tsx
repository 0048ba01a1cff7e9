import {
  Box,
  Card,
  CardContent,
  CardHeader,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
} from '@mui/material';
import { useTranslate } from 'react-admin';

export interface GroupRow {
  IdEntidad: 'T' | 'V' | 'P';
  Grupo: string;
  Presentes: number;
  Ausentes: number;
}

/**
 * The headcount by contract or by organisational unit, as the division's headcount mode says
 * (ModoDotacion C or O; none for N): per kind the session sees, each group's present and absent.
 */
export function HeadcountGroups({
  mode,
  groups,
  kinds,
}: {
  mode: string | undefined;
  groups: GroupRow[];
  kinds: Array<'T' | 'V' | 'P'>;
}) {
  const translate = useTranslate();
  if (mode !== 'C' && mode !== 'O') return null;
  const shown = groups.filter((g) => kinds.includes(g.IdEntidad));
  if (!shown.length) return null;
  const title = translate(`headcount.groups.${mode}`);
  return (
    <Card component="section" aria-label={title} data-testid="headcount-groups" data-mode={mode}>
      <CardHeader title={title} slotProps={{ title: { component: 'h2', variant: 'h6' } }} />
      <CardContent sx={{ pt: 0 }}>
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{translate('headcount.groups.kind')}</TableCell>
                <TableCell>{translate(`headcount.groups.group${mode}`)}</TableCell>
                <TableCell align="right">{translate('headcount.present')}</TableCell>
                <TableCell align="right">{translate('headcount.absent')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {shown.map((g) => (
                <TableRow key={`${g.IdEntidad}-${g.Grupo}`} data-group={g.Grupo}>
                  <TableCell>{translate(`headcount.entities.${g.IdEntidad}`)}</TableCell>
                  <TableCell>{g.Grupo}</TableCell>
                  <TableCell align="right">{g.Presentes}</TableCell>
                  <TableCell align="right">{g.Ausentes}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      </CardContent>
    </Card>
  );
}
