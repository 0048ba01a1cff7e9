import { Chip, LinearProgress, Stack, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { useTranslate } from 'react-admin';
import { SearchField } from '../../components/fields.js';
import { Refusal } from '../../components/Refusal.js';
import { seatsApi, type Traveller } from './api.js';
import { TickList } from './TickList.js';

/** Up to this many chosen people are named under the list; more are counted. */
const CHIPS_SHOWN = 12;

/**
 * People who may travel on a day, found by a name or a document (`minLetters` before a search is
 * made; none: everyone the session may book, a requester's company's), ticked across searches.
 */
export function PeopleFinder({
  day,
  minLetters,
  chosen,
  blocked,
  onChange,
}: {
  day: string;
  minLetters: number;
  chosen: Map<number, Traveller>;
  blocked?: ReadonlyMap<number, string>;
  onChange(chosen: Map<number, Traveller>): void;
}) {
  const translate = useTranslate();
  const text = (key: string, options?: object) => translate(`transport.screens.people.${key}`, options);
  const [typed, setTyped] = useState('');
  const search = useDeferredValue(typed.trim());
  const ready = search.length >= minLetters;
  const found = useQuery({
    queryKey: ['transport-candidates', day, search],
    queryFn: () => seatsApi.candidates(day, search),
    enabled: ready,
    placeholderData: keepPreviousData,
  });
  const people = ready ? found.data : undefined;
  const tick = (ids: Set<number>) => {
    const next = new Map([...chosen].filter(([id]) => ids.has(id)));
    for (const p of people ?? []) if (ids.has(p.IdPersona)) next.set(p.IdPersona, p);
    onChange(next);
  };
  return (
    <Stack spacing={1.5}>
      <SearchField
        id="transport-people-search"
        label={text('search')}
        helperText={minLetters ? text('searchHelp') : undefined}
        value={typed}
        onChange={setTyped}
        width={360}
      />
      {found.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
      <Refusal error={found.error} testId="people-refusal" />
      {people && people.length === 0 && !found.isFetching && (
        <Typography color="text.secondary" data-testid="no-people">
          {text('none')}
        </Typography>
      )}
      {people && people.length > 0 && (
        <TickList people={people} ticked={new Set(chosen.keys())} blocked={blocked} onChange={tick} />
      )}
      {chosen.size > 0 && (
        <Stack
          direction="row"
          spacing={1}
          useFlexGap
          flexWrap="wrap"
          alignItems="center"
          data-testid="chosen"
        >
          <Typography variant="body2">{text('chosen', { smart_count: chosen.size })}</Typography>
          {chosen.size <= CHIPS_SHOWN &&
            [...chosen.values()].map((p) => (
              <Chip
                key={p.IdPersona}
                size="small"
                label={p.Persona}
                onDelete={() => onChange(new Map([...chosen].filter(([id]) => id !== p.IdPersona)))}
              />
            ))}
        </Stack>
      )}
    </Stack>
  );
}
