import type { Db } from '../../../db/connection.js';
import { ApiError } from '../../../errors.js';
import type { Registry } from '../../../registry.js';
import type { RequestEngine } from '../engine/engine.js';

const refuse = (field: string, messageKey: string, params?: Record<string, string>): never => {
  throw new ApiError('VALIDATION_FAILED', {
    messageKey,
    params,
    fields: { [field]: { messageKey, params } },
  });
};

/**
 * A worker's request stays within what its contract lists (spec section 3 Contract: organisational
 * units, cost centres): when the contract names organisational units (contract-unit), the request's
 * unit is one of them, and it must name one when the contract's endowment applies by unit (else
 * nobody would count it); when the contract names cost centres (contract-cost-centre), the
 * request's cost centre, if it names one, is one of them. A contract that lists none leaves the
 * request's choice free. Refused on the field, with the contract's own choices named.
 */
export async function checkContractTerms(
  engine: RequestEngine,
  trx: Db,
  request: { IdContrato?: unknown; IdUnidadOrganizativa?: unknown; IdCentroCosto?: unknown },
): Promise<void> {
  const contract = Number(request.IdContrato);
  if (!Number.isInteger(contract) || contract <= 0) return;
  const unit = request.IdUnidadOrganizativa ?? null;
  const costCentre = request.IdCentroCosto ?? null;
  const units = (await trx
    .selectFrom(`${engine.table('contract-unit')} as cu`)
    .innerJoin(
      `${engine.table('organisational-unit')} as u`,
      'u.IdUnidadOrganizativa',
      'cu.IdUnidadOrganizativa',
    )
    .select(['cu.IdUnidadOrganizativa as id', 'u.Descripcion as name'])
    .where('cu.IdContrato', '=', contract)
    .where('cu.Activo', '=', 'S')
    .orderBy('u.Descripcion')
    .execute()) as Array<{ id: number; name: string }>;
  if (unit === null) {
    const mode = (await trx
      .selectFrom(engine.table('contract'))
      .select('TipoDotacion')
      .where('IdContrato', '=', contract)
      .executeTakeFirst()) as { TipoDotacion: string | null } | undefined;
    if (mode?.TipoDotacion === 'U')
      refuse('IdUnidadOrganizativa', 'accreditation.refusals.unitRequired', {
        units: units.map((u) => u.name).join(', '),
      });
  } else if (units.length && !units.some((u) => u.id === Number(unit)))
    refuse('IdUnidadOrganizativa', 'accreditation.refusals.unitNotInContract', {
      units: units.map((u) => u.name).join(', '),
    });
  if (costCentre === null) return;
  const centres = (await trx
    .selectFrom(`${engine.table('contract-cost-centre')} as cc`)
    .innerJoin(`${engine.table('cost-centre')} as c`, 'c.IdCentroCosto', 'cc.IdCentroCosto')
    .select(['cc.IdCentroCosto as id', 'c.Codigo as code'])
    .where('cc.IdContrato', '=', contract)
    .where('cc.Activo', '=', 'S')
    .orderBy('c.Codigo')
    .execute()) as Array<{ id: number; code: string }>;
  if (centres.length && !centres.some((c) => c.id === Number(costCentre)))
    refuse('IdCentroCosto', 'accreditation.refusals.costCentreNotInContract', {
      centres: centres.map((c) => c.code).join(', '),
    });
}

/**
 * What a contract lists beside its header (spec section 3 Contract), for a request's context: its
 * operators 1 and 2 by name, its organisational units with their endowment, its cost centres, its
 * subcontractors with their period and its associated services; active ones only.
 */
export async function contractParts(db: Db, registry: Registry, contract: number) {
  const table = (name: string) => registry.require(name).table;
  const header = (await db
    .selectFrom(table('contract'))
    .select(['IdOperador1', 'IdOperador2'])
    .where('IdContrato', '=', contract)
    .executeTakeFirst()) as { IdOperador1: string | null; IdOperador2: string | null } | undefined;
  const ids = [header?.IdOperador1, header?.IdOperador2].filter((u): u is string => Boolean(u));
  const users = ids.length
    ? ((await db
        .selectFrom(table('user'))
        .select(['IdUsuario', 'Nombre', 'Apellido'])
        .where('IdUsuario', 'in', ids)
        .execute()) as Array<{ IdUsuario: string; Nombre: string | null; Apellido: string | null }>)
    : [];
  const Operadores = ids.map((id) => {
    const user = users.find((u) => u.IdUsuario === id);
    return { IdUsuario: id, Nombre: [user?.Nombre, user?.Apellido].filter(Boolean).join(' ') || id };
  });
  const UnidadesOrganizativas = await db
    .selectFrom(`${table('contract-unit')} as cu`)
    .innerJoin(`${table('organisational-unit')} as u`, 'u.IdUnidadOrganizativa', 'cu.IdUnidadOrganizativa')
    .select(['cu.IdUnidadOrganizativa', 'u.Codigo', 'u.Descripcion', 'cu.Dotacion'])
    .where('cu.IdContrato', '=', contract)
    .where('cu.Activo', '=', 'S')
    .orderBy('u.Codigo')
    .execute();
  const CentrosCosto = await db
    .selectFrom(`${table('contract-cost-centre')} as cc`)
    .innerJoin(`${table('cost-centre')} as c`, 'c.IdCentroCosto', 'cc.IdCentroCosto')
    .select(['cc.IdCentroCosto', 'c.Codigo', 'c.Descripcion'])
    .where('cc.IdContrato', '=', contract)
    .where('cc.Activo', '=', 'S')
    .orderBy('c.Codigo')
    .execute();
  const Subcontratistas = await db
    .selectFrom(`${table('contract-subcontractor')} as s`)
    .innerJoin(`${table('company')} as c`, 'c.IdCompania', 's.IdCompania')
    .select(['s.IdCompania', 'c.Compania', 's.Actividad', 's.FechaInicio', 's.FechaFin', 's.Dotacion'])
    .where('s.IdContrato', '=', contract)
    .where('s.Activo', '=', 'S')
    .orderBy('c.Compania')
    .execute();
  const Servicios = await db
    .selectFrom(table('contract-service'))
    .select(['TipoServicio', 'Descripcion'])
    .where('IdContrato', '=', contract)
    .where('Activo', '=', 'S')
    .orderBy('TipoServicio')
    .execute();
  return { Operadores, UnidadesOrganizativas, CentrosCosto, Subcontratistas, Servicios };
}
