import { ENTITY_CODES, type EntityCode, isEntityCode, requestRoute } from '../../../shared/accreditation.js';
import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import type { Principal } from '../../principal.js';
import type { Registry } from '../../registry.js';
import { type Requester, requesterOf } from '../../services/requester.js';

/** An approver row of the session's user in the session's division (spec: acreditacionautorizadorusuario). */
export interface ApproverRow {
  IdAutorizador: number;
  IdEntidad: EntityCode;
  Orden: number;
  IdTipoRequisito: number | null;
}

/** An authoriser at work: what the session's user approves in the session's division. */
export interface Authoriser {
  principal: Principal;
  rows: ApproverRow[];
  entities: EntityCode[];
}

/** The session's approver rows in its division. */
export async function approverRows(db: Db, registry: Registry, principal: Principal): Promise<ApproverRow[]> {
  if (principal.clientId === undefined || principal.divisionId === undefined) return [];
  return (await db
    .selectFrom(registry.require('approver').table)
    .select(['IdAutorizador', 'IdEntidad', 'Orden', 'IdTipoRequisito'])
    .where('IdCliente', '=', principal.clientId)
    .where('IdDivision', '=', principal.divisionId)
    .where('IdUsuario', '=', principal.userId)
    .where('Activo', '=', 'S')
    .orderBy('Orden')
    .execute()) as ApproverRow[];
}

/**
 * The session as an authoriser: a user named approver of some kind in the session's division,
 * whose menu holds the authoriser's screen of that kind. Only those kinds are its to see.
 */
export async function authoriserOf(
  db: Db,
  registry: Registry,
  principal: Principal,
  entity?: unknown,
): Promise<Authoriser> {
  const routes = principal.grants?.routes ?? new Set<string>();
  const rows = (await approverRows(db, registry, principal)).filter((r) =>
    routes.has(requestRoute('autorizador', r.IdEntidad)),
  );
  const entities = ENTITY_CODES.filter((e) => rows.some((r) => r.IdEntidad === e));
  if (!entities.length) throw new ApiError('FORBIDDEN');
  if (entity !== undefined && !(isEntityCode(entity) && entities.includes(entity)))
    throw new ApiError('FORBIDDEN');
  return { principal, rows, entities };
}

/** The session as requester, or else as authoriser: who may read requests (of a kind). */
export async function viewerOf(
  db: Db,
  registry: Registry,
  principal: Principal,
  kind?: unknown,
): Promise<Requester | Authoriser> {
  try {
    return requesterOf(principal, kind);
  } catch {
    return authoriserOf(db, registry, principal, kind);
  }
}

/** Who runs a screen of the client's (a query, a report): its division, or one contractor company of it. */
export interface ScreenScope {
  clientId: number;
  divisionId: number;
  companyId?: number;
}

/** The session's scope for a screen its menu must hold (`route`): else 403. */
export function screenScope(principal: Principal, route: string): ScreenScope {
  if (
    principal.clientId === undefined ||
    principal.divisionId === undefined ||
    !principal.grants?.routes?.has(route)
  )
    throw new ApiError('FORBIDDEN');
  return {
    clientId: principal.clientId,
    divisionId: principal.divisionId,
    ...(principal.companyId !== undefined && { companyId: principal.companyId }),
  };
}
