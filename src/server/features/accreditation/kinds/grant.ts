import { fileKindOf, HOLDER_COLUMN, MIME_OF } from '../../../../shared/accreditation.js';
import { addDays } from '../../../../shared/dates.js';
import { writeAudit } from '../../../crud/audit.js';
import type { Row } from '../../../crud/types.js';
import type { Db } from '../../../db/connection.js';
import type { Principal } from '../../../principal.js';
import { dataById, type ProfileDef } from '../catalogue.js';
import type { ApprovalContext, RequestEngine, Stored, Visitor } from '../engine/engine.js';
import { recordEvent } from '../events.js';
import { reinstate } from '../expiry.js';
import type { Line } from '../lines.js';

/** Whom an approval accredits: the holder's column and id, and for a visit's visitor its line. */
type Holder = { column: 'IdPersona' | 'IdVehiculo' | 'IdCompania'; value: number; visitor: number | null };

/** A visitor of an approved visit, registered as a person of the visit's company. */
async function registerVisitor(
  engine: RequestEngine,
  trx: Db,
  visitor: Visitor,
  request: Stored,
  principal: Principal,
) {
  const person = engine.registry.require('person');
  // A visitor is registered from what the visit says of them: the person form's field rules
  // (a birth date, a phone) are for the people a company registers itself.
  const data = engine.crud.prepare(person, {
    IdTipoDocumento: visitor.IdTipoDocumento,
    Documento: visitor.Documento,
    Apellido: visitor.Apellido,
    Nombre: visitor.Nombre,
    Email: visitor.Email ?? undefined,
    Sexo: 'M',
    IdCompania: request.IdCompania,
    Condicion: 'V',
    Visita: 'S',
  });
  const row = (await trx
    .insertInto(person.table)
    .values({
      ...data,
      IdCliente: request.IdCliente,
      IdUsuarioCreacion: principal.userId,
      FechaCreacion: engine.at(),
    })
    .returningAll()
    .executeTakeFirstOrThrow()) as Row;
  await writeAudit(trx, engine.registry, person, 'C', principal, row.IdPersona, undefined, row);
  return row.IdPersona as number;
}

/** Whom an approval accredits: the worker, the vehicle, or each visitor (found or registered). */
async function holdersOf(
  engine: RequestEngine,
  trx: Db,
  request: Stored,
  principal: Principal,
): Promise<Holder[]> {
  if (request.IdEntidad !== 'P') {
    // A worker, a vehicle, or the company itself: the request names it.
    const column = HOLDER_COLUMN[request.IdEntidad];
    const value = request[column];
    return value ? [{ column, value, visitor: null }] : [];
  }
  const holders: Holder[] = [];
  const crud = engine.crud.within(trx);
  const atCompany: Principal = { ...principal, companyId: request.IdCompania };
  for (const visitor of await engine.visitors(trx, request.IdSolicitud)) {
    // A renewal's visitor is the person its visit's approval registered.
    const [found] = visitor.IdPersona
      ? [visitor.IdPersona]
      : await crud.findKeys(
          engine.registry.require('person'),
          { IdTipoDocumento: visitor.IdTipoDocumento, Documento: visitor.Documento },
          atCompany,
        );
    const id =
      (found as number | undefined) ?? (await registerVisitor(engine, trx, visitor, request, principal));
    await trx
      .updateTable(engine.table('visit-person'))
      .set({ IdPersona: id })
      .where('IdVisitaPersona', '=', visitor.IdVisitaPersona)
      .execute();
    holders.push({ column: 'IdPersona', value: id, visitor: visitor.IdVisitaPersona });
  }
  return holders;
}

/** The worker's photo on a mobilisation becomes the person's (what the gate and the badge show). */
async function keepPhoto(engine: RequestEngine, trx: Db, request: Stored, principal: Principal) {
  if (request.IdEntidad !== 'T' || !request.IdPersona || !request.ClaveFoto) return;
  const bytes = await engine.files.get(String(request.ClaveFoto));
  const kind = bytes && fileKindOf(bytes);
  if (bytes && kind)
    await trx
      .updateTable(engine.table('person'))
      .set({
        Foto: `data:${MIME_OF[kind]};base64,${bytes.toString('base64')}`,
        IdUsuarioModificacion: principal.userId,
        FechaModificacion: engine.at(),
      })
      .where('IdPersona', '=', request.IdPersona)
      .execute();
}

/** The holder's accreditation for the request's contract, division and dates: made, or renewed. */
async function accredit(
  engine: RequestEngine,
  trx: Db,
  request: Stored,
  principal: Principal,
  column: string,
  value: number,
) {
  const table = engine.table('accreditation');
  const now = engine.at();
  // A company's accreditation is its division's (one, with no contract); a worker's or vehicle's, its contract's.
  const company = request.IdEntidad === 'E';
  const existing = (await trx
    .selectFrom(table)
    .select('IdAcreditacion')
    .where(column, '=', value)
    .where('IdDivision', '=', request.IdDivision)
    .$if(company, (qb) => qb.where('IdEntidad', '=', 'E'))
    .$if(!company, (qb) => qb.where('IdContrato', '=', request.IdContrato))
    .executeTakeFirst()) as { IdAcreditacion: number } | undefined;
  const values = {
    FechaInicio: request.FechaInicio,
    FechaFin: request.FechaFin,
    Estado: 'A',
    IdSolicitud: request.IdSolicitud,
    FechaAprobacion: now,
  };
  let id = existing?.IdAcreditacion;
  if (existing)
    await trx
      .updateTable(table)
      .set({ ...values, IdUsuarioModificacion: principal.userId, FechaModificacion: now })
      .where('IdAcreditacion', '=', existing.IdAcreditacion)
      .execute();
  else
    id = (
      (await trx
        .insertInto(table)
        .values({
          ...values,
          IdCliente: request.IdCliente,
          IdDivision: request.IdDivision,
          IdCompania: request.IdCompania,
          IdEntidad: request.IdEntidad,
          [column]: value,
          IdContrato: company ? null : request.IdContrato,
          IdUsuarioCreacion: principal.userId,
          FechaCreacion: now,
        })
        .returning('IdAcreditacion')
        .executeTakeFirstOrThrow()) as { IdAcreditacion: number }
    ).IdAcreditacion;
  await recordEvent(
    trx,
    engine.registry,
    {
      IdCliente: request.IdCliente,
      IdAcreditacion: Number(id),
      Tipo: 'granted',
      Datos: {
        IdSolicitud: request.IdSolicitud,
        FechaInicio: request.FechaInicio,
        FechaFin: request.FechaFin,
      },
      at: now,
      userId: principal.userId,
    },
    engine.events,
  );
}

/**
 * The approval of a mobilisation (M) or a requirement update (A), in its transaction: a
 * mobilisation accredits the worker, vehicle or each visitor (registered as the company's person)
 * for the contract, division and dates, or the company itself in the division for its dates; both keep the requirement values with their expiry per
 * holder for renewal, and a renewal lifts the suspension an expired mandatory requirement caused.
 */
/** A holder's requirement value kept (accredited-requirement), replacing the one kept for the same datum. */
export async function keepValue(
  db: Db,
  table: string,
  kept: {
    IdCliente: number;
    IdEntidad: string;
    holder: [column: string, id: number];
    line: Pick<
      Line,
      | 'IdRequisito'
      | 'IdDatoEvaluar'
      | 'Valor'
      | 'ClaveArchivo'
      | 'NombreArchivo'
      | 'TipoArchivo'
      | 'Fuente'
      | 'ReferenciaFuente'
    >;
    FechaVencimiento: string | null;
    IdSolicitud: number;
    at: string;
    userId: string;
  },
): Promise<void> {
  const { line, holder } = kept;
  const [column, id] = holder;
  await db.deleteFrom(table).where(column, '=', id).where('IdDatoEvaluar', '=', line.IdDatoEvaluar).execute();
  await db
    .insertInto(table)
    .values({
      IdCliente: kept.IdCliente,
      IdEntidad: kept.IdEntidad,
      [column]: id,
      IdRequisito: line.IdRequisito,
      IdDatoEvaluar: line.IdDatoEvaluar,
      Valor: line.Valor,
      ClaveArchivo: line.ClaveArchivo,
      NombreArchivo: line.NombreArchivo,
      TipoArchivo: line.TipoArchivo,
      // A value a source proved names it, so the source's later revocation finds it.
      Fuente: line.Fuente ?? null,
      ReferenciaFuente: line.ReferenciaFuente ?? null,
      FechaVencimiento: kept.FechaVencimiento,
      IdSolicitud: kept.IdSolicitud,
      FechaAprobacion: kept.at,
      IdUsuarioCreacion: kept.userId,
      FechaCreacion: kept.at,
    })
    .execute();
}

/**
 * The expiry of each requirement of a holder (a visit's visitor, or null): its proof's (a passed
 * induction's last day), else its expiry datum's date, else its validity from today.
 */
function expiries(profile: ProfileDef, lines: Line[], visitor: number | null, today: string) {
  const expiry = new Map<number, string | null>();
  for (const requirement of profile.requirements) {
    const mine = lines.filter(
      (l) => l.IdRequisito === requirement.IdRequisito && l.IdVisitaPersona === visitor,
    );
    const proven = mine.find((l) => l.Fuente);
    const datum = requirement.data.find((d) => d.Vencimiento === 'S');
    const line = datum && mine.find((l) => l.IdDatoEvaluar === datum.IdDatoEvaluar);
    const validity = requirement.VigenciaDias > 0 ? addDays(today, requirement.VigenciaDias) : null;
    expiry.set(
      requirement.IdRequisito,
      proven ? (proven.FechaVencimiento ?? null) : (line?.Valor ?? validity),
    );
  }
  return expiry;
}

export async function grant(
  engine: RequestEngine,
  trx: Db,
  { request, profile, lines, principal }: ApprovalContext,
) {
  if (!profile) return [];
  const renewal = request.TipoSolicitud === 'A';
  const now = engine.at();
  // The site's day (a Lima evening is already tomorrow in UTC).
  const today = await engine.siteToday(trx, request.IdDivision);
  const holders = await holdersOf(engine, trx, request, principal);
  if (!renewal) await keepPhoto(engine, trx, request, principal);
  const kept = engine.table('accredited-requirement');
  const data = dataById(profile);
  for (const { column, value, visitor } of holders) {
    // A requirement update renews values only: the accreditation's dates stay.
    if (!renewal) await accredit(engine, trx, request, principal, column, value);
    const expiry = expiries(profile, lines, visitor, today);
    for (const line of lines.filter((l) => l.IdVisitaPersona === visitor)) {
      // A proven line is kept even without a value: its expiry is the proof's.
      if (!line.Valor && !line.ClaveArchivo && !line.Fuente) continue;
      // A carried-over value stays kept as it was: its expiry and the request that proved it.
      if (line.IdSolicitudOrigen) continue;
      if (!data.has(line.IdDatoEvaluar)) continue;
      await keepValue(trx, kept, {
        IdCliente: request.IdCliente,
        IdEntidad: request.IdEntidad,
        holder: [column, value],
        line,
        FechaVencimiento: expiry.get(line.IdRequisito) ?? null,
        IdSolicitud: request.IdSolicitud,
        at: now,
        userId: principal.userId,
      });
    }
    if (renewal)
      await reinstate(trx, engine.registry, column, value, request.IdCliente, today, now, engine.events);
  }
  return [];
}
