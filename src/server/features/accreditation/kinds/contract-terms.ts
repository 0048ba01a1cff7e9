import type { Db } from '../../../db/connection.js';
import { keptRead } from '../../../db/kept-reads.js';
import { ApiError } from '../../../errors.js';
import type { Registry } from '../../../registry.js';
import { divisionToday } from '../../../site.js';

const refuse = (field: string, messageKey: string, params?: Record<string, string>): never => {
  throw new ApiError('VALIDATION_FAILED', {
    messageKey,
    params,
    fields: { [field]: { messageKey, params } },
  });
};

/** The contract's active organisational units (contract-unit), with their endowment, by code. */
const unitsOf = (db: Db, registry: Registry, contract: number) =>
  db
    .selectFrom(`${registry.require('contract-unit').table} as cu`)
    .innerJoin(
      `${registry.require('organisational-unit').table} as u`,
      'u.IdUnidadOrganizativa',
      'cu.IdUnidadOrganizativa',
    )
    .select(['cu.IdUnidadOrganizativa', 'u.Codigo', 'u.Descripcion', 'cu.Dotacion'])
    .where('cu.IdContrato', '=', contract)
    .where('cu.Activo', '=', 'S')
    .orderBy('u.Codigo')
    .execute() as Promise<
    Array<{ IdUnidadOrganizativa: number; Codigo: string; Descripcion: string; Dotacion: number }>
  >;

/** The contract's active cost centres (contract-cost-centre), by code. */
const centresOf = (db: Db, registry: Registry, contract: number) =>
  db
    .selectFrom(`${registry.require('contract-cost-centre').table} as cc`)
    .innerJoin(`${registry.require('cost-centre').table} as c`, 'c.IdCentroCosto', 'cc.IdCentroCosto')
    .select(['cc.IdCentroCosto', 'c.Codigo', 'c.Descripcion'])
    .where('cc.IdContrato', '=', contract)
    .where('cc.Activo', '=', 'S')
    .orderBy('c.Codigo')
    .execute() as Promise<Array<{ IdCentroCosto: number; Codigo: string; Descripcion: string }>>;

/** The units' names as a refusal lists them, alphabetically. */
const unitNames = (units: Array<{ Descripcion: string }>) =>
  units
    .map((u) => u.Descripcion)
    .sort((a, b) => a.localeCompare(b, 'es'))
    .join(', ');

/**
 * A worker's request stays within what its contract lists (spec section 3 Contract: organisational
 * units, cost centres): when the contract names organisational units (contract-unit), the request's
 * unit is one of them, and it must name one when the contract's endowment applies by unit (else
 * nobody would count it); when the contract names cost centres (contract-cost-centre), the
 * request's cost centre, if it names one, is one of them. A contract that lists none leaves the
 * request's choice free. Refused on the field, with the contract's own choices named. Reads the
 * contract's lists only for what the request names (its mode only when it names no unit).
 */
export async function checkContractTerms(
  db: Db,
  registry: Registry,
  request: { IdContrato?: unknown; IdUnidadOrganizativa?: unknown; IdCentroCosto?: unknown },
): Promise<void> {
  const contract = Number(request.IdContrato);
  if (!Number.isInteger(contract) || contract <= 0) return;
  const unit = request.IdUnidadOrganizativa ?? null;
  const costCentre = request.IdCentroCosto ?? null;
  if (unit === null) {
    const mode = await keptRead(
      `endowment-mode:${contract}`,
      async () =>
        (await db
          .selectFrom(registry.require('contract').table)
          .select('TipoDotacion')
          .where('IdContrato', '=', contract)
          .executeTakeFirst()) as { TipoDotacion: string | null } | undefined,
    );
    if (mode?.TipoDotacion === 'U')
      refuse('IdUnidadOrganizativa', 'accreditation.refusals.unitRequired', {
        units: unitNames(await unitsOf(db, registry, contract)),
      });
  } else {
    const units = await unitsOf(db, registry, contract);
    if (units.length && !units.some((u) => u.IdUnidadOrganizativa === Number(unit)))
      refuse('IdUnidadOrganizativa', 'accreditation.refusals.unitNotInContract', {
        units: unitNames(units),
      });
  }
  if (costCentre === null) return;
  const centres = await centresOf(db, registry, contract);
  if (centres.length && !centres.some((c) => c.IdCentroCosto === Number(costCentre)))
    refuse('IdCentroCosto', 'accreditation.refusals.costCentreNotInContract', {
      centres: centres.map((c) => c.Codigo).join(', '),
    });
}

/**
 * The services the contract's approved addenda in force today add over their period (an addendum
 * bringing the camp's laundry), named by the addendum.
 */
async function addedServices(db: Db, registry: Registry, contract: Record<string, unknown>) {
  const today = await divisionToday(db, registry, Number(contract.IdDivision), Date.now());
  return (await db
    .selectFrom(registry.require('addendum').table)
    .select(['TipoServicio', 'Descripcion'])
    .where('IdContrato', '=', Number(contract.IdContrato))
    .where('Aprobada', '=', 'S')
    .where('Activo', '=', 'S')
    .where('TipoServicio', 'is not', null)
    .where('FechaInicio', '<=', today)
    .where('FechaFin', '>=', today)
    .execute()) as Array<{ TipoServicio: string; Descripcion: string }>;
}

/**
 * What a contract (its row, as the caller read it) lists beside its header (spec section 3
 * Contract), for a request's context: its operators 1 and 2 by name, its organisational units with their endowment, its cost centres, its
 * subcontractors with their period and its associated services; active ones only.
 */
export async function contractParts(db: Db, registry: Registry, contract: Record<string, unknown>) {
  const table = (name: string) => registry.require(name).table;
  const id = Number(contract.IdContrato);
  const ids = [contract.IdOperador1, contract.IdOperador2].filter(
    (u): u is string => typeof u === 'string' && u !== '',
  );
  const users = ids.length
    ? ((await db
        .selectFrom(table('user'))
        .select(['IdUsuario', 'Nombre', 'Apellido'])
        .where('IdUsuario', 'in', ids)
        .execute()) as Array<{ IdUsuario: string; Nombre: string | null; Apellido: string | null }>)
    : [];
  const Operadores = ids.map((user) => {
    const found = users.find((u) => u.IdUsuario === user);
    return { IdUsuario: user, Nombre: [found?.Nombre, found?.Apellido].filter(Boolean).join(' ') || user };
  });
  const UnidadesOrganizativas = await unitsOf(db, registry, id);
  const CentrosCosto = await centresOf(db, registry, id);
  const Subcontratistas = await db
    .selectFrom(`${table('contract-subcontractor')} as s`)
    .innerJoin(`${table('company')} as c`, 'c.IdCompania', 's.IdCompania')
    .select(['s.IdCompania', 'c.Compania', 's.Actividad', 's.FechaInicio', 's.FechaFin', 's.Dotacion'])
    .where('s.IdContrato', '=', id)
    .where('s.Activo', '=', 'S')
    .orderBy('c.Compania')
    .execute();
  const Servicios = [
    ...(await db
      .selectFrom(table('contract-service'))
      .select(['TipoServicio', 'Descripcion'])
      .where('IdContrato', '=', id)
      .where('Activo', '=', 'S')
      .execute()),
    ...(await addedServices(db, registry, contract)),
  ].sort((a, b) => String(a.TipoServicio).localeCompare(String(b.TipoServicio)));
  return { Operadores, UnidadesOrganizativas, CentrosCosto, Subcontratistas, Servicios };
}
