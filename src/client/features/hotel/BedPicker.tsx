import { Autocomplete, createFilterOptions, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslate } from 'react-admin';
import { daysBetween } from '../../../shared/dates.js';
import { cellState, GRID_MAX_DAYS, type GridBed, type GridStay } from '../../../shared/hotel.js';
import { hotelApi } from './api.js';

export interface FreeBed {
  IdCama: number;
  label: string;
}

/** The texts of an autocomplete's own buttons, in the user's language. */
export const autocompleteTexts = (translate: (key: string) => string) => ({
  clearText: translate('ra.action.clear_input_value'),
  openText: translate('ra.action.open'),
  closeText: translate('ra.action.close'),
});

/** Only the first matches are listed: a camp of thousands of beds is narrowed by typing. */
const filter = createFilterOptions<FreeBed>({ limit: 60 });

/** Each bed's stays, for the cells of its row. */
export function staysByBed(stays: readonly GridStay[]): Map<number, GridStay[]> {
  const map = new Map<number, GridStay[]>();
  for (const s of stays) {
    const list = map.get(s.IdCama);
    if (list) list.push(s);
    else map.set(s.IdCama, [s]);
  }
  return map;
}

/** A bed's place, as the lists name it. */
export const bedLabel = (bed: GridBed) => `${bed.Codigo} · ${bed.Modulo} · ${bed.TipoHabitacion}`;

/**
 * A bed of the camp free every night from `from` to `to` (the first 31 nights looked at; the server
 * checks the rest), found by typing its code, block or room type.
 */
export function BedPicker({
  id,
  camp,
  from,
  to,
  value,
  onChange,
  except,
}: {
  id: string;
  camp: number | '';
  from: string | undefined;
  to: string | undefined;
  value: number | undefined;
  onChange(value: number | undefined): void;
  /** A bed the list leaves out (the one a stay moves from). */
  except?: number;
}) {
  const translate = useTranslate();
  const nights = from && to ? Math.min(GRID_MAX_DAYS, daysBetween(from, to)) : 0;
  const grid = useQuery({
    queryKey: ['hotel-free-beds', camp, from, nights],
    queryFn: () => hotelApi.grid({ desde: from as string, dias: nights, IdCampamento: camp as number }),
    enabled: camp !== '' && Boolean(from) && nights > 0,
  });
  const busy = translate('hotel.screens.bed.busy');
  const { options, free } = useMemo(() => {
    if (!grid.data) return { options: [] as FreeBed[], free: 0 };
    const byBed = staysByBed(grid.data.estadias);
    const isFree = (bed: GridBed) =>
      grid.data.dias.every((night) => cellState(bed, byBed.get(bed.IdCama) ?? [], night) === 'free');
    const list = grid.data.camas
      .filter((bed) => bed.IdCama !== except && isFree(bed))
      .map((bed) => ({ IdCama: bed.IdCama, label: bedLabel(bed) }));
    // The bed already chosen (the grid's night) stays shown when it is not free every night asked.
    const chosen = grid.data.camas.find((bed) => bed.IdCama === value);
    const kept =
      chosen && !list.some((o) => o.IdCama === value)
        ? [{ IdCama: chosen.IdCama, label: `${bedLabel(chosen)} — ${busy}` }]
        : [];
    return { options: [...kept, ...list], free: list.length };
  }, [grid.data, except, value, busy]);
  return (
    <Autocomplete
      id={id}
      size="small"
      options={options}
      filterOptions={filter}
      loading={grid.isFetching}
      value={options.find((o) => o.IdCama === value) ?? null}
      onChange={(_, picked) => onChange(picked?.IdCama)}
      isOptionEqualToValue={(a, b) => a.IdCama === b.IdCama}
      getOptionLabel={(o) => o.label}
      noOptionsText={translate('hotel.screens.bed.none')}
      loadingText={translate('ra.page.loading')}
      {...autocompleteTexts(translate)}
      renderInput={(params) => (
        <TextField
          {...params}
          label={translate('hotel.screens.bed.label')}
          helperText={translate('hotel.screens.bed.help', { smart_count: free })}
        />
      )}
    />
  );
}
