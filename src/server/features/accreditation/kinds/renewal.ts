import { HOLDER_COLUMN, typeConcerns } from '../../../../shared/accreditation.js';
import { REQUEST_KINDS } from '../../../../shared/request-kinds.js';
import type { Row } from '../../../crud/types.js';
import type { Db } from '../../../db/connection.js';
import { ApiError } from '../../../errors.js';
import type { Requester } from '../../../services/requester.js';
import { loadProfile } from '../catalogue.js';
import type { RequestEngine } from '../engine/engine.js';
import { type Body, idOf, type KeptFile, parseDetail, upper } from '../engine/input.js';
import { saveLines } from '../engine/save-lines.js';
import { companyAccreditations, ofRequesterCompany } from './company-accreditations.js';

/** The kinds whose kept requirements a renewal renews (those typeConcerns('A') names): workers, vehicles, visits and companies. */
export type RenewedKind = 'T' | 'V' | 'P' | 'E';
export const RENEWED_KINDS = REQUEST_KINDS.A.holders as readonly RenewedKind[];

/**
 * Requirement update, or renewal (TipoSolicitud A, spec sections 2 and 7): a contractor's
 * requester picks an accredited worker, vehicle or visitor of its company (or its company itself,
 * accredited in the division), the requirement to renew (one
 * the holder holds) and its new values; the request carries only that requirement's lines and
 * follows the mobilisation's path (files by UploadSolicitanteArchivo, sent by cerrarsolicitud,
 * evaluated line by line with the approval machine). Approval replaces the kept value and its
 * expiry, keeps the accreditation's dates, and lifts a suspension no expired mandatory
 * requirement still holds (the engine's grant effect). A visit's renewal names the visitor
 * (IdPersona, the person its visit's approval registered) and carries that visitor as its one
 * visitor, with the visit's reason: its lines are the visitor's, as on the visit.
 */
export class Renewals {
  constructor(private readonly engine: RequestEngine) {}

  /**
   * The holders of a kind the requester may renew: its company's accredited workers, vehicles or
   * visitors (active or suspended) in the session's division, with their contract and dates.
   */
  async holders(requester: Requester, entity: Exclude<RenewedKind, 'E'>): Promise<Row[]> {
    return (await companyAccreditations(this.engine, requester, entity)
      .orderBy(entity === 'V' ? 'v.Placa' : 'p.Apellido')
      .orderBy('a.IdAcreditacion')
      .limit(2000)
      .execute()) as Row[];
  }

  /** The requirements a holder of the requester's company holds, with their expiry. */
  async held(requester: Requester, entity: RenewedKind, holder: number): Promise<Row[]> {
    const column = HOLDER_COLUMN[entity];
    await this.accreditation(this.engine.database.db, requester, entity, holder);
    return (await this.engine.database.db
      .selectFrom(`${this.engine.table('accredited-requirement')} as k`)
      .innerJoin(`${this.engine.table('requirement')} as q`, 'q.IdRequisito', 'k.IdRequisito')
      .select((eb) => [
        'k.IdRequisito',
        'q.Requisito',
        'q.Obligatorio',
        eb.fn.min('k.FechaVencimiento').as('FechaVencimiento'),
      ])
      .where(`k.${column}`, '=', holder)
      .where('k.IdCliente', '=', requester.principal.clientId as number)
      .groupBy(['k.IdRequisito', 'q.Requisito', 'q.Obligatorio'])
      .orderBy('q.Requisito')
      .execute()) as Row[];
  }

  /** The holder's current accreditation in the session's division, for the requester's company: else 404. */
  private async accreditation(db: Db, requester: Requester, entity: RenewedKind, holder: number) {
    if (!requester.entities.includes(entity)) throw new ApiError('FORBIDDEN');
    const row = (await db
      .selectFrom(`${this.engine.table('accreditation')} as a`)
      .selectAll()
      .where(`a.${HOLDER_COLUMN[entity]}`, '=', holder)
      .where(ofRequesterCompany(requester, entity))
      .orderBy('a.FechaFin', 'desc')
      .executeTakeFirst()) as
      | {
          IdAcreditacion: number;
          IdContrato: number;
          IdSolicitud: number;
          FechaFin: string;
          IdEntidad: string;
        }
      | undefined;
    if (!row)
      throw new ApiError('VALIDATION_FAILED', {
        fields: {
          [HOLDER_COLUMN[entity]]: { messageKey: 'renewal.refusals.notAccredited' },
        },
      });
    return row;
  }

  /**
   * POST crear: a renewal of one requirement of an accredited worker or vehicle, incomplete (I)
   * with the values sent; refused when the holder is not accredited, does not hold the
   * requirement, or already has a renewal of it open. `within`: a bulk upload's row, in the
   * caller's transaction, with its mass upload code, its PDFs already kept, and the contract the
   * holder must be accredited under.
   */
  async create(
    requester: Requester,
    body: Body,
    within?: { trx: Db; massCode: string; contract: number; files?: ReadonlyMap<number, KeptFile> },
  ): Promise<Row> {
    const entity = RENEWED_KINDS.find((kind) => kind === body.IdEntidad);
    if (!entity)
      throw new ApiError('VALIDATION_FAILED', {
        fields: { IdEntidad: { messageKey: 'validation.required' } },
      });
    const column = HOLDER_COLUMN[entity];
    const holder = idOf(body[column], column);
    const requirement = idOf(body.IdRequisito, 'IdRequisito');
    const inputs = parseDetail(body.Detalle, 200);
    const { principal } = requester;
    const { engine } = this;
    // A second open renewal of the requirement is refused even when both are written at once.
    const id = await engine.filing(async (trx) => {
      const accreditation = await this.accreditation(trx, requester, entity, holder);
      const visit = entity === 'P';
      if (within && accreditation.IdContrato !== within.contract)
        throw new ApiError('VALIDATION_FAILED', {
          fields: { [column]: { messageKey: 'bulk.errors.otherContract' } },
        });
      const holds = await trx
        .selectFrom(engine.table('accredited-requirement'))
        .select('IdRequisitoAcreditado')
        .where(column, '=', holder)
        .where('IdRequisito', '=', requirement)
        .executeTakeFirst();
      const origin = (await trx
        .selectFrom(engine.table('request'))
        .select(['IdPerfilAcreditacion', 'MotivoVisita', 'IdResponsable'])
        .where('IdSolicitud', '=', accreditation.IdSolicitud)
        .executeTakeFirstOrThrow()) as {
        IdPerfilAcreditacion: number;
        MotivoVisita: string | null;
        IdResponsable: number | null;
      };
      const full = await loadProfile(
        trx,
        engine.registry,
        principal.clientId as number,
        origin.IdPerfilAcreditacion,
      );
      const profile = {
        ...full,
        requirements: full.requirements.filter((r) => r.IdRequisito === requirement),
      };
      if (!holds || !profile.requirements.length)
        throw new ApiError('VALIDATION_FAILED', {
          fields: { IdRequisito: { messageKey: 'renewal.refusals.notHeld' } },
        });
      const open = (await trx
        .selectFrom(`${engine.table('request')} as r`)
        .innerJoin(`${engine.table('request-detail')} as d`, 'd.IdSolicitud', 'r.IdSolicitud')
        .select('r.IdSolicitud')
        .where(`r.${column}`, '=', holder)
        .where('r.IdEntidad', '=', entity)
        .where('r.TipoSolicitud', '=', 'A')
        .where('r.EstadoAprobacion', 'in', ['I', 'P', 'O'])
        .where('d.IdRequisito', '=', requirement)
        .executeTakeFirst()) as { IdSolicitud: number } | undefined;
      if (open)
        throw new ApiError('DUPLICATE', {
          messageKey: 'accreditation.refusals.openRequestExists',
          params: { id: open.IdSolicitud },
        });
      const today = await engine.siteToday(trx, principal.divisionId as number);
      const made = await engine.file(
        trx,
        {
          IdEntidad: entity,
          // A company's accreditation is of the division, under no contract.
          IdContrato: entity === 'E' ? null : accreditation.IdContrato,
          IdPerfilAcreditacion: origin.IdPerfilAcreditacion,
          [column]: holder,
          FechaInicio: today,
          FechaFin: accreditation.FechaFin < today ? today : accreditation.FechaFin,
          Observacion: upper(body.Observacion) || null,
          // A visitor's renewal keeps its visit's reason and host.
          ...(visit
            ? { MotivoVisita: origin.MotivoVisita, IdResponsable: origin.IdResponsable, NumeroVisitantes: 1 }
            : {}),
        },
        principal,
        {
          TipoSolicitud: 'A',
          IdRequisitoRenovado: requirement,
          SolicitudCompleta: 'N',
          ...(within ? { CodigoCargaMasiva: within.massCode } : {}),
        },
      );
      // A visit's lines are its visitors': the renewal carries the one visitor it renews.
      const visitor = visit
        ? await this.visitor(trx, requester, made, accreditation.IdSolicitud, holder)
        : null;
      const lines = visitor ? inputs.map((input) => ({ ...input, IdVisitaPersona: visitor })) : inputs;
      await saveLines(engine, trx, made, profile, lines, within?.files);
      return made.IdSolicitud;
    }, within?.trx);
    return within ? { IdSolicitud: id } : engine.summary(id);
  }

  /** The visitor a visit's renewal renews, copied from the visit that accredited it: its IdVisitaPersona. */
  private async visitor(trx: Db, requester: Requester, made: Row, visit: number, person: number) {
    const { engine } = this;
    const entity = engine.registry.require('visit-person');
    const row = (await trx
      .selectFrom(entity.table)
      .select(['IdTipoDocumento', 'Documento', 'Apellido', 'Nombre', 'Email'])
      .where('IdSolicitud', '=', visit)
      .where('IdPersona', '=', person)
      .executeTakeFirst()) as Row | undefined;
    // A visitor accredited before visits kept their person: read from the person itself.
    const values =
      row ??
      ((await trx
        .selectFrom(engine.table('person'))
        .select(['IdTipoDocumento', 'Documento', 'Apellido', 'Nombre', 'Email'])
        .where('IdPersona', '=', person)
        .executeTakeFirstOrThrow()) as Row);
    const created = await engine.crud
      .within(trx)
      .create(entity, { ...values, IdSolicitud: made.IdSolicitud }, requester.principal, {
        set: { IdPersona: person },
      });
    return Number(created.IdVisitaPersona);
  }

  /**
   * cards: the requester's "expiring soon" view per kind: its company's accredited holders'
   * requirement values expired, and expiring within their type's notice days.
   */
  async cards(requester: Requester): Promise<Row[]> {
    const { principal } = requester;
    const today = await this.engine.siteToday(this.engine.database.db, principal.divisionId as number);
    const out: Row[] = [];
    for (const entity of requester.entities.filter((e) => typeConcerns('A', e))) {
      const column = HOLDER_COLUMN[entity];
      const rows = (await this.engine.database.db
        .selectFrom(`${this.engine.table('accredited-requirement')} as k`)
        .innerJoin(`${this.engine.table('requirement')} as q`, 'q.IdRequisito', 'k.IdRequisito')
        .leftJoin(`${this.engine.table('requirement-type')} as ty`, 'ty.IdTipoRequisito', 'q.IdTipoRequisito')
        .innerJoin(`${this.engine.table('accreditation')} as a`, `a.${column}`, `k.${column}`)
        .select([
          'k.IdRequisitoAcreditado',
          `k.${column} as Titular`,
          'q.Requisito',
          'k.FechaVencimiento',
          'ty.DiasNotificarVencimiento as Dias',
        ])
        .where(ofRequesterCompany(requester, entity))
        .where('k.FechaVencimiento', 'is not', null)
        .distinct()
        .execute()) as Array<{
        IdRequisitoAcreditado: number;
        Titular: number;
        Requisito: string;
        FechaVencimiento: string;
        Dias: number | null;
      }>;
      const soon = (r: (typeof rows)[number]) => {
        const days = Number(r.Dias ?? 0);
        const limit = new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000)
          .toISOString()
          .slice(0, 10);
        return r.FechaVencimiento >= today && r.FechaVencimiento <= limit;
      };
      out.push({
        IdEntidad: entity,
        VENCIDOS: rows.filter((r) => r.FechaVencimiento < today).length,
        POR_VENCER: rows.filter(soon).length,
        detalle: rows
          .filter((r) => r.FechaVencimiento < today || soon(r))
          .sort((a, b) => a.FechaVencimiento.localeCompare(b.FechaVencimiento))
          .slice(0, 200),
      });
    }
    return out;
  }
}
