import type { Store } from 'react-admin';
import { apiFetch } from '../session/http.js';

/** react-admin keeps a list's saved queries in its store under `<resource>.savedQueries`. */
const SUFFIX = '.savedQueries';

interface SavedQuery {
  label: string;
  value: unknown;
}

interface SavedFilter {
  id: number;
  Recurso: string;
  Nombre: string;
  Filtro: string;
}

const API = '/api/rest/saved-filter';

/**
 * The console's store with the lists' saved queries kept on the server (the saved-filter
 * resource, each user's own), so they follow the user to any browser. The queries are read once
 * when the console starts; saving or removing one in a list's filter menu writes it through.
 */
export async function withSavedQueries(store: Store): Promise<Store> {
  const ids = new Map<string, number>();
  const idKey = (resource: string, label: string) => `${resource}\u0000${label}`;
  const response = await apiFetch(`${API}?range=${encodeURIComponent('[0,999]')}`).catch(() => undefined);
  if (response?.ok) {
    const byResource = new Map<string, SavedQuery[]>();
    for (const row of (await response.json()) as SavedFilter[]) {
      try {
        const query = { label: row.Nombre, value: JSON.parse(row.Filtro) };
        byResource.set(row.Recurso, [...(byResource.get(row.Recurso) ?? []), query]);
        ids.set(idKey(row.Recurso, row.Nombre), row.id);
      } catch {
        // A filter the console cannot read is left out.
      }
    }
    for (const key of Object.keys(window.localStorage))
      if (key.endsWith(SUFFIX)) window.localStorage.removeItem(key);
    for (const [resource, queries] of byResource) store.setItem(`${resource}${SUFFIX}`, queries);
  }

  const sync = async (resource: string, before: SavedQuery[], after: SavedQuery[]) => {
    const labels = new Set(after.map((q) => q.label));
    for (const gone of before.filter((q) => !labels.has(q.label))) {
      const id = ids.get(idKey(resource, gone.label));
      if (id === undefined) continue;
      await apiFetch(`${API}/${id}`, { method: 'DELETE' });
      ids.delete(idKey(resource, gone.label));
    }
    const known = new Set(before.map((q) => q.label));
    for (const added of after.filter((q) => !known.has(q.label))) {
      const res = await apiFetch(API, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ Recurso: resource, Nombre: added.label, Filtro: JSON.stringify(added.value) }),
      });
      if (res.ok) ids.set(idKey(resource, added.label), ((await res.json()) as SavedFilter).id);
    }
  };

  return {
    ...store,
    setItem<T>(key: string, value: T) {
      if (key.endsWith(SUFFIX)) {
        const resource = key.slice(0, -SUFFIX.length);
        const before = store.getItem<SavedQuery[]>(key, []) ?? [];
        sync(resource, before, (value as SavedQuery[]) ?? []).catch(() => {
          // The list keeps the query for this browser; the next start shows the server's.
        });
      }
      store.setItem(key, value);
    },
  };
}
