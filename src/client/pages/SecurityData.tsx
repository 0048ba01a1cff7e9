import { Alert, Button, MenuItem, Stack, TextField } from '@mui/material';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import {
  EXISTING_ONLY,
  type FieldSetting,
  OWN_RECORD_FIELDS,
  type OwnRecordField,
} from '../../shared/own-record.js';
import { ApiRequestError, apiCall } from '../session/http.js';

export interface OwnRecord {
  [field: string]: unknown;
  esNuevoRegistro?: boolean;
  campos: FieldSetting[];
}

interface Choice {
  id: number | string;
  name: string;
}

type Values = Partial<Record<OwnRecordField, string>>;

const SELECTS: Partial<Record<OwnRecordField, true>> = {
  IdTipoDocumento: true,
  IdConfiguracionLogeo: true,
  Activo: true,
};
const NUMBERS = new Set<OwnRecordField>(['IdTipoDocumento', 'IdConfiguracionLogeo']);

const NoIcon = () => null;

const asText = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/**
 * The security page's Data tab (spec section 2): the user's record, each field editable and
 * required as its settings say (the field rules, answered by the server with the record), saved
 * through SeguridadusuarioLogin/actualizar, which enforces the same settings.
 */
export function SecurityData({
  record,
  onSaved,
}: {
  record: OwnRecord;
  onSaved: (saved: OwnRecord) => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const initial = useMemo(
    () => Object.fromEntries(OWN_RECORD_FIELDS.map((f) => [f, asText(record[f])])) as Values,
    [record],
  );
  const [values, setValues] = useState<Values>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string>();
  const [saving, setSaving] = useState(false);
  const [documentTypes, setDocumentTypes] = useState<Choice[]>([]);
  const [settings, setSettings] = useState<Choice[]>([]);
  useEffect(() => setValues(initial), [initial]);

  useEffect(() => {
    apiCall<Array<{ IdTipoDocumento: number; Alias: string; Descripcion?: string; Activo?: string }>>(
      'GET',
      '/api/sistematipodocumento/obtenerTodos',
    )
      .then((rows) =>
        setDocumentTypes(
          rows
            .filter((r) => r.Activo !== 'N' || r.IdTipoDocumento === record.IdTipoDocumento)
            .map((r) => ({
              id: r.IdTipoDocumento,
              name: r.Descripcion ? `${r.Alias} — ${r.Descripcion}` : r.Alias,
            })),
        ),
      )
      .catch(() => undefined);
    apiCall<Array<{ IdConfiguracionLogeo: number; Descripcion: string }>>(
      'GET',
      '/api/SeguridadConfiguracionLogeo/obtenerTodos',
    )
      .then((rows) => setSettings(rows.map((r) => ({ id: r.IdConfiguracionLogeo, name: r.Descripcion }))))
      .catch(() => undefined);
  }, [record.IdTipoDocumento]);

  const setting = (field: OwnRecordField) => record.campos.find((c) => c.Campo === field);
  const editable = (field: OwnRecordField) => setting(field)?.Modificable === 'S';
  const shown = OWN_RECORD_FIELDS.filter((f) => !(record.esNuevoRegistro && EXISTING_ONLY.includes(f)));
  const changedFields = shown.filter((f) => editable(f) && values[f] !== initial[f]);
  const anyEditable = shown.some(editable);

  const choicesOf = (field: OwnRecordField): Choice[] => {
    if (field === 'Activo') return ['S', 'N'].map((id) => ({ id, name: translate(`enums.yesNo.${id}`) }));
    const list = field === 'IdTipoDocumento' ? documentTypes : settings;
    const current = values[field];
    // The stored value stays readable while its list loads, or when it is not offered any more.
    if (current && !list.some((c) => String(c.id) === current))
      return [...list, { id: current, name: current }];
    return list;
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(undefined);
    setErrors({});
    const body: Record<string, unknown> = { IdUsuario: record.IdUsuario };
    for (const f of changedFields) {
      const value = values[f]?.trim() ?? '';
      body[f] = value === '' ? null : NUMBERS.has(f) ? Number(value) : value;
    }
    setSaving(true);
    try {
      const saved = await apiCall<OwnRecord>('PUT', '/api/SeguridadusuarioLogin/actualizar', body);
      notify('security.saved', { type: 'success' });
      onSaved(saved);
    } catch (error) {
      const answer =
        error instanceof ApiRequestError
          ? (error.body as { message?: string; errors?: Record<string, { message: string }> })
          : undefined;
      const fields = Object.fromEntries(
        Object.entries(answer?.errors ?? {}).map(([field, e]) => [field, e.message]),
      );
      setErrors(fields);
      setProblem(answer?.message ?? (error as Error).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack component="form" spacing={2} data-testid="security-data" onSubmit={save} noValidate>
      {problem && <Alert severity="error">{problem}</Alert>}
      {shown.map((field) => {
        const readOnly = !editable(field);
        const select = SELECTS[field] === true;
        return (
          <TextField
            key={field}
            id={`security-${field}`}
            name={field}
            label={translate(`resources.user.fields.${field}`)}
            value={values[field] ?? ''}
            onChange={(e) => {
              const value = field === 'Telefono' ? e.target.value.replace(/\D/g, '') : e.target.value;
              setValues((v) => ({ ...v, [field]: value }));
            }}
            required={setting(field)?.Obligatorio === 'S'}
            error={errors[field] !== undefined}
            helperText={errors[field]}
            type={field === 'Correo' ? 'email' : 'text'}
            select={select}
            fullWidth
            // A field the user may not change reads as text: no box, no underline, no arrow.
            variant={readOnly ? 'standard' : 'filled'}
            slotProps={{
              input: readOnly ? { readOnly, disableUnderline: true } : {},
              // An empty read-only field shows a dash under its label.
              inputLabel: readOnly || field === 'IdConfiguracionLogeo' ? { shrink: true } : undefined,
              htmlInput: {
                ...(field === 'Telefono' ? { inputMode: 'numeric', pattern: '[0-9]*' } : {}),
                ...(readOnly && !select ? { placeholder: '—' } : {}),
              },
              select: select
                ? {
                    readOnly,
                    displayEmpty: readOnly || field === 'IdConfiguracionLogeo',
                    SelectDisplayProps: { 'aria-readonly': readOnly },
                    ...(readOnly ? { IconComponent: NoIcon } : {}),
                  }
                : undefined,
            }}
          >
            {select && field === 'IdConfiguracionLogeo' && (
              <MenuItem value="">
                <em>{translate('security.noSetting')}</em>
              </MenuItem>
            )}
            {select && readOnly && field !== 'IdConfiguracionLogeo' && !values[field] && (
              <MenuItem value="">—</MenuItem>
            )}
            {select &&
              choicesOf(field).map((c) => (
                <MenuItem key={c.id} value={String(c.id)}>
                  {c.name}
                </MenuItem>
              ))}
          </TextField>
        );
      })}
      {anyEditable && (
        <Button type="submit" variant="contained" disabled={saving || changedFields.length === 0}>
          {translate('ra.action.save')}
        </Button>
      )}
    </Stack>
  );
}
