import { Autocomplete, TextField } from '@mui/material';
import type { WidgetProps } from '@rjsf/utils';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { type RaRecord, useGetList, useGetMany, useTranslate } from 'react-admin';
import type { EntitySchema } from '../../../../shared/schema/types.js';
import { fetchLookup } from '../../../providers/lookups.js';
import { representation, useReach, useResourceMeta } from '../../../providers/meta.js';
import { unreadableLabel } from '../../scopeLabel.js';

const PAGE = 25;
const DEBOUNCE_MS = 300;

type Data = Record<string, unknown>;

/** An autocomplete's own words (its buttons' names, its empty and loading texts) in the user's language. */
export const autocompleteTexts = (translate: (key: string) => string) => ({
  noOptionsText: translate('app.form.noOptions'),
  loadingText: translate('app.form.loading'),
  openText: translate('ra.action.open'),
  closeText: translate('ra.action.close'),
  clearText: translate('ra.action.clear_input_value'),
});

/** The form's current values, which the widgets receive through the form context. */
export function formValues(props: WidgetProps): Data {
  return ((props.registry.formContext as { formData?: Data } | undefined)?.formData ?? {}) as Data;
}

/**
 * The choices a cascading reference allows: { targetProperty: value } from the form's values
 * (spec: province after department, door after zone). Undefined while a value it needs is empty.
 */
export function cascadeFilter(props: WidgetProps): Data | undefined {
  const filter = props.options.filter as Record<string, string> | undefined;
  if (!filter) return {};
  const values = formValues(props);
  const out: Data = {};
  for (const [remote, local] of Object.entries(filter)) {
    const value = values[local];
    if (value === undefined || value === null || value === '') return undefined;
    out[remote] = value;
  }
  return out;
}

/**
 * A reference to records the profile may not read (a contractor's own client or division): a
 * read-only label, the name the session knows. The server sets such values from the session.
 */
function UnreadableReference(props: WidgetProps) {
  const { id, name, value, label, required } = props;
  const schema = props.registry.rootSchema as unknown as EntitySchema;
  return (
    <TextField
      id={id}
      label={label}
      required={required}
      fullWidth
      value={unreadableLabel(schema, name, value)}
      slotProps={{ htmlInput: { readOnly: true } }}
      disabled
    />
  );
}

/**
 * A reference (or a set of references) as a searchable select; a read-only label when the
 * profile may not read the records it refers to.
 */
export default function ReferenceWidget(props: WidgetProps) {
  const reach = useReach(String(props.options.reference));
  return reach === 'none' ? <UnreadableReference {...props} /> : <ReferenceSelect {...props} />;
}

/**
 * A searchable select. Reference lists with a lookup call come from it, cached in the browser for
 * a day; others are searched on the server as the user types. A cascading reference offers only
 * what matches the choice above it.
 */
function ReferenceSelect(props: WidgetProps) {
  const { id, value, onChange, onBlur, onFocus, label, required, disabled, readonly, rawErrors, options } =
    props;
  const reference = String(options.reference);
  const multiple = options.multiple === true;
  const target = useResourceMeta(reference);
  const show = useMemo(() => representation(target), [target]);
  const translate = useTranslate();
  const cascade = cascadeFilter(props);
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const lookup = target.schema['x-lookup'];
  const cached = useQuery({
    queryKey: ['lookup', lookup, cascade],
    queryFn: () => fetchLookup(String(lookup), cascade as Record<string, string | number>),
    enabled: Boolean(lookup) && cascade !== undefined,
  });
  const sort = target.schema['x-defaultSort'] ?? { field: target.primaryKey, order: 'ASC' as const };
  const searched = useGetList(
    reference,
    {
      pagination: { page: 1, perPage: PAGE },
      sort,
      filter: { ...cascade, ...(search ? { q: search } : {}) },
    },
    { enabled: !lookup && cascade !== undefined },
  );
  const ids = (
    multiple ? ((value as unknown[]) ?? []) : value === undefined || value === null ? [] : [value]
  ) as string[] | number[];
  const current = useGetMany(reference, { ids }, { enabled: ids.length > 0 && !lookup });

  const all: RaRecord[] = lookup
    ? ((cached.data ?? []) as Data[]).map((r) => ({ ...r, id: r[target.primaryKey] }) as RaRecord)
    : (searched.data ?? []);
  const words = text.trim().toLocaleUpperCase('es');
  const choices = lookup && words ? all.filter((r) => show(r).toLocaleUpperCase('es').includes(words)) : all;
  const known = lookup ? all : [...all, ...(current.data ?? [])];
  const selected = ids
    .map((key) => known.find((r) => r.id === key))
    .filter((r): r is RaRecord => r !== undefined);
  const withSelected = [...selected.filter((s) => !choices.some((c) => c.id === s.id)), ...choices].slice(
    0,
    lookup ? 200 : PAGE + selected.length,
  );

  const common = {
    id,
    options: withSelected,
    loading: lookup ? cached.isPending : searched.isPending,
    disabled: disabled || readonly,
    filterOptions: (list: RaRecord[]) => list,
    getOptionLabel: (record: RaRecord) => show(record),
    isOptionEqualToValue: (a: RaRecord, b: RaRecord) => a.id === b.id,
    onInputChange: (_event: unknown, input: string, reason: string) => {
      if (reason === 'input') setText(input);
      if (reason === 'clear' || reason === 'reset') setText('');
    },
    onBlur: () => onBlur(id, value),
    onFocus: () => onFocus(id, value),
    ...autocompleteTexts(translate),
    noOptionsText: translate(cascade === undefined ? 'app.form.chooseAbove' : 'app.form.noOptions'),
    renderInput: (params: object) => (
      <TextField
        {...params}
        label={label}
        required={required}
        error={(rawErrors?.length ?? 0) > 0}
        placeholder={translate('app.form.search')}
      />
    ),
  };
  return multiple ? (
    <Autocomplete<RaRecord, true>
      {...common}
      // A long name shortens its chip rather than widening the form.
      slotProps={{ chip: { sx: { maxWidth: '100%' } } }}
      multiple
      value={selected}
      onChange={(_event, records) => onChange(records.map((r) => r.id))}
    />
  ) : (
    <Autocomplete<RaRecord>
      {...common}
      value={selected[0] ?? null}
      onChange={(_event, record) => onChange(record ? record.id : undefined)}
    />
  );
}
