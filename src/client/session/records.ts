import { ApiRequestError, apiFetch } from './http.js';

/** A page of records of the generic API that match `filter` (the active contracts, a catalogue's choices). */
export async function restList<T>(
  resource: string,
  filter: Record<string, unknown>,
  range = '[0,199]',
): Promise<T[]> {
  const query = new URLSearchParams({ filter: JSON.stringify(filter), range });
  const response = await apiFetch(`/api/rest/${resource}?${query}`);
  if (!response.ok) throw new ApiRequestError(response.statusText, response.status, undefined);
  return (await response.json()) as T[];
}

/** A company to choose in a filter or a form. */
export interface CompanyChoice {
  IdCompania: number;
  Compania: string;
}

/** The active companies the session reads (a contractor's profile: its own), by name. */
export const activeCompanies = async (): Promise<CompanyChoice[]> =>
  (await restList<CompanyChoice>('company', { Activo: 'S' }, '[0,499]')).sort((a, b) =>
    a.Compania.localeCompare(b.Compania),
  );
