import { writeAudit } from '../../../crud/audit.js';
import type { Row } from '../../../crud/types.js';
import type { Db } from '../../../db/connection.js';
import { ApiError } from '../../../errors.js';
import { divisionToday } from '../../../site.js';
import { endStays } from '../../hotel/releases.js';
import type { ApprovalContext } from './effects.js';
import type { RequestEngine, Revoked } from './engine.js';

/** An accreditation row as stored. */
export interface AccreditationRow {
  IdAcreditacion: number;
  IdCliente: number;
  IdDivision: number;
  IdCompania: number;
  IdEntidad: 'T' | 'V';
  IdPersona: number | null;
  IdVehiculo: number | null;
  IdContrato: number;
  IdSolicitud: number;
  FechaInicio: string;
  FechaFin: string;
  Estado: string;
}

/** The accreditation a request about an accredited holder is for: its holder's on the contract in the division. */
export async function accreditationOf(
  engine: RequestEngine,
  db: Db,
  request: Row,
): Promise<AccreditationRow | undefined> {
  const column = request.IdPersona ? 'IdPersona' : 'IdVehiculo';
  return (await db
    .selectFrom(engine.table('accreditation'))
    .selectAll()
    .where(column, '=', request[column] as number)
    .where('IdContrato', '=', request.IdContrato as number)
    .where('IdDivision', '=', request.IdDivision as number)
    .orderBy('IdAcreditacion', 'desc')
    .executeTakeFirst()) as AccreditationRow | undefined;
}

/**
 * What an approved demobilisation (D) ends, in its transaction: the accreditation (state T,
 * ending on the demobilisation's date), and what hangs on it: the holder's person or vehicle access
 * assignments in the division (unless another accreditation there stays active), and for a
 * holder with no other active accreditation of the client, the active credential (a person's
 * badge, a vehicle's card) and a worker's dining cost categories, and its stays in the division's
 * camps. Each revoked row is recorded.
 */
export async function end(
  engine: RequestEngine,
  trx: Db,
  { request, principal }: ApprovalContext,
): Promise<Revoked[]> {
  const now = new Date(engine.now()).toISOString();
  const date = String(request.FechaFin);
  const accreditation = await accreditationOf(engine, trx, request);
  if (!accreditation || (accreditation.Estado !== 'A' && accreditation.Estado !== 'S'))
    throw new ApiError('CONFLICT', {
      messageKey: 'demobilisation.refusals.notAccredited',
      params: { id: request.IdSolicitud as number },
    });
  const revoked: Revoked[] = [];
  const record = async (
    resource: string,
    id: number,
    description: string | null,
    before?: Row,
    after?: Row,
  ) => {
    revoked.push({ Recurso: resource, IdRegistro: id, Descripcion: description });
    await trx
      .insertInto(engine.table('revocation'))
      .values({
        IdCliente: request.IdCliente,
        IdSolicitud: request.IdSolicitud,
        IdAcreditacion: accreditation.IdAcreditacion,
        Recurso: resource,
        IdRegistro: id,
        Descripcion: description?.slice(0, 200) ?? null,
        Fecha: now,
        IdUsuarioCreacion: principal.userId,
        FechaCreacion: now,
      })
      .execute();
    if (before && after)
      await writeAudit(
        trx,
        engine.registry,
        engine.registry.require(resource),
        'U',
        principal,
        id,
        before,
        after,
      );
  };
  const ended = {
    Estado: 'T',
    FechaFin:
      date < accreditation.FechaFin && date >= accreditation.FechaInicio ? date : accreditation.FechaFin,
    IdUsuarioModificacion: principal.userId,
    FechaModificacion: now,
  };
  await trx
    .updateTable(engine.table('accreditation'))
    .set(ended)
    .where('IdAcreditacion', '=', accreditation.IdAcreditacion)
    .execute();
  /** A referenced record's name (an access profile's, a cost category's), as its label says. */
  const nameOf = async (resource: string, id: unknown, field: string): Promise<string | null> => {
    if (id === null || id === undefined) return null;
    const entity = engine.registry.require(resource);
    const found = (await trx
      .selectFrom(entity.table)
      .select(field)
      .where(entity.primaryKey, '=', id as number)
      .executeTakeFirst()) as Row | undefined;
    return found?.[field] === undefined || found[field] === null ? null : String(found[field]);
  };
  await record(
    'accreditation',
    accreditation.IdAcreditacion,
    await nameOf('contract', accreditation.IdContrato, 'NumeroContrato'),
    accreditation as never,
    {
      ...accreditation,
      ...ended,
    } as never,
  );

  const worker = accreditation.IdPersona !== null;
  const column = worker ? 'IdPersona' : 'IdVehiculo';
  const holder = (accreditation.IdPersona ?? accreditation.IdVehiculo) as number;
  const others = (await trx
    .selectFrom(engine.table('accreditation'))
    .select(['IdAcreditacion', 'IdDivision'])
    .where(column, '=', holder)
    .where('IdCliente', '=', accreditation.IdCliente)
    .where('Estado', 'in', ['A', 'S'])
    .where('IdAcreditacion', '<>', accreditation.IdAcreditacion)
    .execute()) as Array<{ IdAcreditacion: number; IdDivision: number }>;
  /**
   * Deactivates the active rows of one resource, ending their period on the date when it is
   * later; each is recorded under the name `name` gives it.
   */
  const deactivate = async (
    resource: string,
    key: string,
    scope: [string, number],
    name: (row: Row) => Promise<string | null>,
    extra: Row = {},
  ) => {
    const entity = engine.registry.require(resource);
    const rows = (await trx
      .selectFrom(entity.table)
      .selectAll()
      .where(column, '=', holder)
      .where(scope[0], '=', scope[1])
      .where('Activo', '=', 'S')
      .orderBy(key)
      .execute()) as Row[];
    for (const row of rows) {
      const change: Row = {
        Activo: 'N',
        ...extra,
        IdUsuarioModificacion: principal.userId,
        FechaModificacion: now,
      };
      if (typeof row.FechaFin === 'string' && row.FechaFin > date && String(row.FechaInicio) <= date)
        change.FechaFin = date;
      await trx.updateTable(entity.table).set(change).where(key, '=', row[key]).execute();
      await record(resource, row[key] as number, await name(row), row, { ...row, ...change });
    }
  };
  if (!others.some((o) => o.IdDivision === accreditation.IdDivision))
    await deactivate(
      worker ? 'person-access' : 'vehicle-access',
      worker ? 'IdAccesoPersona' : 'IdAccesoVehiculo',
      ['IdDivision', accreditation.IdDivision],
      (row) => nameOf('access-profile', row.IdPerfilAcceso, 'Descripcion'),
    );
  if (!others.length) {
    const reasons = (await trx
      .selectFrom(engine.table('identification-reason'))
      .select(['IdMotivo', 'Descripcion'])
      .where('IdCliente', '=', accreditation.IdCliente)
      .where('Tipo', '=', 'I')
      .where('Activo', '=', 'S')
      .orderBy('IdMotivo')
      .execute()) as Array<{ IdMotivo: number; Descripcion: string }>;
    const cessation = reasons.find((r) => /CESE|DESMOVILIZ/.test(r.Descripcion)) ?? reasons[0];
    const client: [string, number] = ['IdCliente', accreditation.IdCliente];
    await deactivate(
      'credential',
      'IdCredencial',
      client,
      async (row) => (row.Numero === null || row.Numero === undefined ? null : String(row.Numero)),
      cessation ? { IdMotivoInactivacion: cessation.IdMotivo } : {},
    );
    if (worker)
      await deactivate('person-cost-category', 'IdCategoriaCostoPersona', client, (row) =>
        nameOf('cost-category', row.IdCategoriaCosto, 'Descripcion'),
      );
  }
  if (worker && !others.some((o) => o.IdDivision === accreditation.IdDivision)) {
    // The person's stays in the division's camps: checked out, what was still to come released.
    const stays = await endStays(trx, engine.registry, {
      clientId: accreditation.IdCliente,
      divisionId: accreditation.IdDivision,
      personId: holder,
      userId: principal.userId,
      today: await divisionToday(trx, engine.registry, accreditation.IdDivision, engine.now()),
      at: now,
    });
    for (const stay of stays) await record('reservation', stay.IdReserva, stay.Descripcion);
  }
  return revoked;
}

/**
 * What an approved extension or change does, in its transaction: the accreditation's end moves
 * to the request's end (E), or the accreditation moves to the request's contract and end (C).
 */
export async function move(
  engine: RequestEngine,
  trx: Db,
  { request, principal }: ApprovalContext,
): Promise<Revoked[]> {
  const from =
    request.TipoSolicitud === 'C' ? Number(request.IdContratoAnterior ?? 0) : Number(request.IdContrato);
  const column = request.IdPersona ? 'IdPersona' : 'IdVehiculo';
  const accreditation = (await trx
    .selectFrom(engine.table('accreditation'))
    .selectAll()
    .where(column, '=', request[column] as number)
    .where('IdContrato', '=', from)
    .where('IdDivision', '=', request.IdDivision as number)
    .where('Estado', 'in', ['A', 'S'])
    .executeTakeFirst()) as AccreditationRow | undefined;
  if (!accreditation)
    throw new ApiError('CONFLICT', {
      messageKey: 'demobilisation.refusals.notAccredited',
      params: { id: request.IdSolicitud as number },
    });
  const now = new Date(engine.now()).toISOString();
  const change: Row = {
    FechaFin: request.FechaFin,
    IdUsuarioModificacion: principal.userId,
    FechaModificacion: now,
    ...(request.TipoSolicitud === 'C' ? { IdContrato: request.IdContrato } : {}),
  };
  await trx
    .updateTable(engine.table('accreditation'))
    .set(change)
    .where('IdAcreditacion', '=', accreditation.IdAcreditacion)
    .execute();
  await writeAudit(
    trx,
    engine.registry,
    engine.registry.require('accreditation'),
    'U',
    principal,
    accreditation.IdAcreditacion,
    accreditation as never,
    { ...accreditation, ...change } as never,
  );
  return [];
}
