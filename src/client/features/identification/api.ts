import type { HolderRow } from '../../../shared/identification.js';
import { apiCall } from '../../session/http.js';
import { restList } from '../../session/records.js';

/** The active records of a catalogue the screen chooses from (its generic list call). */
const active = <T>(resource: string, filter: Record<string, string> = {}) =>
  restList<T>(resource, { Activo: 'S', ...filter });

export interface Choice {
  id: number;
  name: string;
}

export interface Printed {
  fileBase64: string;
  fileName: string;
  fileType: string;
  sinFoto: string[];
}

const BASE = '/api/identificacion';

/** The identification office's calls. */
export const identificationApi = {
  holders: (params: Record<string, string>) =>
    apiCall<{ data: HolderRow[]; totalCount: number }>(
      'GET',
      `${BASE}/titulares?${new URLSearchParams(params)}`,
    ),
  issue: (body: Record<string, unknown>) =>
    apiCall<Record<string, unknown>>('POST', `${BASE}/credenciales`, body),
  reissue: (id: number, body: Record<string, unknown>) =>
    apiCall<Record<string, unknown>>('POST', `${BASE}/credenciales/${id}/reemitir`, body),
  inactivate: (id: number, body: Record<string, unknown>) =>
    apiCall<Record<string, unknown>>('POST', `${BASE}/credenciales/${id}/inactivar`, body),
  print: (ids: number[], formato: 'tarjeta' | 'a4') =>
    apiCall<Printed>('POST', `${BASE}/fotocheck`, { IdCredenciales: ids, formato }),
  /** The active credential types, and the reasons of issue (E) or of inactivation (I). */
  types: async (): Promise<Choice[]> =>
    (await active<{ IdTipoCredencial: number; Descripcion: string }>('credential-type')).map((r) => ({
      id: r.IdTipoCredencial,
      name: r.Descripcion,
    })),
  reasons: async (kind: 'E' | 'I'): Promise<Choice[]> =>
    (await active<{ IdMotivo: number; Descripcion: string }>('identification-reason', { Tipo: kind })).map(
      (r) => ({ id: r.IdMotivo, name: r.Descripcion }),
    ),
};
