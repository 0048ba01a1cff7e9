import PrintIcon from '@mui/icons-material/Print';
import {
  Alert,
  Button,
  Card,
  CardContent,
  FormControl,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { useTranslate } from 'react-admin';
import { HOLDER_KINDS, type HolderKind, type HolderRow } from '../../../shared/identification.js';
import { Grid, gridParams, pageOf, useGridState } from '../../components/grid/Grid.js';
import { Refusal } from '../../components/Refusal.js';
import { saveBase64 } from '../../files.js';
import { useConsoleTitle } from '../../resources/ScreenTitle.js';
import { identificationApi } from './api.js';
import { type CredentialAction, CredentialDialog } from './CredentialDialog.js';
import { useHolderColumns } from './columns.js';

/**
 * Identification management (spec section 2): the division's accredited people (found by name,
 * document, company or card) or vehicles (by plate, brand, model, company or card); each one's
 * active credential; issue, reissue and inactivate one with
 * its reason; and the badges of the chosen ones printed as one PDF, a card a page or ten an A4 sheet.
 */
export default function IdentificationScreen() {
  const translate = useTranslate();
  const title = translate('identification.screen.title');
  useConsoleTitle(title);
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<HolderKind>('P');
  const [text, setText] = useState('');
  const search = useDeferredValue(text.trim());
  const [grid, setGrid] = useGridState(20);
  const holders = useQuery({
    queryKey: ['identification-holders', kind, search, grid],
    queryFn: () =>
      identificationApi.holders({ tipo: kind, ...gridParams(grid), ...(search && { buscar: search }) }),
    placeholderData: keepPreviousData,
  });
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [layout, setLayout] = useState<'tarjeta' | 'a4'>('tarjeta');
  const [dialog, setDialog] = useState<{ action: CredentialAction; holder: HolderRow }>();
  const [notice, setNotice] = useState<string>();
  const print = useMutation({
    mutationFn: () => identificationApi.print([...chosen], layout),
    onSuccess: (file) => {
      saveBase64(file.fileBase64, file.fileName, file.fileType);
      setNotice(translate('identification.screen.printed', { smart_count: chosen.size }));
      setChosen(new Set());
      void queryClient.invalidateQueries({ queryKey: ['identification-holders'] });
    },
  });
  const toggle = (row: HolderRow) =>
    setChosen((before) => {
      const next = new Set(before);
      const id = row.IdCredencial as number;
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const columns = useHolderColumns(kind, chosen, toggle, (row, action) => {
    setNotice(undefined);
    setDialog({ action, holder: row });
  });
  const missingPhotos = (print.data?.sinFoto ?? []).join(', ');
  return (
    <Stack spacing={2} sx={{ mt: 1 }} data-testid="identification-screen">
      <Card>
        <CardContent sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
          <Typography variant="h6" component="h1" sx={{ flex: '1 1 auto' }}>
            {title}
          </Typography>
          <ToggleButtonGroup
            size="small"
            exclusive
            value={kind}
            onChange={(_, value: HolderKind | null) => {
              if (!value) return;
              setKind(value);
              setChosen(new Set());
              setGrid((state) => ({ ...state, page: 0 }));
            }}
            aria-label={title}
            data-testid="identification-kind"
          >
            {HOLDER_KINDS.map((k) => (
              <ToggleButton key={k} value={k}>
                {translate(`identification.screen.kinds.${k}`)}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          <TextField
            size="small"
            id="identification-search"
            label={translate(
              kind === 'V' ? 'identification.screen.searchVehicles' : 'identification.screen.search',
            )}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setGrid((state) => ({ ...state, page: 0 }));
            }}
            fullWidth={false}
            sx={{ width: { xs: '100%', sm: 420 } }}
          />
        </CardContent>
      </Card>
      <Card>
        <CardContent sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
          <Typography sx={{ flex: '1 1 auto' }} data-testid="identification-chosen">
            {translate('identification.screen.chosen', { smart_count: chosen.size })}
          </Typography>
          <FormControl size="small" fullWidth={false} sx={{ width: { xs: '100%', sm: 320 } }}>
            <InputLabel id="identification-layout-label">
              {translate('identification.screen.layout')}
            </InputLabel>
            <Select
              labelId="identification-layout-label"
              id="identification-layout"
              label={translate('identification.screen.layout')}
              value={layout}
              onChange={(event) => setLayout(event.target.value as 'tarjeta' | 'a4')}
            >
              <MenuItem value="tarjeta">{translate('identification.screen.layouts.tarjeta')}</MenuItem>
              <MenuItem value="a4">{translate('identification.screen.layouts.a4')}</MenuItem>
            </Select>
          </FormControl>
          <Button
            variant="contained"
            startIcon={<PrintIcon />}
            disabled={!chosen.size || print.isPending}
            onClick={() => {
              setNotice(undefined);
              print.mutate();
            }}
            data-testid="identification-print"
          >
            {translate('identification.screen.print')}
          </Button>
        </CardContent>
        {notice && (
          <Alert severity="success" sx={{ mx: 2, mb: 2 }} data-testid="identification-notice">
            {notice}
          </Alert>
        )}
        {missingPhotos && (
          <Alert severity="warning" sx={{ mx: 2, mb: 2 }} data-testid="identification-no-photo">
            {translate('identification.screen.printedWithoutPhoto', { names: missingPhotos })}
          </Alert>
        )}
        <Refusal error={print.error} sx={{ mx: 2, mb: 2 }} />
        <Grid
          label={title}
          columns={columns}
          {...pageOf(holders)}
          state={grid}
          onState={setGrid}
          rowKey={(row) => row.Titular}
          empty={translate(
            kind === 'V' ? 'identification.screen.emptyVehicles' : 'identification.screen.empty',
          )}
          testId="identification-grid"
        />
      </Card>
      {dialog && (
        <CredentialDialog
          action={dialog.action}
          holder={dialog.holder}
          onClose={() => setDialog(undefined)}
          onDone={(message) => {
            setDialog(undefined);
            setNotice(message);
            setChosen(new Set());
            void queryClient.invalidateQueries({ queryKey: ['identification-holders'] });
          }}
        />
      )}
    </Stack>
  );
}
