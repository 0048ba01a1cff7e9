import { Autocomplete, TextField } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { useTranslate } from 'react-admin';
import { type Candidate, hotelApi } from './api.js';
import { autocompleteTexts } from './BedPicker.js';

const labelOf = (c: Candidate) => `${c.Persona} · ${c.Documento}${c.Compania ? ` · ${c.Compania}` : ''}`;

/**
 * A person the session may reserve for (accredited, or with a mobilisation request sent; a
 * requester's, of its company), found by two or more letters of the name or the document.
 */
export function PersonPicker({
  id,
  value,
  onChange,
}: {
  id: string;
  value: Candidate | null;
  onChange(value: Candidate | null): void;
}) {
  const translate = useTranslate();
  const [text, setText] = useState('');
  const search = useDeferredValue(text.trim());
  const people = useQuery({
    queryKey: ['hotel-people', search],
    queryFn: () => hotelApi.people(search),
    enabled: search.length >= 2,
    placeholderData: keepPreviousData,
  });
  return (
    <Autocomplete
      id={id}
      size="small"
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
      noOptionsText={translate(
        search.length >= 2 ? 'hotel.screens.person.none' : 'hotel.screens.person.typeMore',
      )}
      {...autocompleteTexts(translate)}
      renderInput={(params) => (
        <TextField {...params} required label={translate('resources.reservation.fields.IdPersona')} />
      )}
    />
  );
}
