import UploadFileIcon from '@mui/icons-material/UploadFile';
import {
  Alert,
  Button,
  Card,
  CardContent,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
} from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { addDays } from '../../../shared/dates.js';
import type { LodgingTurn, ProposalLine } from '../../../shared/hotel.js';
import { DateInput, Pick } from '../../components/fields.js';
import { Refusal } from '../../components/Refusal.js';
import { ScreenHeader } from '../../components/ScreenHeader.js';
import { type CampChoices, type CrewSource, hotelApi } from './api.js';
import { campOptions, RoomTypePick, siteToday, TurnPick } from './fields.js';
import { HotelScreen } from './HotelScreen.js';
import { ProposalTable } from './ProposalTable.js';
import { useStaysChanged } from './StayDialog.js';

type Source = 'contract' | 'documents' | 'file';
/** The largest workbook the proposal call takes (its base64 is at most 4 000 000 characters). */
const MAX_FILE_BYTES = 2_900_000;

/** A file's bytes as base64, read in the browser. */
const base64Of = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).split(',', 2)[1] ?? '');
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });

function MassReservation({ choices, title }: { choices: CampChoices; title: string }) {
  const translate = useTranslate();
  const field = (name: string) => translate(`resources.reservation.fields.${name}`);
  const changed = useStaysChanged();
  const today = siteToday();
  const [camp, setCamp] = useState<number | ''>(
    choices.campamentos.length === 1 ? choices.campamentos[0].IdCampamento : '',
  );
  const [from, setFrom] = useState<string | undefined>(today);
  const [to, setTo] = useState<string | undefined>(addDays(today, 7));
  const [turn, setTurn] = useState<LodgingTurn>('C');
  const [type, setType] = useState<number | ''>('');
  const [source, setSource] = useState<Source>('contract');
  const [contract, setContract] = useState<number | ''>('');
  const [documents, setDocuments] = useState('');
  const [file, setFile] = useState<File>();
  const contracts = useQuery({ queryKey: ['hotel-contracts'], queryFn: hotelApi.contracts });
  const crew = (): CrewSource | undefined => {
    if (source === 'contract') return contract === '' ? undefined : { IdContrato: contract };
    if (source === 'documents') {
      const list = [...new Set(documents.split(/[\s,;]+/).map((d) => d.trim().toUpperCase()))].filter(
        Boolean,
      );
      return list.length ? { Documentos: list } : undefined;
    }
    return undefined;
  };
  const dates = () => ({
    IdCampamento: camp as number,
    FechaInicio: from as string,
    FechaFin: to as string,
    Turno: turn,
    ...(type !== '' && { IdTipoHabitacion: type }),
  });
  const propose = useMutation({
    mutationFn: async () => {
      if (source === 'file') {
        if (!file) throw new Error(translate('hotel.screens.mass.missing'));
        if (file.size > MAX_FILE_BYTES) throw new Error(translate('hotel.screens.mass.fileTooLarge'));
        return hotelApi.propose({ ...dates(), ArchivoBase64: await base64Of(file) });
      }
      const who = crew();
      if (!who) throw new Error(translate('hotel.screens.mass.missing'));
      return hotelApi.propose({ ...dates(), ...who });
    },
    onMutate: () => book.reset(),
  });
  const lines: ProposalLine[] = propose.data ?? [];
  const placed = lines.filter((l) => l.IdCama !== null && l.IdPersona !== null);
  const book = useMutation({
    mutationFn: () =>
      hotelApi.book({
        ...dates(),
        Asignaciones: placed.map((l) => ({ IdPersona: l.IdPersona as number, IdCama: l.IdCama as number })),
      }),
    onSuccess: () => changed(),
  });
  const ready = camp !== '' && Boolean(from) && Boolean(to);
  return (
    <>
      <ScreenHeader title={title} />
      <Card>
        <CardContent>
          <Stack spacing={2}>
            <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap" alignItems="center">
              <Pick
                id="mass-camp"
                label={field('IdCampamento')}
                value={camp}
                options={campOptions(choices.campamentos)}
                onChange={setCamp}
                required
                width={260}
              />
              <DateInput
                id="mass-from"
                label={field('FechaInicio')}
                value={from}
                onChange={setFrom}
                min={today}
              />
              <DateInput id="mass-to" label={field('FechaFin')} value={to} onChange={setTo} min={from} />
              <TurnPick id="mass-turn" value={turn} onChange={setTurn} />
              <RoomTypePick
                id="mass-room-type"
                label={field('IdTipoHabitacion')}
                choices={choices}
                value={type}
                onChange={setType}
              />
            </Stack>
            <ToggleButtonGroup
              size="small"
              exclusive
              value={source}
              onChange={(_, value: Source | null) => value && setSource(value)}
              aria-label={translate('hotel.screens.mass.source')}
              data-testid="mass-source"
              sx={{ flexWrap: 'wrap' }}
            >
              {(['contract', 'documents', 'file'] as const).map((s) => (
                <ToggleButton key={s} value={s} data-source={s}>
                  {translate(`hotel.screens.mass.sources.${s}`)}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
            {source === 'contract' && (
              <Pick
                id="mass-contract"
                label={translate('resources.contract.name', { smart_count: 1 })}
                value={contract}
                options={(contracts.data ?? []).map((c) => ({
                  value: c.IdContrato,
                  label: c.Asunto ? `${c.NumeroContrato} · ${c.Asunto}` : c.NumeroContrato,
                }))}
                onChange={setContract}
                width={520}
              />
            )}
            {source === 'documents' && (
              <TextField
                id="mass-documents"
                label={translate('hotel.screens.mass.documents')}
                helperText={translate('hotel.screens.mass.documentsHelp')}
                multiline
                minRows={4}
                maxRows={12}
                value={documents}
                onChange={(event) => setDocuments(event.target.value)}
                sx={{ maxWidth: 520 }}
              />
            )}
            {source === 'file' && (
              <Stack direction="row" spacing={2} alignItems="center" useFlexGap flexWrap="wrap">
                <Button component="label" variant="outlined" startIcon={<UploadFileIcon />}>
                  {translate('hotel.screens.mass.chooseFile')}
                  <input
                    hidden
                    type="file"
                    accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                    onChange={(event) => setFile(event.target.files?.[0])}
                    data-testid="mass-file"
                  />
                </Button>
                <span>{file ? file.name : translate('hotel.screens.mass.fileHelp')}</span>
              </Stack>
            )}
            <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap">
              <Button
                variant="contained"
                disabled={!ready || propose.isPending}
                onClick={() => propose.mutate()}
                data-testid="mass-propose"
              >
                {translate('hotel.screens.mass.propose')}
              </Button>
              <Button
                variant="contained"
                color="success"
                disabled={!placed.length || book.isPending || book.isSuccess}
                onClick={() => book.mutate()}
                data-testid="mass-book"
              >
                {translate('hotel.screens.mass.book', { smart_count: placed.length })}
              </Button>
            </Stack>
            <Refusal error={propose.error} testId="mass-refusal" />
            <Refusal error={book.error} testId="mass-book-refusal" />
            {book.data && (
              <Alert severity="success" data-testid="mass-booked">
                {translate('hotel.screens.mass.booked', {
                  smart_count: book.data.reservadas,
                  lot: book.data.lote,
                })}
              </Alert>
            )}
          </Stack>
        </CardContent>
      </Card>
      {propose.data && <ProposalTable lines={lines} placed={placed.length} />}
    </>
  );
}

/**
 * Mass reservation (spec section 2 Hotel): a crew — a contract's people, documents pasted one a
 * line, or the first column of an Excel file — placed in free beds for the same nights; the
 * proposal shows where each goes or why not; booking takes the placed ones all or nothing.
 */
export default function MassReservationScreen() {
  const translate = useTranslate();
  const title = translate('app.menu.items.massReservation');
  return (
    <HotelScreen title={title} testId="hotel-mass">
      {(choices) => <MassReservation choices={choices} title={title} />}
    </HotelScreen>
  );
}
