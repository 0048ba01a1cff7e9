/**
 * The calls after approval (spec section 7): demobilisation (/api/acreditaciondesmovilizacion) and
 * requirement update (/api/acreditacionrequisitosolicitud), as the screens use them.
 */
import { ENTITY_ROUTE, type EntityCode, HOLDER_COLUMN } from '../../../../shared/accreditation.js';
import { type DashboardKind, REQUEST_KINDS } from '../../../../shared/request-kinds.js';
import { apiCall, queryString as query } from '../../../session/http.js';
import { restList } from '../../../session/records.js';
import type { DashboardAnswer, Page, Removed, RequestRow } from '../api.js';

const DEMOBILISATION = '/api/acreditaciondesmovilizacion';
const RENEWAL = '/api/acreditacionrequisitosolicitud';
const CONTRACT = '/api/acreditacioncontrato';

/** A contract request: E extension (a later end), C change (another contract). */
export type ContractKind = 'E' | 'C';

export interface ContractChoice {
  IdContrato: number;
  NumeroContrato: string;
  FechaInicio: string;
  FechaFin: string;
}

/** The request types with a dashboard tab, and the route area of each. */
export type Kind = DashboardKind;
export { KIND_OF_SEGMENT } from '../../../../shared/accreditation.js';

export function areaPath(kind: Kind, side: 'solicitante' | 'autorizador', entity: EntityCode): string {
  return `/${REQUEST_KINDS[kind].area}/${side}/${ENTITY_ROUTE[entity]}`;
}

export interface Candidate {
  IdAcreditacion: number;
  IdEntidad: EntityCode;
  IdPersona: number | null;
  IdVehiculo: number | null;
  NumeroContrato: string | null;
  FechaInicio: string;
  FechaFin: string;
  Estado: 'A' | 'S';
  Documento: string | null;
  Apellido: string | null;
  Nombre: string | null;
  Placa: string | null;
}

export interface Revoked {
  Recurso: string;
  IdRegistro: number;
  Descripcion: string | null;
}

export interface DemobilisationRecord extends RequestRow {
  Observacion: string | null;
  ObservacionAutorizador: string | null;
  acreditacion: { IdAcreditacion: number; Estado: string; FechaFin: string } | null;
  historial: Array<{ Fecha: string; IdUsuario: string; Evento: string; Motivo: string | null }>;
  revocados: Revoked[];
}

export interface Held {
  IdRequisito: number;
  Requisito: string;
  Obligatorio: string;
  FechaVencimiento: string | null;
}

export interface ExpiryCard {
  IdEntidad: EntityCode;
  VENCIDOS: number;
  POR_VENCER: number;
  detalle: Array<{
    IdRequisitoAcreditado: number;
    Titular: number;
    Requisito: string;
    FechaVencimiento: string;
  }>;
}

const baseOf = (kind: Kind) =>
  kind === 'D' ? DEMOBILISATION : kind === 'A' ? RENEWAL : '/api/acreditacionsolicitud';

export const afterApi = {
  requesterDashboard: (kind: Kind, year: number, months: number[]) =>
    apiCall<DashboardAnswer>(
      'GET',
      `${baseOf(kind)}/dashboard?${query({ CantYear: year, CantMonth: months.join(',') })}`,
    ),
  authoriserDashboard: (kind: Kind, months: number) =>
    apiCall<DashboardAnswer>('GET', `${baseOf(kind)}/dashboardAutorizador?${query({ CantMeses: months })}`),
  candidates: (entity: EntityCode) =>
    apiCall<Candidate[]>('POST', `${DEMOBILISATION}/filtrarNuevoSolicitante`, { IdEntidad: entity }),
  demobilise: (entity: EntityCode, ids: number[], observation: string, date?: string) =>
    apiCall<{ Solicitudes: Array<{ IdSolicitud: number; EstadoAprobacion: string }> }>(
      'POST',
      `${DEMOBILISATION}/crear`,
      {
        IdEntidad: entity,
        Acreditaciones: ids,
        Observacion: observation,
        ...(date ? { FechaDesmovilizacion: date } : {}),
      },
    ),
  demobilisations: (entity: EntityCode, status?: string) =>
    apiCall<Page<RequestRow>>('POST', `${DEMOBILISATION}/FiltrarSolicitante`, {
      IdEntidad: entity,
      take: 200,
      ...(status ? { EstadoAprobacion: status } : {}),
    }),
  demobilisation: (id: number) =>
    apiCall<DemobilisationRecord>('GET', `${DEMOBILISATION}/obtenerbyautorizador?IdSolicitud=${id}`),
  /** The requester's bulk delete of requests of a kind (spec section 4). */
  removeMany: (kind: 'D' | 'A', ids: number[]) =>
    apiCall<Removed>('POST', `${baseOf(kind)}/eliminarmasivo`, { Solicitudes: ids }),
  decideDemobilisations: (ids: number[], action: string, observation: string) =>
    apiCall<{ Solicitudes: Array<{ IdSolicitud: number; EstadoAprobacion: string; revocados: Revoked[] }> }>(
      'POST',
      `${DEMOBILISATION}/actualizarautorizadormasivo`,
      { Solicitudes: ids, Accion: action, ...(observation ? { Observacion: observation } : {}) },
    ),
  /** The company's accredited workers, vehicles or visitors a requirement update may renew. */
  renewable: (entity: EntityCode) =>
    apiCall<Candidate[]>('GET', `${RENEWAL}/acreditados?${query({ IdEntidad: entity })}`),
  renewals: (entity: EntityCode, status?: string) =>
    apiCall<Page<RequestRow>>(
      'GET',
      `${RENEWAL}/filtrar?${query({ IdEntidad: entity, take: 200, EstadoAprobacion: status })}`,
    ),
  held: (entity: EntityCode, holder: number) =>
    apiCall<Held[]>(
      'GET',
      `${RENEWAL}/requisitosacreditados?${query({ IdEntidad: entity, [HOLDER_COLUMN[entity]]: holder })}`,
    ),
  renew: (entity: EntityCode, holder: number, requirement: number) =>
    apiCall<{ IdSolicitud: number }>('POST', `${RENEWAL}/crear`, {
      IdEntidad: entity,
      [HOLDER_COLUMN[entity]]: holder,
      IdRequisito: requirement,
    }),
  decideRenewals: (ids: number[], action: string, observation: string) =>
    apiCall<{ Solicitudes: Array<{ IdSolicitud: number; EstadoAprobacion: string }> }>(
      'POST',
      `${RENEWAL}/actualizarautorizadormasivo`,
      { Solicitudes: ids, Accion: action, ...(observation ? { Observacion: observation } : {}) },
    ),
  expiring: () => apiCall<ExpiryCard[]>('GET', `${RENEWAL}/cards`),
  /** The active contracts the session sees (its company's, in its division): a change's targets. */
  contracts: () => restList<ContractChoice>('contract', { Activo: 'S' }),
  contractRequests: (kind: ContractKind, entity: EntityCode) =>
    apiCall<Page<RequestRow>>(
      'GET',
      `${CONTRACT}/filtrar?${query({ Tipo: kind, IdEntidad: entity, take: 200 })}`,
    ),
  fileContractRequests: (kind: ContractKind, body: Record<string, unknown>) =>
    apiCall<{ Solicitudes: Array<{ IdSolicitud: number; EstadoAprobacion: string }> }>(
      'POST',
      `${CONTRACT}/${kind === 'E' ? 'ampliar' : 'cambiar'}`,
      body,
    ),
  decideContractRequests: (kind: ContractKind, ids: number[], action: string, observation: string) =>
    apiCall<{ Solicitudes: Array<{ IdSolicitud: number; EstadoAprobacion: string }> }>(
      'POST',
      `${CONTRACT}/actualizarautorizadormasivo`,
      { Tipo: kind, Solicitudes: ids, Accion: action, ...(observation ? { Observacion: observation } : {}) },
    ),
};
