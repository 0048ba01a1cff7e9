import { REFERENCE_CACHE_SECONDS } from '../../shared/constants.js';
import { apiFetch } from '../session/http.js';

/** Reference lists are kept in the browser under this prefix (spec section 7), for a day. */
export const LOOKUP_PREFIX = 'acreditacion.ref.';

type Data = Record<string, unknown>;

interface Cached {
  expires: number;
  data: Data[];
}

const keyOf = (lookup: string, params: Record<string, string | number>) =>
  `${LOOKUP_PREFIX}${lookup}?${new URLSearchParams(
    Object.entries(params)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => [k, String(v)]),
  )}`;

/**
 * A reference list from its lookup call (GET /api/<lookup>/obtenerTodos), from the browser's
 * cache while it is younger than the spec's expiry (86 400 s).
 */
export async function fetchLookup(
  lookup: string,
  params: Record<string, string | number> = {},
): Promise<Data[]> {
  const key = keyOf(lookup, params);
  try {
    const cached = JSON.parse(window.localStorage.getItem(key) ?? 'null') as Cached | null;
    if (cached && cached.expires > Date.now()) return cached.data;
  } catch {
    // A damaged entry is fetched again.
  }
  // A list longer than one answer comes a page at a time (its `siguiente`), all of it.
  const data: Data[] = [];
  let skip: number | undefined = 0;
  while (skip !== undefined) {
    const query = new URLSearchParams([
      ...Object.entries(params).map(([k, v]) => [k, String(v)]),
      ...(skip ? [['skip', String(skip)]] : []),
    ]).toString();
    const response = await apiFetch(`/api/${lookup}/obtenerTodos${query ? `?${query}` : ''}`);
    if (!response.ok) throw new Error(`${lookup} answered ${response.status}`);
    const page = (await response.json()) as { result: Data[]; siguiente?: number };
    data.push(...page.result);
    skip = page.siguiente !== undefined && page.siguiente > skip ? page.siguiente : undefined;
  }
  try {
    window.localStorage.setItem(
      key,
      JSON.stringify({ expires: Date.now() + REFERENCE_CACHE_SECONDS * 1000, data }),
    );
  } catch {
    // A full storage only means the next form asks the server again.
  }
  return data;
}

/** Forgets a lookup's cached lists (after the user changes one of its records), or all of them. */
export function forgetLookups(lookup?: string): void {
  const prefix = lookup ? `${LOOKUP_PREFIX}${lookup}?` : LOOKUP_PREFIX;
  for (const key of Object.keys(window.localStorage))
    if (key.startsWith(prefix)) window.localStorage.removeItem(key);
}
