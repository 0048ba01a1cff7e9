import AttachFileIcon from '@mui/icons-material/AttachFile';
import DownloadIcon from '@mui/icons-material/Download';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  LinearProgress,
  Link,
  Stack,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tabs,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { Pager } from '../../../components/grid/Pager.js';
import { saveWorkbook } from '../../../files.js';
import { useConsoleTitle } from '../../../resources/ScreenTitle.js';
import { keepSessionAlive } from '../../../session/http.js';
import { screenPath } from '../api.js';
import { type BulkEntity, type BulkProgress, type BulkRow, bulkApi, entityOf } from './api.js';
import { type BulkChoice, CompanyTab } from './CompanyTab.js';

const COUNTS = ['loaded', 'observed', 'processed', 'successful', 'toProcess'] as const;
const ROW_COLOURS = { P: 'default', V: 'info', E: 'error', S: 'success', F: 'warning' } as const;

/** Whether an upload's job is checking or processing it: its progress is read again and again. */
const underWay = (progress?: BulkProgress) =>
  !!progress && (progress.running || progress.Estado === 'R' || progress.Estado === 'C');

/** Section 4's counts of an upload, as chips. */
function Counts({ progress }: { progress: BulkProgress }) {
  const translate = useTranslate();
  return (
    <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap data-testid="bulk-counts">
      {COUNTS.map((key) => (
        <Chip
          key={key}
          data-count={key}
          label={`${translate(`bulk.counts.${key}`)}: ${progress[key]}`}
          color={key === 'observed' && progress[key] ? 'error' : key === 'successful' ? 'success' : 'default'}
          variant="outlined"
        />
      ))}
    </Stack>
  );
}

/** An upload's rows (all, or some states), a page at a time, each with its errors or its request. */
function Rows({
  code,
  entity,
  type,
  states,
  version,
}: {
  code: string;
  entity: BulkEntity;
  /** The requests' type: M mobilisations, A requirement updates (opened under their own area). */
  type: 'M' | 'A';
  states?: string;
  version: string;
}) {
  const translate = useTranslate();
  const [page, setPage] = useState(0);
  const take = 50;
  const { data } = useQuery({
    queryKey: ['bulk-rows', code, states, page, version],
    queryFn: () => bulkApi.rows(code, page * take, take, states),
    placeholderData: keepPreviousData,
  });
  const errorsOf = (row: BulkRow) =>
    Object.entries(row.Errores)
      .map(([key, message]) => (key === '*' ? message : `${data?.headings[key] ?? key}: ${message}`))
      .join(' · ');
  return (
    <Box>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" data-testid="bulk-rows">
          <TableHead>
            <TableRow>
              <TableCell>{translate('bulk.columns.Fila')}</TableCell>
              <TableCell>{translate('bulk.columns.Documento')}</TableCell>
              <TableCell>{translate('bulk.columns.Estado')}</TableCell>
              <TableCell>{translate('bulk.columns.IdSolicitud')}</TableCell>
              <TableCell>{translate('bulk.columns.Archivos')}</TableCell>
              <TableCell>{translate('bulk.columns.Errores')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(data?.rows ?? []).map((row) => (
              <TableRow key={row.Fila} data-row={row.Fila} data-state={row.Estado}>
                <TableCell>{row.Fila}</TableCell>
                <TableCell>{row.Documento}</TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    color={ROW_COLOURS[row.Estado]}
                    label={translate(`enums.bulkRowStatus.${row.Estado}`)}
                  />
                </TableCell>
                <TableCell>
                  {row.IdSolicitud ? (
                    <Link
                      component={RouterLink}
                      to={screenPath('solicitante', entity, row.IdSolicitud, type)}
                    >
                      {String(row.IdSolicitud).padStart(8, '0')}
                    </Link>
                  ) : (
                    ''
                  )}
                </TableCell>
                <TableCell title={row.Archivos.join('\n')}>
                  {row.Archivos.length
                    ? translate('bulk.pdfCount', { smart_count: row.Archivos.length })
                    : ''}
                </TableCell>
                <TableCell sx={{ color: 'error.main' }}>{errorsOf(row) || ''}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
      <Pager
        count={data?.total ?? 0}
        page={page}
        rowsPerPage={take}
        rowsPerPageOptions={[take]}
        onPageChange={(_, p) => setPage(p)}
      />
    </Box>
  );
}

/** A labelled file choice: the button in the user's language, then the chosen file's name. */
function FilePicker(props: {
  id: string;
  label: string;
  help?: string;
  accept: string;
  file: File | null;
  onChange: (file: File | null) => void;
}) {
  const translate = useTranslate();
  return (
    <Stack spacing={0.5}>
      <Typography variant="body2" id={`${props.id}-label`}>
        {props.label}
      </Typography>
      <Stack direction="row" spacing={1} alignItems="center">
        <Button component="label" variant="outlined" size="small" startIcon={<AttachFileIcon />}>
          {translate('bulk.choose')}
          <input
            id={props.id}
            data-testid={props.id}
            type="file"
            hidden
            accept={props.accept}
            aria-labelledby={`${props.id}-label`}
            aria-describedby={props.help ? `${props.id}-help` : undefined}
            onChange={(e) => props.onChange(e.target.files?.[0] ?? null)}
          />
        </Button>
        <Typography variant="body2" color={props.file ? 'text.primary' : 'text.secondary'} noWrap>
          {props.file ? props.file.name : translate('bulk.noFileChosen')}
        </Typography>
      </Stack>
      {props.help && (
        <Typography id={`${props.id}-help`} variant="caption" color="text.secondary">
          {props.help}
        </Typography>
      )}
    </Stack>
  );
}

/**
 * The bulk request screen of spec section 2: company data (contract, profile, the template),
 * person file (the filled file uploaded and checked), data validation (each row's errors, then
 * processing with a progress bar) and processed requests (the counts, the rows with their request
 * numbers, Excel). The upload's code stays in the address, so the page can be closed and opened
 * again while the server works.
 */
export default function BulkScreen() {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  useConsoleTitle(translate('bulk.title'));
  const [params, setParams] = useSearchParams();
  const code = params.get('codigo') ?? '';
  const [tab, setTab] = useState(code ? 2 : 0);
  const [choice, setChoice] = useState<BulkChoice>({
    kind: params.get('tipo') === 'A' ? 'A' : 'M',
    entity: entityOf(params.get('entidad')),
    contract: '',
    profile: '',
    requirement: '',
  });
  const { kind, contract, profile, requirement } = choice;
  const [file, setFile] = useState<File | null>(null);
  const [zip, setZip] = useState<File | null>(null);
  const [unused, setUnused] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const progress = useQuery({
    queryKey: ['bulk-progress', code],
    queryFn: () => bulkApi.progress(code),
    enabled: !!code,
    refetchInterval: (query) => (underWay(query.state.data) ? 700 : false),
  });
  const current = progress.data;
  const working = underWay(current);
  // Each progress read of a running job counts as the user's activity: a long job's screen stays open.
  useEffect(() => {
    if (working && progress.dataUpdatedAt) keepSessionAlive();
  }, [working, progress.dataUpdatedAt]);
  const version = current ? `${current.processed}:${current.toCheck}` : '';

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setProblem(null);
    try {
      await action();
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  const download = () =>
    run(async () => {
      const answer = await bulkApi.template(
        Number(contract),
        Number(profile),
        kind === 'A' ? Number(requirement) : null,
      );
      saveWorkbook(answer);
    });
  const send = () =>
    run(async () => {
      if (!file) return;
      const answer = await bulkApi.upload(
        Number(contract),
        Number(profile),
        kind === 'A' ? Number(requirement) : null,
        file,
        zip,
      );
      if (zip) notify('bulk.attached', { type: 'info', messageArgs: { smart_count: answer.attached } });
      setUnused(
        answer.unusedFiles.length
          ? translate('bulk.unusedFiles', {
              smart_count: answer.unusedFiles.length,
              names: answer.unusedFiles.slice(0, 10).join(', ') + (answer.unusedFiles.length > 10 ? '…' : ''),
            })
          : null,
      );
      setParams({ codigo: answer.CodigoCargaMasiva });
      queryClient.setQueryData(['bulk-progress', answer.CodigoCargaMasiva], answer);
      setTab(2);
    });
  const process = () =>
    run(async () => {
      const answer = await bulkApi.process(code);
      queryClient.setQueryData(['bulk-progress', code], answer);
      await queryClient.invalidateQueries({ queryKey: ['bulk-progress', code] });
      setTab(3);
    });
  const exportProcessed = () =>
    run(async () => {
      const answer = await bulkApi.processed(code);
      saveWorkbook(answer);
      notify('ra.notification.updated', { messageArgs: { smart_count: 1 } });
    });

  const ready = contract !== '' && profile !== '' && (kind === 'M' || requirement !== '');
  const done = current ? current.processed : 0;
  const total = current ? current.processed + current.toProcess : 0;
  const running = !!current && (current.running || current.Estado === 'R');
  const checking = current?.Estado === 'C';
  const checkedRows = current ? current.loaded - current.toCheck : 0;

  return (
    <Card sx={{ m: 1 }}>
      <CardContent>
        <Typography variant="h6" component="h1" gutterBottom>
          {translate('bulk.title')}
          {code ? ` · ${code}` : ''}
          {current?.IdRequisito ? ` · ${translate('bulk.kinds.A')}` : ''}
        </Typography>
        <Tabs value={tab} onChange={(_, v) => setTab(v)} variant="scrollable">
          <Tab label={translate('bulk.tabs.company')} />
          <Tab label={translate('bulk.tabs.file')} />
          <Tab label={translate('bulk.tabs.validation')} disabled={!code} />
          <Tab label={translate('bulk.tabs.processed')} disabled={!code} />
        </Tabs>
        {problem && (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="bulk-problem">
            {problem}
          </Alert>
        )}
        <Box sx={{ pt: 2 }}>
          {tab === 0 && (
            <CompanyTab
              choice={choice}
              onChoice={(patch) => setChoice((before) => ({ ...before, ...patch }))}
              ready={ready}
              busy={busy}
              onDownload={download}
              onNext={() => setTab(1)}
            />
          )}
          {tab === 1 && (
            <Stack spacing={2} maxWidth={560}>
              {!ready && <Alert severity="info">{translate('bulk.chooseContract')}</Alert>}
              <FilePicker
                id="bulk-file"
                label={translate('bulk.file')}
                accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                file={file}
                onChange={setFile}
              />
              <FilePicker
                id="bulk-attachments"
                label={translate('bulk.attachments')}
                help={translate('bulk.attachmentsHelp')}
                accept=".zip,application/zip"
                file={zip}
                onChange={setZip}
              />
              <Button
                variant="contained"
                startIcon={<UploadFileIcon />}
                disabled={!ready || !file || busy}
                onClick={send}
              >
                {translate('bulk.upload')}
              </Button>
              {busy && <LinearProgress aria-label={translate('ra.page.loading')} />}
            </Stack>
          )}
          {tab === 2 && code && current && (
            <Stack spacing={2}>
              <Counts progress={current} />
              {checking && (
                <Box>
                  <LinearProgress
                    variant="determinate"
                    value={current.loaded ? (100 * checkedRows) / current.loaded : 0}
                    data-testid="bulk-checking"
                    aria-valuetext={translate('bulk.checking', { done: checkedRows, total: current.loaded })}
                  />
                  <Typography variant="caption">
                    {translate('bulk.checking', { done: checkedRows, total: current.loaded })}
                  </Typography>
                </Box>
              )}
              {unused && (
                <Alert severity="warning" data-testid="bulk-unused">
                  {unused}
                </Alert>
              )}
              <Stack direction="row" spacing={1}>
                <Button
                  variant="contained"
                  startIcon={<PlayArrowIcon />}
                  disabled={busy || running || checking || current.toProcess === 0}
                  onClick={process}
                >
                  {translate('bulk.process')}
                </Button>
                <Button onClick={() => setTab(1)}>{translate('bulk.upload')}</Button>
              </Stack>
              <Rows
                code={code}
                entity={current.IdEntidad}
                type={current.IdRequisito ? 'A' : 'M'}
                version={version}
              />
            </Stack>
          )}
          {tab === 3 && code && current && (
            <Stack spacing={2}>
              <Counts progress={current} />
              <Box>
                <LinearProgress
                  variant="determinate"
                  value={total ? (100 * done) / total : 100}
                  data-testid="bulk-progress"
                  aria-valuetext={translate('bulk.progress', { done, total })}
                />
                <Typography variant="caption">{translate('bulk.progress', { done, total })}</Typography>
              </Box>
              <Stack direction="row" spacing={1}>
                <Button startIcon={<DownloadIcon />} disabled={busy} onClick={exportProcessed}>
                  {translate('bulk.export')}
                </Button>
              </Stack>
              <Rows
                code={code}
                entity={current.IdEntidad}
                type={current.IdRequisito ? 'A' : 'M'}
                states="S,F"
                version={version}
              />
            </Stack>
          )}
        </Box>
      </CardContent>
    </Card>
  );
}
