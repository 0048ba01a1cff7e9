import { writeAudit } from '../../../crud/audit.js';
import type { Row } from '../../../crud/types.js';
import type { Db } from '../../../db/connection.js';
import { ApiError } from '../../../errors.js';
import { nameOf } from '../../../services/holder-rows.js';
import type { ApprovalContext, RequestEngine, Revoked } from '../engine/engine.js';
import { recordEvent } from '../events.js';

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
 * ending on the demobilisation's date); then the areas whose rows hang on it release them, told by
 * the `ended` event in the same transaction (access: the holder's access assignments in the
 * division; identification: the credential; dining: a worker's cost categories; lodging: the
 * worker's stays in the division's camps; each as its listener decides). Each revoked row is
 * recorded in the revocation log and the audit trail.
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
  await record(
    'accreditation',
    accreditation.IdAcreditacion,
    await nameOf(trx, engine.registry, 'contract', accreditation.IdContrato, 'NumeroContrato'),
    accreditation as never,
    {
      ...accreditation,
      ...ended,
    } as never,
  );

  const column = accreditation.IdPersona !== null ? 'IdPersona' : 'IdVehiculo';
  const holder = (accreditation.IdPersona ?? accreditation.IdVehiculo) as number;
  const others = (await trx
    .selectFrom(engine.table('accreditation'))
    .select(['IdAcreditacion', 'IdDivision'])
    .where(column, '=', holder)
    .where('IdCliente', '=', accreditation.IdCliente)
    .where('Estado', 'in', ['A', 'S'])
    .where('IdAcreditacion', '<>', accreditation.IdAcreditacion)
    .execute()) as Array<{ IdAcreditacion: number; IdDivision: number }>;
  // What hangs on it is each area's own: they release it in this transaction, and it is recorded here.
  const released = await engine.events.ended(trx, {
    accreditation,
    date,
    lastInDivision: !others.some((o) => o.IdDivision === accreditation.IdDivision),
    lastOfClient: !others.length,
    principal,
    at: now,
  });
  for (const r of released) await record(r.resource, r.id, r.description, r.before, r.after);
  await recordEvent(
    trx,
    engine.registry,
    {
      IdCliente: accreditation.IdCliente,
      IdAcreditacion: accreditation.IdAcreditacion,
      Tipo: 'ended',
      Datos: { IdSolicitud: request.IdSolicitud, FechaFin: ended.FechaFin, liberados: released.length },
      at: now,
      userId: principal.userId,
    },
    engine.events,
  );
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
  await recordEvent(
    trx,
    engine.registry,
    {
      IdCliente: accreditation.IdCliente,
      IdAcreditacion: accreditation.IdAcreditacion,
      Tipo: request.TipoSolicitud === 'C' ? 'moved' : 'extended',
      Datos: {
        IdSolicitud: request.IdSolicitud,
        FechaFin: request.FechaFin,
        ...(request.TipoSolicitud === 'C'
          ? { IdContratoAnterior: from, IdContrato: request.IdContrato }
          : {}),
      },
      at: now,
      userId: principal.userId,
    },
    engine.events,
  );
  return [];
}
