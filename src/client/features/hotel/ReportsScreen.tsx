import DownloadIcon from '@mui/icons-material/Download';
import {
  Box,
  Button,
  Card,
  CardContent,
  LinearProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { addDays, daysBetween } from '../../../shared/dates.js';
import { ChartTexts } from '../../components/ChartTexts.js';
import { DateInput, Pick } from '../../components/fields.js';
import { Refusal } from '../../components/Refusal.js';
import { ScreenHeader } from '../../components/ScreenHeader.js';
import { saveWorkbook } from '../../files.js';
import { formatDate } from '../../format.js';
import { type CampChoices, hotelApi } from './api.js';
import { CELL_LOOK } from './cells.js';
import { campOptions, siteToday } from './fields.js';
import { HotelScreen } from './HotelScreen.js';
import { PersonStays } from './PersonStays.js';

const isDate = (v: string | undefined): v is string => Boolean(v && /^\d{4}-\d{2}-\d{2}$/.test(v));

function Reports({ choices, title }: { choices: CampChoices; title: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  const report = (key: string) => translate(`hotel.report.${key}`);
  const today = siteToday();
  const [from, setFrom] = useState<string | undefined>(addDays(today, -14));
  const [to, setTo] = useState<string | undefined>(addDays(today, 14));
  const [camp, setCamp] = useState<number | ''>('');
  const range = isDate(from) && isDate(to) && daysBetween(from, to) >= 0;
  const params = { desde: from as string, hasta: to as string, ...(camp !== '' && { IdCampamento: camp }) };
  const occupancy = useQuery({
    queryKey: ['hotel-occupancy', from, to, camp],
    queryFn: () => hotelApi.occupancy(params),
    enabled: range,
    placeholderData: keepPreviousData,
  });
  const excel = useMutation({
    mutationFn: () => hotelApi.occupancyExcel(params),
    onSuccess: (file) => {
      saveWorkbook(file);
      notify('app.export.done', { type: 'success' });
    },
  });
  const data = occupancy.data;
  const label = translate('hotel.screens.reports.companies');
  return (
    <>
      <ScreenHeader title={title}>
        <DateInput
          id="reports-from"
          label={translate('hotel.screens.reports.from')}
          value={from}
          onChange={setFrom}
        />
        <DateInput
          id="reports-to"
          label={translate('hotel.screens.reports.to')}
          value={to}
          onChange={setTo}
          min={from}
        />
        {choices.campamentos.length > 1 && (
          <Pick
            id="reports-camp"
            label={translate('resources.reservation.fields.IdCampamento')}
            value={camp}
            options={campOptions(choices.campamentos)}
            onChange={setCamp}
            none={translate('hotel.screens.all')}
          />
        )}
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          disabled={!range || excel.isPending}
          onClick={() => excel.mutate()}
          data-testid="reports-excel"
        >
          {translate('hotel.screens.reports.excel')}
        </Button>
      </ScreenHeader>
      {occupancy.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
      <Refusal error={occupancy.error ?? excel.error} />
      {data && (
        <Card data-testid="reports-chart">
          <CardContent>
            <Typography variant="subtitle1" component="h2">
              {translate('hotel.screens.reports.nights', {
                from: formatDate(data.desde),
                to: formatDate(data.hasta),
              })}
            </Typography>
            <Box role="img" aria-label={translate('hotel.screens.reports.chart')} sx={{ minWidth: 0 }}>
              <ChartTexts noData={translate('hotel.screens.noData')}>
                <BarChart
                  height={280}
                  dataset={data.dias}
                  xAxis={[
                    {
                      scaleType: 'band',
                      dataKey: 'fecha',
                      valueFormatter: (v: string) => formatDate(v).slice(0, 5),
                    },
                  ]}
                  series={[
                    {
                      dataKey: 'ocupadas',
                      label: report('ocupadas'),
                      stack: 'beds',
                      color: CELL_LOOK.occupied.background,
                    },
                    {
                      dataKey: 'reservadas',
                      label: report('reservadas'),
                      stack: 'beds',
                      color: CELL_LOOK.reserved.border,
                    },
                  ]}
                  grid={{ horizontal: true }}
                />
              </ChartTexts>
            </Box>
          </CardContent>
        </Card>
      )}
      {data && (
        <Card data-testid="reports-companies">
          <CardContent sx={{ pb: 1 }}>
            <Typography variant="subtitle1" component="h2">
              {label}
            </Typography>
          </CardContent>
          <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={label}>
            <Table size="small" aria-label={label}>
              <TableHead>
                <TableRow>
                  <TableCell>{report('Compania')}</TableCell>
                  <TableCell align="right">{report('noches')}</TableCell>
                  <TableCell align="right">{report('personas')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.companias.map((c) => (
                  <TableRow key={c.IdCompania} data-company={c.Compania}>
                    <TableCell>{c.Compania}</TableCell>
                    <TableCell align="right">{c.noches}</TableCell>
                    <TableCell align="right">{c.personas}</TableCell>
                  </TableRow>
                ))}
                {!data.companias.length && (
                  <TableRow>
                    <TableCell colSpan={3}>{translate('hotel.screens.noData')}</TableCell>
                  </TableRow>
                )}
              </TableBody>
            </Table>
          </Box>
        </Card>
      )}
      <PersonStays />
    </>
  );
}

/**
 * Lodging reports (spec section 2 Hotel): the beds occupied and reserved per night over a range,
 * the nights and people per company (what a contractor is charged for), as a chart, a table and
 * an Excel workbook; and a person's stays by document.
 */
export default function ReportsScreen() {
  const translate = useTranslate();
  const title = translate('app.menu.items.lodgingReports');
  return (
    <HotelScreen title={title} testId="hotel-reports">
      {(choices) => <Reports choices={choices} title={title} />}
    </HotelScreen>
  );
}
