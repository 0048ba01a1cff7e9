import { createContext, useContext } from 'react';
import { useResourceContext } from 'react-admin';
import { APP_VERSION } from '../../shared/constants.js';
import type { ModuleKey } from '../../shared/modules.js';
import type { ResourceMeta } from '../../shared/schema/types.js';
import { apiFetch } from '../session/http.js';

export interface Meta {
  version: string;
  modules: ModuleKey[];
  /** The resources the profile reaches, with their schemas and its access to each. */
  resources: ResourceMeta[];
  /** The routes of the profile's menu. */
  routes: string[];
  context: { clientId?: number; divisionId?: number; companyId: number | null; profileType?: string };
}

/** Before sign-in the console knows no resources: the login page needs none. */
export const SIGNED_OUT_META: Meta = {
  version: APP_VERSION,
  modules: [],
  resources: [],
  routes: [],
  context: { companyId: null },
};

/**
 * Loads the resources the signed-in profile reaches and their schemas from the server: the same
 * schemas it validates with. Undefined when the session is gone.
 */
export async function fetchMeta(): Promise<Meta | undefined> {
  const response = await apiFetch('/api/meta');
  if (response.status === 401 || response.status === 403) return undefined;
  if (!response.ok) throw new Error(`GET /api/meta answered ${response.status}`);
  return (await response.json()) as Meta;
}

export const MetaContext = createContext<Meta | null>(null);

export function useMeta(): Meta {
  const meta = useContext(MetaContext);
  if (!meta) throw new Error('useMeta outside MetaContext');
  return meta;
}

export function useResourceMeta(name?: string): ResourceMeta {
  const meta = useMeta();
  const current = useResourceContext({ resource: name });
  const found = meta.resources.find((r) => r.name === current);
  if (!found) throw new Error(`no schema for resource ${current}`);
  return found;
}

/**
 * The resources whose screens the profile opens: those of its menu. The others it may read (the
 * entities its screens refer to) fill selects and labels, but have no list or page of their own.
 */
export function isScreen(meta: Pick<Meta, 'routes'>, name: string): boolean {
  return meta.routes.includes(`/${name}`);
}

/** What the profile may do with another resource: open its screen, read it for labels, or neither. */
export type Reach = 'screen' | 'read' | 'none';

export function reachOf(meta: Meta, name: string): Reach {
  const resource = meta.resources.find((r) => r.name === name);
  // A workflow's form lends its schema only: its records come through the workflow's calls.
  if (!resource || resource.access === 'form') return 'none';
  return isScreen(meta, name) ? 'screen' : 'read';
}

export function useReach(name: string): Reach {
  return reachOf(useMeta(), name);
}

/** How a record reads in selects, titles and references: its x-label fields joined. */
export function representation(resource: ResourceMeta) {
  return (record: Record<string, unknown> | undefined): string =>
    record
      ? resource.schema['x-label']
          .map((field) => record[field])
          .filter((v) => v !== null && v !== undefined && v !== '')
          .join(' ')
      : '';
}
