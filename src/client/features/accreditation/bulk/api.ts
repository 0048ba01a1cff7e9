/** The bulk request calls (spec section 7: excelformato, cargamasiva, procesarmasivo, excelprocesados). */
import { ApiRequestError, apiCall, apiFetch } from '../../../session/http.js';

const BASE = '/api/acreditacionsolicitud';

/** Who comes by file: workers and vehicles (mobilised or renewed), and visits (mobilised only). */
export const BULK_ENTITIES = ['T', 'V', 'P'] as const;
export type BulkEntity = (typeof BULK_ENTITIES)[number];
/** The kinds a requirement update renews from a file. */
export const RENEWED: readonly BulkEntity[] = ['T', 'V'];
export const entityOf = (value: string | null): BulkEntity => BULK_ENTITIES.find((e) => e === value) ?? 'T';

/** An upload's progress and the counts of spec section 4. */
export interface BulkProgress {
  CodigoCargaMasiva: string;
  IdEntidad: BulkEntity;
  IdContrato: number;
  IdPerfilAcreditacion: number;
  /** A requirement update's requirement; null for mobilisation requests. */
  IdRequisito: number | null;
  NombreArchivo: string | null;
  /** C being checked, V checked, R being processed, F processed. */
  Estado: 'C' | 'V' | 'R' | 'F';
  loaded: number;
  /** Rows the dry run has not checked yet. */
  toCheck: number;
  observed: number;
  processed: number;
  successful: number;
  toProcess: number;
  running: boolean;
}

/** A row as read, with its errors by column key (`*`: the row) worded in the user's language. */
export interface BulkRow {
  Fila: number;
  Documento: string | null;
  Estado: 'P' | 'V' | 'E' | 'S' | 'F';
  IdSolicitud: number | null;
  Datos: Record<string, string | number>;
  Errores: Record<string, string>;
  /** The PDFs of the attachments zip kept for the row's request. */
  Archivos: string[];
}

/** An upload's answer: its progress, the PDFs attached and the zip's files no row matched. */
export interface BulkUploaded extends BulkProgress {
  attached: number;
  unusedFiles: string[];
}

const q = (code: string) => `CodigoCargaMasiva=${encodeURIComponent(code)}`;

export const bulkApi = {
  requirements: (profile: number) =>
    apiCall<Array<{ IdRequisito: number; Requisito: string }>>(
      'GET',
      `${BASE}/requisitosmasivo?IdPerfilAcreditacion=${profile}`,
    ),
  template: (contract: number, profile: number, requirement?: number | null) =>
    apiCall<{ fileBase64: string; fileName: string }>(
      'GET',
      `${BASE}/excelformato?IdContrato=${contract}&IdPerfilAcreditacion=${profile}${requirement ? `&IdRequisito=${requirement}` : ''}`,
    ),
  async upload(
    contract: number,
    profile: number,
    requirement: number | null,
    file: File,
    zip?: File | null,
  ): Promise<BulkUploaded> {
    const form = new FormData();
    form.set('IdContrato', String(contract));
    form.set('IdPerfilAcreditacion', String(profile));
    if (requirement) form.set('IdRequisito', String(requirement));
    form.set('file', file, file.name);
    if (zip) form.set('adjuntos', zip, zip.name);
    const response = await apiFetch(`${BASE}/cargamasiva`, { method: 'POST', body: form });
    const text = await response.text();
    const json = text ? (JSON.parse(text) as { result?: BulkUploaded; message?: string }) : undefined;
    if (!response.ok) throw new ApiRequestError(json?.message ?? response.statusText, response.status, json);
    return json?.result as BulkUploaded;
  },
  process: (code: string) =>
    apiCall<BulkProgress>('POST', `${BASE}/procesarmasivo`, { CodigoCargaMasiva: code }),
  progress: (code: string) => apiCall<BulkProgress>('GET', `${BASE}/progresomasivo?${q(code)}`),
  rows: (code: string, skip: number, take: number, states?: string) =>
    apiCall<{ rows: BulkRow[]; total: number; headings: Record<string, string> }>(
      'GET',
      `${BASE}/filasmasivo?${q(code)}&skip=${skip}&take=${take}${states ? `&Estado=${states}` : ''}`,
    ),
  processed: (code: string) =>
    apiCall<{ fileBase64: string; fileName: string }>('GET', `${BASE}/excelprocesados?${q(code)}`),
};
