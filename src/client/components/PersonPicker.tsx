import { Autocomplete, TextField } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { useTranslate } from 'react-admin';
import { autocompleteTexts } from '../resources/form/widgets/ReferenceWidget.js';

/** A person a screen's search found. */
export interface PersonChoice {
  IdPersona: number;
  Documento: string;
  Persona: string;
  Compania: string | null;
}

const labelOf = (c: PersonChoice) => `${c.Persona} · ${c.Documento}${c.Compania ? ` · ${c.Compania}` : ''}`;

/**
 * A person found by two or more letters of the name or the document, among those the screen's
 * search answers (`find`: the server keeps to whom the session may reach).
 */
export function PersonPicker<T extends PersonChoice>({
  id,
  value,
  onChange,
  find,
  queryKey,
  label,
  noneKey,
  required = false,
}: {
  id: string;
  value: T | null;
  onChange(value: T | null): void;
  find(text: string): Promise<T[]>;
  queryKey: string;
  label: string;
  /** What to say when nobody matches. */
  noneKey: string;
  required?: boolean;
}) {
  const translate = useTranslate();
  const [text, setText] = useState('');
  const search = useDeferredValue(text.trim());
  const people = useQuery({
    queryKey: [queryKey, search],
    queryFn: () => find(search),
    // The box shows the chosen person's label: that is no search.
    enabled: search.length >= 2 && (value === null || search !== labelOf(value)),
    placeholderData: keepPreviousData,
  });
  return (
    <Autocomplete
      id={id}
      size="small"
      {...autocompleteTexts(translate)}
      options={search.length >= 2 ? (people.data ?? []) : []}
      // The server found them: every answer is shown.
      filterOptions={(options) => options}
      value={value}
      onChange={(_, picked) => onChange(picked)}
      inputValue={text}
      onInputChange={(_, typed) => setText(typed)}
      isOptionEqualToValue={(a, b) => a.IdPersona === b.IdPersona}
      getOptionLabel={labelOf}
      renderOption={(props, option) => {
        const { key, ...rest } = props as typeof props & { key: string };
        return (
          <li key={key} {...rest} data-person={option.Documento}>
            {labelOf(option)}
          </li>
        );
      }}
      loading={people.isFetching}
      loadingText={translate('ra.page.loading')}
      noOptionsText={translate(search.length >= 2 ? noneKey : 'app.form.personTypeMore')}
      renderInput={(params) => <TextField {...params} required={required} label={label} />}
    />
  );
}
