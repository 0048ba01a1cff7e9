/**
 * The accreditation calls of spec section 7 as the screens use them: dashboards, the company and
 * request grids, a request's record and requirement items, and the requester's and the
 * authoriser's writes. Every answer comes inside `result`; a refusal is an ApiRequestError with
 * the server's message key and per-field problems.
 */

import type { RequestFacts, RequestStatus } from '../../../../workflows/request.machine.js';
import type { LineStatus } from '../../../../workflows/requirement-approval.machine.js';
import {
  ENTITY_CODES,
  type EntityCode,
  OVERDUE_ELSEWHEN_NAMES,
  OVERDUE_NAMES,
  requestRoute,
} from '../../../shared/accreditation.js';
import type { WholeDecision } from '../../../shared/approvals.js';
import type { FieldError } from '../../../shared/errors.js';
import { ApiRequestError, apiCall, apiFetch } from '../../session/http.js';

const BASE = '/api/acreditacionsolicitud';

export type Side = 'solicitante' | 'autorizador';

/** The route segment of each kind and back. */
export { KIND_OF_SEGMENT } from '../../../shared/accreditation.js';

/**
 * A request screen's path: the list of a side and kind, or one request. `type` A (a requirement
 * update) lives under the renewal's area, /requisito/…, with its own breadcrumb.
 */
export function screenPath(side: Side, entity: EntityCode, id?: number | 'nueva', type?: string): string {
  const base = requestRoute(side, entity).replace(
    /^\/movilizacion\//,
    type === 'A' ? '/requisito/' : '/movilizacion/',
  );
  return id === undefined ? base : `${base}/${id}`;
}

/** A status row of a dashboard card (spec section 3, "Dashboard rows"). */
export interface CardRow {
  ENTIDAD: EntityCode;
  ESTADO: RequestStatus;
  DESCRIPCION: string;
  DESCRIPCION2: string;
  TOTAL: number;
  Index: number;
}
export type DashboardAnswer = [Array<Record<string, number>>, CardRow[], CardRow[], CardRow[]];

/** A kind's rows of a dashboard answer (summary first, then workers, vehicles, visits). */
export function rowsOf(answer: DashboardAnswer | undefined, entity: EntityCode): CardRow[] {
  return (answer?.[ENTITY_CODES.indexOf(entity) + 1] ?? []) as CardRow[];
}

/**
 * How many of a kind's observed requests are past a correction deadline (the answer's summary): of
 * the dashboard's months (part of its Observed row), and of other months.
 */
export function overdueOf(
  answer: DashboardAnswer | undefined,
  entity: EntityCode,
): { count: number; other: number } {
  const summary = answer?.[0]?.[0];
  return {
    count: Number(summary?.[OVERDUE_NAMES[entity]] ?? 0),
    other: Number(summary?.[OVERDUE_ELSEWHEN_NAMES[entity]] ?? 0),
  };
}

export interface ViewPermission {
  Tipo: 'M' | 'D' | 'A';
  IdEntidad: EntityCode;
  Ver: 'S' | 'N';
}

export interface CompanyRow {
  IdCompaniaContratista: number;
  Documento: string;
  CompaniaContratista: string;
  PENDIENTES: number;
  OBSERVADOS: number;
  Total: number;
}

export interface RequestRow {
  IdSolicitud: number;
  NumeroSolicitud: string;
  IdEntidad: EntityCode;
  Nombres: string | null;
  Documento: string | null;
  FechaInicio: string;
  FechaFin: string;
  FechaSolicitud: string;
  DescripcionPerfil: string | null;
  EstadoAprobacion: RequestStatus;
  CompaniaContratista: string | null;
  NumeroContrato: string | null;
  /** A requirement update's requirement (the one it renews). */
  Requisito?: string | null;
}

/** A bulk delete's answer: the requests deleted, and each kept one with its reason. */
export interface Removed {
  Eliminadas: number[];
  Rechazadas: Array<{ IdSolicitud: number; messageKey: string; message?: string }>;
  /** "Some records could not be deleted", naming the kept ones, in the session's language. */
  message?: string;
}

export interface Page<T> {
  data: T[];
  totalCount: number;
}

export interface HistoryRow {
  Fecha: string;
  IdUsuario: string;
  Evento: string;
  EstadoAnterior: RequestStatus | null;
  EstadoNuevo: RequestStatus | null;
  Motivo: string | null;
}

export interface Visitor {
  IdVisitaPersona?: number;
  IdTipoDocumento?: number;
  Documento?: string;
  Apellido?: string;
  Nombre?: string;
  Email?: string;
}

/** The request record of spec section 3 with its context, history and the machine's facts. */
/** A client's additional datum of the request's entity, with the request's value. */
export interface AdditionalValue {
  IdDatoAdicional: number;
  Dato: string;
  TipoDato: 'N' | 'T' | 'F' | 'L';
  Longitud?: number | null;
  Obligatorio: 'S' | 'N';
  Orden: number;
  Valor: string | null;
}

export interface RequestRecord extends Record<string, unknown> {
  IdSolicitud: number;
  /** The client's additional data of its entity (Administration > Additional data), with their values. */
  DatosAdicionales?: AdditionalValue[];
  NumeroSolicitud: string;
  IdEntidad: EntityCode;
  /** M mobilisation, A requirement update (renewal): each is decided through its own call. */
  TipoSolicitud?: string;
  /** For an authoriser, of a pending request: whether deciding it whole is theirs (src/shared/approvals.ts). */
  Decision?: WholeDecision;
  IdContrato: number;
  IdPerfilAcreditacion: number;
  EstadoAprobacion: RequestStatus;
  FechaInicio: string;
  FechaFin: string;
  FechaSolicitud: string;
  SolicitudCompleta: 'S' | 'N';
  IndisciplinaRechazo: 'S' | 'N';
  MotivoRechazo: string | null;
  ObservacionAutorizador: string | null;
  ClaveFoto: string | null;
  Visitantes?: Visitor[];
  CompaniaContratista: string | null;
  CompaniaMandante: string | null;
  Division: string | null;
  Perfil: string | null;
  NumeroContrato: string | null;
  Asunto: string | null;
  FechaInicioContrato: string | null;
  FechaFinContrato: string | null;
  hechos: RequestFacts;
  historial: HistoryRow[];
}

/** A requirement item of a request (one datum's line; a visit has one per visitor). */
export interface Item {
  Index: number;
  IdSecuencial: number;
  IdSolicitud: number;
  IdVisitaPersona: number | null;
  IdRequisito: number;
  Requisito: string;
  IdTipoRequisito: number;
  IdDatoEvaluar: number;
  Text: string;
  Tipo: 'N' | 'T' | 'F' | 'L' | 'G' | 'A' | 'R' | 'B';
  Value: string | null;
  TipoRequisito: 'S' | 'A';
  Obligatorio: 'S' | 'N';
  Aprobar: 'S' | 'N';
  AdjuntarArchivo: 'S' | 'N';
  DatoOpcional: 'S' | 'N';
  Vencimiento?: 'S' | 'N';
  EstadoAprobacion: LineStatus | null;
  Observacion: string | null;
  NombreArchivo: string | null;
  TieneArchivo: 'S' | 'N';
  /** The sensitive class (health, criminal record) the profile may not read: value and file withheld. */
  Protegido?: 'health' | 'criminal' | null;
  IdUsuarioAprobacion: string | null;
  FechaAprobacion: string | null;
  /** An observed line's correction deadline (yyyy-mm-dd), when its requirement type sets one. */
  FechaLimiteCorreccion?: string | null;
  /** A value carried over from the holder's accreditation: the request that accredited it. */
  IdSolicitudOrigen?: number | null;
  /** A value a requirement source proved (a passed induction): its name, its facts (JSON) and certificate. */
  Fuente?: string | null;
  DetalleFuente?: string | null;
  EnlaceFuente?: string | null;
  /** For an authoriser: the states the line may take now. */
  opciones: LineStatus[];
  /** For an authoriser: the lines (requirement · datum) its own line waits for before approval. */
  Espera?: string[];
  readOnly: boolean;
}
export interface Group {
  IdTipoRequisito: number;
  Descripcion: string;
  Requisitos: number[];
}
export interface Choice {
  IdDatoEvaluar: number;
  IdDato: string;
  Dato: string;
}
export type Detail = [Item[], Item[], Group[], Choice[]];

/** A line's value sent by the requester (spec: the request's Detalle). */
export interface LineValue {
  IdDatoEvaluar: number;
  Valor: string | null;
  IdVisitaPersona?: number;
}

/** A line's evaluation sent by an authoriser. */
export interface LineEvaluation {
  IdDetalle: number;
  EstadoAprobacion: LineStatus;
  Observacion?: string | null;
  Valor?: string | null;
}

export type RequestAction = 'APROBAR' | 'OBSERVAR' | 'RECHAZAR' | 'DEVOLVER';

export interface Summary {
  IdSolicitud: number;
  EstadoAprobacion: RequestStatus;
  SolicitudCompleta: 'S' | 'N';
}

const query = (params: Record<string, string | number | undefined | null>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  return search.toString();
};

/** The per-field problems of a refusal, by field (`Detalle.<IdDatoEvaluar>` for a requirement). */
export function fieldErrors(error: unknown): Record<string, FieldError> {
  if (!(error instanceof ApiRequestError)) return {};
  return ((error.body as { errors?: Record<string, FieldError> } | undefined)?.errors ?? {}) as Record<
    string,
    FieldError
  >;
}

async function upload<T>(
  method: 'POST' | 'PUT',
  url: string,
  fields: Record<string, string | number>,
  file: File,
) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, String(value));
  form.set('file', file, file.name);
  const response = await apiFetch(url, { method, body: form });
  const text = await response.text();
  const json = text ? (JSON.parse(text) as { result?: T; message?: string }) : undefined;
  if (!response.ok) throw new ApiRequestError(json?.message ?? response.statusText, response.status, json);
  return json?.result as T;
}

export interface Known {
  persona?: Record<string, unknown> | null;
  vehiculo?: Record<string, unknown> | null;
  solicitudAbierta: { IdSolicitud: number; EstadoAprobacion: string } | null;
  acreditacion: { FechaFin: string; Estado: string } | null;
}

export const accreditationApi = {
  requesterDashboard: (year: number, months: number[]) =>
    apiCall<DashboardAnswer>(
      'GET',
      `${BASE}/dashboard?${query({ CantYear: year, CantMonth: months.join(',') })}`,
    ),
  authoriserDashboard: (months: number) =>
    apiCall<DashboardAnswer>('GET', `${BASE}/dashboardAutorizador?${query({ CantMeses: months })}`),
  /** Which kinds the session's user approves in its division, in what order. */
  approverRows: () =>
    apiCall<Array<{ IdEntidad: EntityCode; Orden: number }>>(
      'GET',
      '/api/acreditacionautorizadorusuario/ListarByUser',
    ),
  viewPermissions: () => apiCall<ViewPermission[]>('GET', '/api/acreditacionpermisovista/listar'),
  companies: (grid: Record<string, string>, filters: Record<string, string | number | undefined>) =>
    apiCall<Page<CompanyRow>>('GET', `${BASE}/filtrarcompaniaresumen?${query({ ...grid, ...filters })}`),
  requests: (grid: Record<string, string>, filters: Record<string, string | number | undefined>) =>
    apiCall<Page<RequestRow>>('GET', `${BASE}/filtrar?${query({ ...grid, ...filters })}`),
  record: (side: Side, id: number) =>
    apiCall<RequestRecord>(
      'GET',
      `${BASE}/${side === 'solicitante' ? 'obtenersolicitud' : 'obtenersolicitudbyautorizador'}?IdSolicitud=${id}`,
    ),
  detail: (side: Side, entity: EntityCode, id: number) =>
    apiCall<Detail>(
      'GET',
      `/api/${entity === 'V' ? 'acreditacionsolicitudvehiculodetalle' : 'acreditacionsolicituddetalle'}/${
        side === 'solicitante' ? 'obtener' : 'obtenerbyautorizador'
      }?IdSolicitud=${id}`,
    ),
  download: (entity: EntityCode, id: number, line: number) =>
    apiCall<{ file: string; name: string; type: string | null }>(
      'GET',
      `/api/${entity === 'V' ? 'acreditacionsolicitudvehiculodetalle' : 'acreditacionsolicituddetalle'}/downloadFileBase64?${query({ IdSolicitud: id, IdFile: line })}`,
    ),
  photo: (id: number) =>
    apiCall<{ file: string; name: string }>('GET', `${BASE}/descargarfoto?IdSolicitud=${id}`),
  /** A worker or vehicle already registered, with its open request and accreditation, if any. */
  known: (params: Record<string, string | number | undefined>) =>
    apiCall<Known>('GET', `${BASE}/validar?${query(params)}`),
  create: (body: Record<string, unknown>) => apiCall<Summary>('POST', `${BASE}/crearsolicitante`, body),
  update: (body: Record<string, unknown>) => apiCall<Summary>('POST', `${BASE}/actualizarsolicitante`, body),
  send: (id: number) => apiCall<Summary>('POST', `${BASE}/cerrarsolicitud`, { IdSolicitud: id }),
  remove: (id: number) => apiCall<{ IdSolicitud: number }>('DELETE', `${BASE}/eliminar?IdSolicitud=${id}`),
  /** The selected incomplete requests deleted; the others named with their reason. */
  removeMany: (ids: number[]) => apiCall<Removed>('POST', `${BASE}/eliminarmasivo`, { Solicitudes: ids }),
  attach: (id: number, datum: number, file: File, visitor?: number | null) =>
    upload<Summary>(
      'POST',
      `${BASE}/UploadSolicitanteArchivo`,
      { IdSolicitud: id, IdDatoEvaluar: datum, ...(visitor ? { IdVisitaPersona: visitor } : {}) },
      file,
    ),
  uploadPhoto: (id: number, file: File) =>
    upload<Summary>('POST', `${BASE}/crearsolicitantefoto`, { IdSolicitud: id }, file),
  /** An evaluation, through the call of the request's kind (a renewal's is the renewal's own). */
  evaluate: (
    body: {
      IdSolicitud: number;
      Detalle: LineEvaluation[];
      Accion?: RequestAction;
      MotivoRechazo?: string;
      IndisciplinaRechazo?: 'S' | 'N';
    },
    kind?: string,
  ) =>
    apiCall<Summary>(
      'POST',
      kind === 'A'
        ? '/api/acreditacionrequisitosolicitud/actualizarautorizador'
        : `${BASE}/actualizarsolicitanteautorizador`,
      body,
    ),
  exportCompanies: (body: Record<string, unknown>) =>
    apiCall<{ fileBase64: string; fileName: string }>('POST', `${BASE}/exportarExcelCompaniaResumen`, body),
  exportRequests: (body: Record<string, unknown>) =>
    apiCall<{ fileBase64: string; fileName: string }>('POST', `${BASE}/exportarExcelSolicitudPersonas`, body),
};

/** One record of the generic API (a contract's dates, a profile's longest visit). */
export async function restRecord<T>(resource: string, id: number): Promise<T> {
  const response = await apiFetch(`/api/rest/${resource}/${id}`);
  if (!response.ok) throw new ApiRequestError(response.statusText, response.status, undefined);
  return (await response.json()) as T;
}
