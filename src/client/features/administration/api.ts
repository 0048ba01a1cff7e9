import { ApiRequestError, apiCall, apiFetch } from '../../session/http.js';

/** Whose photos: a person's (mobile and extra) or a vehicle's. */
export type PhotoOwner = 'person' | 'vehicle';

/** A kept photo, as the list answers it. */
export interface Photo {
  id: number;
  Tipo?: 'M' | 'E';
  NombreArchivo: string;
  Ancho?: number;
  Alto?: number;
}

const CALLS: Record<PhotoOwner, { base: string; key: string; photoKey: string }> = {
  person: { base: '/api/AdministracionPersona', key: 'IdPersona', photoKey: 'IdFotoPersona' },
  vehicle: { base: '/api/AdministracionVehiculo', key: 'IdVehiculo', photoKey: 'IdFotoVehiculo' },
};

/** The photo calls of a person or a vehicle (AdministracionPersona / AdministracionVehiculo). */
export function photosApi(owner: PhotoOwner) {
  const { base, key, photoKey } = CALLS[owner];
  return {
    list: async (id: number): Promise<Photo[]> =>
      (await apiCall<Array<Record<string, unknown>>>('GET', `${base}/fotos?${key}=${id}`)).map((row) => ({
        ...(row as Omit<Photo, 'id'>),
        id: Number(row[photoKey]),
      })),
    /** The image, as an object URL the caller revokes. */
    image: async (photo: number): Promise<string> => {
      const response = await apiFetch(`${base}/descargarfoto?${photoKey}=${photo}`, {
        headers: { Accept: 'image/*' },
      });
      if (!response.ok) throw new ApiRequestError(response.statusText, response.status, undefined);
      return URL.createObjectURL(await response.blob());
    },
    add: async (id: number, file: File, kind?: 'M' | 'E'): Promise<void> => {
      const form = new FormData();
      form.set(key, String(id));
      if (kind) form.set('Tipo', kind);
      form.set('file', file, file.name);
      const response = await apiFetch(`${base}/subirfoto`, { method: 'POST', body: form });
      if (!response.ok) {
        const text = await response.text();
        const json = text ? (JSON.parse(text) as { message?: string }) : undefined;
        throw new ApiRequestError(json?.message ?? response.statusText, response.status, json);
      }
    },
    remove: (photo: number) => apiCall<unknown>('DELETE', `${base}/eliminarfoto?${photoKey}=${photo}`),
  };
}
