import { useQuery } from '@tanstack/react-query';
import { type RaRecord, useDataProvider, useTranslate } from 'react-admin';
import type { ResourceMeta } from '../../shared/schema/types.js';
import { reachOf, representation, useMeta } from '../providers/meta.js';

/**
 * How records read in titles and cards: their x-label fields, a reference by its record's own
 * label (a requirement by its name, not its id), a choice by its text. The referenced records are read once per
 * resource for all the records given; until they come, a reference reads as nothing.
 */
export function useLabeller(
  meta: ResourceMeta | undefined,
  records: ReadonlyArray<RaRecord | undefined>,
): (record: RaRecord | undefined) => string {
  const all = useMeta();
  const translate = useTranslate();
  const dataProvider = useDataProvider();
  const fields = meta?.schema['x-label'] ?? [];
  const refOf = (field: string) => {
    const target = meta?.schema.properties[field]?.['x-ref']?.resource;
    return target && reachOf(all, target) !== 'none' ? target : undefined;
  };
  const wanted = new Map<string, Set<string>>();
  for (const record of records)
    for (const field of fields) {
      const target = refOf(field);
      const value = record?.[field];
      if (!target || value === null || value === undefined || value === '') continue;
      wanted.set(target, (wanted.get(target) ?? new Set()).add(String(value)));
    }
  const asked = [...wanted].map(([target, ids]) => [target, [...ids].sort()] as const).sort();
  const { data } = useQuery({
    queryKey: ['labels', asked],
    enabled: asked.length > 0,
    staleTime: 60_000,
    queryFn: async () => {
      const out: Record<string, Record<string, string>> = {};
      await Promise.all(
        asked.map(async ([target, ids]) => {
          const targetMeta = all.resources.find((r) => r.name === target);
          const { data: rows } = await dataProvider.getMany(target, { ids });
          out[target] = Object.fromEntries(
            rows.map((row) => [
              String(row.id),
              targetMeta ? representation(targetMeta)(row) : String(row.id),
            ]),
          );
        }),
      );
      return out;
    },
  });
  return (record) => {
    if (!meta || !record) return '';
    return fields
      .map((field) => {
        const value = record[field];
        if (value === null || value === undefined || value === '') return undefined;
        const target = refOf(field);
        // A reference the profile may not read reads as the value it holds.
        if (target) return data?.[target]?.[String(value)];
        // A choice reads as its text in the user's language.
        const named = meta.schema.properties[field]?.['x-enum'];
        return named ? translate(`enums.${named}.${value}`, { _: String(value) }) : String(value);
      })
      .filter((part): part is string => Boolean(part))
      .join(' ');
  };
}
