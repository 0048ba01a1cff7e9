import SearchIcon from '@mui/icons-material/Search';
import {
  Box,
  Button,
  Card,
  CardContent,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { Refusal } from '../../components/Refusal.js';
import { formatDate } from '../../format.js';
import { hotelApi } from './api.js';
import { StateChip } from './fields.js';

/** A person's stays in the session's camps, found by the person's document. */
export function PersonStays() {
  const translate = useTranslate();
  const field = (name: string) => translate(`resources.reservation.fields.${name}`);
  const [text, setText] = useState('');
  const [document, setDocument] = useState('');
  const stays = useQuery({
    queryKey: ['hotel-person-stays', document],
    queryFn: () => hotelApi.stays(document),
    enabled: document.length >= 4,
    retry: false,
  });
  const title = translate('hotel.screens.reports.stays');
  const rows = stays.data ?? [];
  return (
    <Card data-testid="person-stays">
      <CardContent>
        <Stack
          component="form"
          direction="row"
          spacing={2}
          useFlexGap
          flexWrap="wrap"
          alignItems="center"
          onSubmit={(event) => {
            event.preventDefault();
            setDocument(text.trim().toUpperCase());
          }}
        >
          <Typography variant="subtitle1" component="h2" sx={{ flex: '1 1 auto' }}>
            {title}
          </Typography>
          <TextField
            id="person-stays-document"
            size="small"
            label={translate('hotel.screens.document')}
            value={text}
            onChange={(event) => setText(event.target.value)}
            slotProps={{ htmlInput: { maxLength: 20, minLength: 4 } }}
            sx={{ width: { xs: '100%', sm: 240 } }}
          />
          <Button
            type="submit"
            variant="outlined"
            startIcon={<SearchIcon />}
            disabled={text.trim().length < 4}
          >
            {translate('ra.action.search')}
          </Button>
        </Stack>
      </CardContent>
      <Refusal error={stays.error} sx={{ mx: 2, mb: 2 }} testId="person-stays-refusal" />
      {rows.length > 0 && (
        <>
          <Typography sx={{ px: 2 }} data-testid="person-stays-name">
            {`${rows[0].Persona ?? ''} · ${rows[0].Documento ?? document}`}
          </Typography>
          <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={title}>
            <Table size="small" aria-label={title}>
              <TableHead>
                <TableRow>
                  {['IdCampamento', 'IdCama', 'FechaInicio', 'FechaFin', 'Turno', 'Estado', 'Origen'].map(
                    (f) => (
                      <TableCell key={f}>{field(f)}</TableCell>
                    ),
                  )}
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((s) => (
                  <TableRow key={s.IdReserva} data-reservation={s.IdReserva}>
                    <TableCell>{s.Campamento}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{s.Cama}</TableCell>
                    <TableCell>{formatDate(s.FechaInicio)}</TableCell>
                    <TableCell>{formatDate(s.FechaFin)}</TableCell>
                    <TableCell>{translate(`enums.lodgingTurn.${s.Turno}`)}</TableCell>
                    <TableCell>
                      <StateChip state={s.Estado} />
                    </TableCell>
                    <TableCell>{translate(`enums.reservationOrigin.${s.Origen}`)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        </>
      )}
    </Card>
  );
}
