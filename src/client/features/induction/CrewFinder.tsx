import { Button, Stack, TextField, ToggleButton, ToggleButtonGroup } from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import { Pick, SearchField } from '../../components/fields.js';
import { Refusal } from '../../components/Refusal.js';
import { bookingApi, type CrewQuery } from './api.js';

const SOURCES = ['search', 'contract', 'bulk'] as const;
type Source = (typeof SOURCES)[number];

/** Workers found by two or more letters of a name or a document. */
function SearchSource({ onQuery }: { onQuery(query: CrewQuery | undefined): void }) {
  const translate = useTranslate();
  const [text, setText] = useState('');
  const search = useDeferredValue(text.trim());
  useEffect(() => onQuery(search.length >= 2 ? { buscar: search } : undefined), [search, onQuery]);
  return (
    <SearchField
      id="crew-search"
      label={translate('induction.screens.booking.search')}
      helperText={translate('induction.screens.booking.searchHelp')}
      value={text}
      onChange={setText}
      width={360}
    />
  );
}

/** A contract's people: the requester's active contracts to choose from. */
function ContractSource({ onQuery }: { onQuery(query: CrewQuery | undefined): void }) {
  const translate = useTranslate();
  const [contract, setContract] = useState<number | ''>('');
  const contracts = useQuery({ queryKey: ['induction-contracts'], queryFn: bookingApi.contracts });
  return (
    <Stack spacing={1}>
      <Pick
        id="crew-contract"
        label={translate('induction.screens.booking.contract')}
        value={contract}
        options={(contracts.data ?? []).map((c) => ({ value: c.id, label: c.label }))}
        onChange={(value) => {
          setContract(value);
          onQuery(value === '' ? undefined : { IdContrato: value });
        }}
        width={480}
      />
      <Refusal error={contracts.error} testId="contracts-refusal" />
    </Stack>
  );
}

/** A bulk request's people, by the code its upload was given. */
function BulkSource({ onQuery }: { onQuery(query: CrewQuery | undefined): void }) {
  const translate = useTranslate();
  const [code, setCode] = useState('');
  const find = useMutation({
    mutationFn: () => bookingApi.bulkRequest(code.trim().toUpperCase()),
    onSuccess: (upload) => onQuery({ IdCargaMasiva: upload.IdCargaMasiva }),
    onError: () => onQuery(undefined),
  });
  return (
    <Stack spacing={1}>
      <Stack
        component="form"
        direction="row"
        spacing={1}
        alignItems="flex-start"
        onSubmit={(event) => {
          event.preventDefault();
          if (code.trim()) find.mutate();
        }}
      >
        <TextField
          id="crew-bulk"
          size="small"
          label={translate('induction.screens.booking.bulkCode')}
          helperText={translate('induction.screens.booking.bulkHelp')}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          autoComplete="off"
          sx={{ flex: { xs: 1, sm: '0 0 300px' } }}
        />
        <Button type="submit" variant="outlined" disabled={!code.trim() || find.isPending} sx={{ mt: 0.25 }}>
          {translate('induction.screens.booking.find')}
        </Button>
      </Stack>
      <Refusal error={find.error} testId="bulk-refusal" />
    </Stack>
  );
}

/**
 * Where the crew comes from: a search (workers one by one), a contract's people or a bulk
 * request's; `onQuery` gets the candidates' query (none until there is one to make).
 */
export function CrewFinder({ onQuery }: { onQuery(query: CrewQuery | undefined): void }) {
  const translate = useTranslate();
  const [source, setSource] = useState<Source>('search');
  return (
    <Stack spacing={2}>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={source}
        onChange={(_, value: Source | null) => {
          if (!value) return;
          setSource(value);
          onQuery(undefined);
        }}
        aria-label={translate('induction.screens.booking.source')}
        data-testid="crew-source"
        fullWidth
        sx={{ maxWidth: 560 }}
      >
        {SOURCES.map((s) => (
          <ToggleButton key={s} value={s} data-source={s}>
            {translate(`induction.screens.booking.sources.${s}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      {source === 'search' && <SearchSource onQuery={onQuery} />}
      {source === 'contract' && <ContractSource onQuery={onQuery} />}
      {source === 'bulk' && <BulkSource onQuery={onQuery} />}
    </Stack>
  );
}
