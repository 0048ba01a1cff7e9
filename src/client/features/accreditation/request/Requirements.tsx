import AttachFileIcon from '@mui/icons-material/AttachFile';
import LockOutlined from '@mui/icons-material/LockOutlined';
import VisibilityIcon from '@mui/icons-material/Visibility';
import {
  Alert,
  Box,
  Button,
  FormControl,
  FormHelperText,
  InputLabel,
  MenuItem,
  Paper,
  Select,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { type ReactNode, useId, useRef } from 'react';
import { useTranslate } from 'react-admin';
import { DATUM_MAX_LENGTH, normaliseValue, requestNumber } from '../../../../shared/accreditation.js';
import { formatDate } from '../../../format.js';
import { DATE_FORMAT, DatesProvider, fromDate, toDate } from '../../../resources/form/dates.js';
import type { Choice, Detail, Group, Item } from '../api.js';
import { StatusChip } from '../status.js';
import { SourcedFrom } from './SourcedFrom.js';

/** The key of an item's value: its visitor (0 for a worker or vehicle) and its datum. */
/** The key under which a line's refused file is said (apart from its value's problem). */
export const fileKey = (item: Item) => `file:${itemKey(item)}`;

export const itemKey = (item: Pick<Item, 'IdVisitaPersona' | 'IdDatoEvaluar'>) =>
  `${item.IdVisitaPersona ?? 0}:${item.IdDatoEvaluar}`;

/** The value an item shows: the one typed, or the stored one (dates as yyyy-mm-dd). */
export function shownValue(item: Item, edits: Record<string, string | null>): string {
  const key = itemKey(item);
  const value = key in edits ? edits[key] : item.Value;
  return value ?? '';
}

/** The problem of a typed value by its datum's type, worded by the server's own check. */
export function valueProblem(
  item: Item,
  value: string,
  choices: Choice[],
): { messageKey: string; params?: Record<string, number> } | undefined {
  if (!value) return undefined;
  return normaliseValue(
    {
      Tipo: item.Tipo,
      choices: choices.filter((c) => c.IdDatoEvaluar === item.IdDatoEvaluar).map((c) => c.IdDato),
    },
    value,
  ).problem;
}

/** A datum that asks for a file is its file's slot: it takes no typed value. */
export const isFileSlot = (item: Item) => item.AdjuntarArchivo === 'S';

/**
 * What is still missing before the request can be sent (the server's rule): of a mandatory
 * requester requirement, every datum's value unless optional, and every file asked for; a line
 * its source proved (a passed induction) is complete.
 */
export function missingItems(items: Item[], edits: Record<string, string | null>): Item[] {
  return items.filter(
    (item) =>
      item.TipoRequisito === 'S' &&
      !item.Fuente &&
      item.Tipo !== 'G' &&
      item.Obligatorio === 'S' &&
      (isFileSlot(item) ? item.TieneArchivo !== 'S' : item.DatoOpcional !== 'S' && !shownValue(item, edits)),
  );
}

/** A requirement whose values were carried over from an accreditation: the request that proved them. */
function CarriedFrom({ items }: { items: Item[] }) {
  const translate = useTranslate();
  const origin = items.find((i) => i.IdSolicitudOrigen)?.IdSolicitudOrigen;
  if (!origin) return null;
  return (
    <Alert severity="success" variant="outlined" className="line-carried" sx={{ mb: 1, py: 0 }}>
      {translate('accreditation.request.carried', { number: requestNumber(origin) })}
    </Alert>
  );
}

/** The local date as yyyy-mm-dd. */
function localToday(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** An observed line's deadline to be corrected by, flagged once it has passed. */
function CorrectionDeadline({ date }: { date: string }) {
  const translate = useTranslate();
  const passed = date < localToday();
  return (
    <Typography
      variant="body2"
      className="line-deadline"
      data-overdue={passed ? 'S' : 'N'}
      sx={{ color: passed ? 'error.main' : 'warning.dark', fontWeight: passed ? 600 : 400 }}
    >
      {translate(passed ? 'accreditation.request.correctionOverdue' : 'accreditation.request.correctBy', {
        date: formatDate(date),
      })}
    </Typography>
  );
}

interface ItemInputProps {
  item: Item;
  value: string;
  choices: Choice[];
  error?: string;
  disabled: boolean;
  onChange(value: string | null): void;
}

/** A datum's input by its type: number, text, date, list, yes or no, text area. */
function ItemInput({ item, value, choices, error, disabled, onChange }: ItemInputProps) {
  const translate = useTranslate();
  const id = `item-${item.IdSecuencial}`;
  const labelId = useId();
  const label = item.Text;
  const required = item.Obligatorio === 'S' && item.DatoOpcional !== 'S' && item.TipoRequisito === 'S';
  const common = { id, label, required, disabled, error: Boolean(error), helperText: error, fullWidth: true };
  switch (item.Tipo) {
    case 'F':
      return (
        <DatePicker
          label={label}
          value={toDate(value)}
          format={DATE_FORMAT}
          disabled={disabled}
          onChange={(date) => onChange(fromDate(date) ?? null)}
          slotProps={{ textField: { ...common, size: 'small', variant: 'filled' } }}
        />
      );
    case 'L':
    case 'B': {
      const options =
        item.Tipo === 'B'
          ? [
              { IdDato: 'S', Dato: translate('enums.yesNo.S') },
              { IdDato: 'N', Dato: translate('enums.yesNo.N') },
            ]
          : choices.filter((c) => c.IdDatoEvaluar === item.IdDatoEvaluar);
      return (
        <FormControl size="small" fullWidth required={required} disabled={disabled} error={Boolean(error)}>
          <InputLabel id={labelId}>{label}</InputLabel>
          <Select
            id={id}
            labelId={labelId}
            label={label}
            value={value}
            onChange={(event) => onChange(event.target.value || null)}
          >
            <MenuItem value="">
              <em>{translate('app.form.none')}</em>
            </MenuItem>
            {options.map((option) => (
              <MenuItem key={option.IdDato} value={option.IdDato}>
                {option.Dato}
              </MenuItem>
            ))}
          </Select>
          {error && <FormHelperText>{error}</FormHelperText>}
        </FormControl>
      );
    }
    default:
      return (
        <TextField
          {...common}
          size="small"
          value={value}
          multiline={item.Tipo === 'A' || item.Tipo === 'R'}
          minRows={item.Tipo === 'A' || item.Tipo === 'R' ? 2 : undefined}
          slotProps={{
            htmlInput: {
              maxLength: DATUM_MAX_LENGTH[item.Tipo] || undefined,
              inputMode: item.Tipo === 'N' ? 'decimal' : undefined,
            },
          }}
          onChange={(event) => onChange(event.target.value.toLocaleUpperCase('es') || null)}
        />
      );
  }
}

export interface RequirementsProps {
  detail: Detail;
  edits: Record<string, string | null>;
  onEdit(key: string, value: string | null): void;
  /** The problems of the server or of the last check, by item key. */
  problems: Record<string, string>;
  /** The request can be changed (incomplete or observed). */
  editable: boolean;
  /** Attaches a PDF to an item; resolves once the server kept it. */
  onAttach?(item: Item, file: File): Promise<void>;
  onPreview(item: Item): void;
  /** A visit's visitors, by id, for their headings. */
  visitorNames?: Record<number, string>;
  /** Extra content per item (the authoriser's evaluation). */
  extra?(item: Item): ReactNode;
  /** Whether an item's value may be typed (by default, unless the server says it is read-only). */
  canType?(item: Item): boolean;
  uploading?: string;
}

/**
 * The requirements of a request, in their groups (requirement types) and requirements, each
 * datum with its input by type, its file, its evaluation and the authoriser's observation in red;
 * a visit's per visitor.
 */
export function Requirements({
  detail,
  edits,
  onEdit,
  problems,
  editable,
  onAttach,
  onPreview,
  visitorNames = {},
  extra,
  canType = (item) => !item.readOnly,
  uploading,
}: RequirementsProps) {
  const translate = useTranslate();
  const [mine, theirs, groups, choices] = detail;
  const all = [...mine, ...theirs];
  const visitors = [...new Set(all.map((i) => i.IdVisitaPersona ?? 0))];
  return (
    <DatesProvider>
      <Stack spacing={2} data-testid="requirements">
        {all.length === 0 && (
          <Typography color="text.secondary">{translate('accreditation.form.noRequirements')}</Typography>
        )}
        {visitors.map((visitor) => (
          <Box key={visitor} component="section" aria-label={visitorNames[visitor] ?? undefined}>
            {visitor !== 0 && (
              <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                {visitorNames[visitor] ?? visitor}
              </Typography>
            )}
            {groups.map((group: Group) => {
              const items = all.filter(
                (i) => (i.IdVisitaPersona ?? 0) === visitor && group.Requisitos.includes(i.IdRequisito),
              );
              if (!items.length) return null;
              const requirements = [...new Map(items.map((i) => [i.IdRequisito, i.Requisito]))];
              return (
                <Paper
                  key={group.IdTipoRequisito}
                  variant="outlined"
                  sx={{ p: 2, mb: 2 }}
                  component="section"
                >
                  <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
                    {group.Descripcion}
                  </Typography>
                  {requirements.map(([requirementId, name]) => (
                    <Box key={requirementId} sx={{ mb: 2 }} className="requirement" data-requirement={name}>
                      <Typography variant="body2" sx={{ fontWeight: 500, mb: 1 }}>
                        {name}
                        {items.find((i) => i.IdRequisito === requirementId)?.TipoRequisito === 'A' && (
                          <Typography
                            component="span"
                            variant="caption"
                            color="text.secondary"
                            sx={{ ml: 1 }}
                          >
                            {translate('accreditation.form.clientRequirement')}
                          </Typography>
                        )}
                      </Typography>
                      <CarriedFrom items={items.filter((i) => i.IdRequisito === requirementId)} />
                      <SourcedFrom items={items.filter((i) => i.IdRequisito === requirementId)} />
                      {items
                        .filter((i) => i.IdRequisito === requirementId)
                        .map((item) => (
                          <ItemRow
                            key={item.IdSecuencial}
                            item={item}
                            value={shownValue(item, edits)}
                            choices={choices}
                            problem={problems[itemKey(item)]}
                            fileProblem={problems[fileKey(item)]}
                            disabled={!editable || !canType(item)}
                            onChange={(value) => onEdit(itemKey(item), value)}
                            onAttach={editable && !item.readOnly ? onAttach : undefined}
                            onPreview={onPreview}
                            extra={extra?.(item)}
                            uploading={uploading === itemKey(item)}
                          />
                        ))}
                    </Box>
                  ))}
                </Paper>
              );
            })}
          </Box>
        ))}
      </Stack>
    </DatesProvider>
  );
}

/** A line whose sensitive data the profile may not read: its value and file are withheld. */
function Protected() {
  const translate = useTranslate();
  return (
    <Typography
      variant="caption"
      color="text.secondary"
      className="protected-value"
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mt: 0.5 }}
    >
      <LockOutlined fontSize="inherit" aria-hidden />
      {translate('app.privacy.masked')}
    </Typography>
  );
}

function ItemRow({
  item,
  value,
  choices,
  problem,
  fileProblem,
  disabled,
  onChange,
  onAttach,
  onPreview,
  extra,
  uploading,
}: {
  item: Item;
  value: string;
  choices: Choice[];
  problem?: string;
  /** Why the last file attached to the line was refused. */
  fileProblem?: string;
  disabled: boolean;
  onChange(value: string | null): void;
  onAttach?(item: Item, file: File): Promise<void>;
  onPreview(item: Item): void;
  extra?: ReactNode;
  uploading?: boolean;
}) {
  const translate = useTranslate();
  const input = useRef<HTMLInputElement>(null);
  const fileOnly = isFileSlot(item);
  return (
    <Box
      className="requirement-item"
      data-item={item.IdSecuencial}
      data-datum={item.Text}
      data-type={isFileSlot(item) ? 'file' : item.Tipo}
      data-kind={item.TipoRequisito}
      data-line-status={item.EstadoAprobacion ?? ''}
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 2fr) minmax(0, 3fr)' },
        gap: 1.5,
        alignItems: 'start',
        py: 1,
        borderTop: 1,
        borderColor: 'divider',
      }}
    >
      <Box>
        {fileOnly ? (
          <Typography variant="body2" sx={{ pt: 1 }}>
            {item.Text}
            {item.Obligatorio === 'S' && item.TipoRequisito === 'S' && ' *'}
          </Typography>
        ) : (
          <ItemInput
            item={item}
            value={value}
            choices={choices}
            error={problem}
            disabled={disabled}
            onChange={onChange}
          />
        )}
        {item.Protegido && <Protected />}
      </Box>
      <Stack spacing={0.75}>
        <Stack direction="row" spacing={1} alignItems="center" useFlexGap flexWrap="wrap">
          {item.EstadoAprobacion && <StatusChip status={item.EstadoAprobacion} kind="line" />}
          {item.AdjuntarArchivo === 'S' && (
            <>
              {item.Protegido ? null : item.TieneArchivo === 'S' ? (
                <Button
                  size="small"
                  startIcon={<VisibilityIcon />}
                  onClick={() => onPreview(item)}
                  data-preview={item.IdSecuencial}
                  sx={{ textTransform: 'none', maxWidth: '100%' }}
                >
                  <Box
                    component="span"
                    sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
                  >
                    {item.NombreArchivo ?? translate('accreditation.files.view')}
                  </Box>
                </Button>
              ) : (
                <Typography variant="body2" color={problem ? 'error' : 'text.secondary'}>
                  {translate('accreditation.files.none')}
                </Typography>
              )}
              {onAttach && (
                <>
                  <input
                    ref={input}
                    type="file"
                    accept=".pdf,application/pdf"
                    hidden
                    aria-label={translate('accreditation.files.attachTo', { name: item.Text })}
                    data-attach={item.IdSecuencial}
                    onChange={(event) => {
                      const file = event.target.files?.[0];
                      event.target.value = '';
                      if (file) void onAttach(item, file);
                    }}
                  />
                  <Button
                    size="small"
                    variant="outlined"
                    startIcon={<AttachFileIcon />}
                    onClick={() => input.current?.click()}
                    disabled={uploading}
                  >
                    {translate(
                      item.TieneArchivo === 'S'
                        ? 'accreditation.files.replace'
                        : 'accreditation.files.attach',
                    )}
                  </Button>
                </>
              )}
            </>
          )}
        </Stack>
        {fileProblem && (
          <Typography variant="body2" color="error" role="alert" data-file-problem={item.IdSecuencial}>
            {fileProblem}
          </Typography>
        )}
        {item.Observacion && (item.EstadoAprobacion === 'O' || item.EstadoAprobacion === 'R') && (
          <Typography variant="body2" color="error" className="line-observation" sx={{ fontWeight: 500 }}>
            {item.Observacion}
          </Typography>
        )}
        {item.EstadoAprobacion === 'O' && item.FechaLimiteCorreccion && (
          <CorrectionDeadline date={item.FechaLimiteCorreccion} />
        )}
        {extra}
      </Stack>
    </Box>
  );
}
