import { Autocomplete, Box, TextField } from '@mui/material';
import type { WidgetProps } from '@rjsf/utils';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { fetchLookup } from '../../../providers/lookups.js';
import { autocompleteTexts, formValues } from './ReferenceWidget.js';

type Location = { IdUbigeo: string; Nombre: string; IdUbigeoPadre: string | null; Nivel: number };

const LOOKUP = 'AdministracionUbigeo';

/** One level's choices: a country's first level, or the children of the level above. */
function useLevel(params: Record<string, string | number> | undefined) {
  return useQuery({
    queryKey: ['lookup', LOOKUP, params],
    queryFn: async () => (await fetchLookup(LOOKUP, params ?? {})) as Location[],
    enabled: params !== undefined,
  });
}

/** A location's chain from its first level down: [level 1, level 2, level 3] (as far as it goes). */
function useChain(value: string | undefined) {
  return useQuery({
    queryKey: ['ubigeo-chain', value],
    enabled: Boolean(value),
    queryFn: async () => {
      const chain: string[] = [];
      for (let id: string | null | undefined = value; id && chain.length < 3; ) {
        chain.unshift(id);
        const [row] = (await fetchLookup(LOOKUP, { IdUbigeo: id })) as Location[];
        id = row?.IdUbigeoPadre;
      }
      return chain;
    },
  });
}

/**
 * A place of the chosen country as three cascading selects, named as the country names its levels
 * (Peru: department, province, district; Chile: region, province, commune). The deepest level
 * chosen is the value.
 */
export default function UbigeoWidget(props: WidgetProps) {
  const { id, value, onChange, label, disabled, readonly, rawErrors, options } = props;
  const translate = useTranslate();
  const countryField = Object.values((options.filter as Record<string, string> | undefined) ?? {})[0];
  const country = countryField ? (formValues(props)[countryField] as string | undefined) : undefined;
  const chain = useChain(value as string | undefined).data ?? [];
  const [first, second] = [chain[0], chain[1]];
  const levels = [
    useLevel(country ? { IdPais: country, Nivel: 1 } : undefined),
    useLevel(first ? { IdUbigeoPadre: first } : undefined),
    useLevel(second ? { IdUbigeoPadre: second } : undefined),
  ];
  const levelName = (n: number) => {
    const key = `locations.levels.${country}.${n}`;
    const name = translate(key);
    return name === key ? translate(`locations.levels.default.${n}`) : name;
  };
  const select = (n: number) => {
    const rows = levels[n].data ?? [];
    const chosen = rows.find((r) => r.IdUbigeo === chain[n]) ?? null;
    return (
      <Autocomplete<Location>
        key={n}
        id={n === 0 ? id : `${id}-${n + 1}`}
        options={rows}
        value={chosen}
        disabled={disabled || readonly || (n > 0 && !chain[n - 1]) || !country}
        getOptionLabel={(row) => row.Nombre}
        isOptionEqualToValue={(a, b) => a.IdUbigeo === b.IdUbigeo}
        onChange={(_event, row) => onChange(row ? row.IdUbigeo : n > 0 ? chain[n - 1] : undefined)}
        {...autocompleteTexts(translate)}
        renderInput={(params) => (
          <TextField
            {...params}
            label={levelName(n + 1)}
            error={(rawErrors?.length ?? 0) > 0}
            // A level waiting for the one above still names itself legibly.
            sx={{ '& .MuiInputLabel-root.Mui-disabled': { color: 'text.secondary' } }}
          />
        )}
      />
    );
  };
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }} aria-label={label}>
      <Box component="legend" sx={{ typography: 'caption', color: 'text.secondary', mb: 0.5 }}>
        {label}
      </Box>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: 1 }}>
        {[0, 1, 2].map(select)}
      </Box>
    </Box>
  );
}
