import type { FieldProblem } from '../../../shared/validation.js';
import type { Row } from '../../crud/types.js';
import type { Database, Db } from '../../db/connection.js';
import { settlingRace } from '../../db/errors.js';
import { ApiError } from '../../errors.js';
import type { Registry } from '../../registry.js';
import { divisionToday } from '../../site.js';
import { loadProfile } from './catalogue.js';
import { moveCount } from './counts.js';
import { idOf, type KeptFile, parseDetail, type RequestService } from './requests.js';
import type { Authoriser, Requester } from './roles.js';

type Body = Record<string, unknown>;

/**
 * Requirement update, or renewal (TipoSolicitud A, spec sections 2 and 7): a contractor's
 * requester picks an accredited worker or vehicle of its company, the requirement to renew (one
 * the holder holds) and its new values; the request carries only that requirement's lines and
 * follows the mobilisation's path (files by UploadSolicitanteArchivo, sent by cerrarsolicitud,
 * evaluated line by line with the approval machine). Approval replaces the kept value and its
 * expiry, keeps the accreditation's dates, and lifts a suspension no expired mandatory
 * requirement still holds.
 */
export class RenewalService {
  constructor(
    private readonly database: Database,
    private readonly registry: Registry,
    private readonly requests: RequestService,
    private readonly now: () => number = Date.now,
  ) {}

  private table(name: string): string {
    return this.registry.require(name).table;
  }

  /** The requirements a holder of the requester's company holds, with their expiry. */
  async held(requester: Requester, entity: 'T' | 'V', holder: number): Promise<Row[]> {
    const column = entity === 'T' ? 'IdPersona' : 'IdVehiculo';
    await this.accreditation(this.database.db, requester, entity, holder);
    return (await this.database.db
      .selectFrom(`${this.table('accredited-requirement')} as k`)
      .innerJoin(`${this.table('requirement')} as q`, 'q.IdRequisito', 'k.IdRequisito')
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
  private async accreditation(db: Db, requester: Requester, entity: 'T' | 'V', holder: number) {
    const { principal } = requester;
    if (!requester.entities.includes(entity)) throw new ApiError('FORBIDDEN');
    const row = (await db
      .selectFrom(this.table('accreditation'))
      .selectAll()
      .where(entity === 'T' ? 'IdPersona' : 'IdVehiculo', '=', holder)
      .where('IdCliente', '=', principal.clientId as number)
      .where('IdDivision', '=', principal.divisionId as number)
      .where('IdCompania', '=', requester.companyId)
      .where('Estado', 'in', ['A', 'S'])
      .orderBy('FechaFin', 'desc')
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
          [entity === 'T' ? 'IdPersona' : 'IdVehiculo']: { messageKey: 'renewal.refusals.notAccredited' },
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
    const entity = body.IdEntidad === 'V' ? 'V' : body.IdEntidad === 'T' ? 'T' : undefined;
    if (!entity)
      throw new ApiError('VALIDATION_FAILED', {
        fields: { IdEntidad: { messageKey: 'validation.required' } },
      });
    const column = entity === 'T' ? 'IdPersona' : 'IdVehiculo';
    const holder = idOf(body[column], column);
    const requirement = idOf(body.IdRequisito, 'IdRequisito');
    const inputs = parseDetail(body.Detalle, 200);
    const { principal } = requester;
    // A second open renewal of the requirement is refused even when both are written at once.
    const run = <T>(fn: (trx: Db) => Promise<T>) =>
      settlingRace(
        this.registry,
        () => (within ? fn(within.trx) : this.database.db.transaction().execute(fn)),
        !within,
      );
    const id = await run(async (trx) => {
      const accreditation = await this.accreditation(trx, requester, entity, holder);
      if (within && accreditation.IdContrato !== within.contract)
        throw new ApiError('VALIDATION_FAILED', {
          fields: { [column]: { messageKey: 'bulk.errors.otherContract' } },
        });
      const holds = await trx
        .selectFrom(this.table('accredited-requirement'))
        .select('IdRequisitoAcreditado')
        .where(column, '=', holder)
        .where('IdRequisito', '=', requirement)
        .executeTakeFirst();
      const origin = (await trx
        .selectFrom(this.table('request'))
        .select('IdPerfilAcreditacion')
        .where('IdSolicitud', '=', accreditation.IdSolicitud)
        .executeTakeFirstOrThrow()) as { IdPerfilAcreditacion: number };
      const full = await loadProfile(
        trx,
        this.registry,
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
        .selectFrom(`${this.table('request')} as r`)
        .innerJoin(`${this.table('request-detail')} as d`, 'd.IdSolicitud', 'r.IdSolicitud')
        .select('r.IdSolicitud')
        .where(`r.${column}`, '=', holder)
        .where('r.TipoSolicitud', '=', 'A')
        .where('r.EstadoAprobacion', 'in', ['I', 'P', 'O'])
        .where('d.IdRequisito', '=', requirement)
        .executeTakeFirst()) as { IdSolicitud: number } | undefined;
      if (open)
        throw new ApiError('DUPLICATE', {
          messageKey: 'accreditation.refusals.openRequestExists',
          params: { id: open.IdSolicitud },
        });
      const today = await divisionToday(trx, this.registry, principal.divisionId as number, this.now());
      const at = new Date(this.now()).toISOString();
      const made = (await trx
        .insertInto(this.table('request'))
        .values({
          IdCliente: principal.clientId,
          IdDivision: principal.divisionId,
          IdCompania: requester.companyId,
          TipoSolicitud: 'A',
          IdEntidad: entity,
          IdContrato: accreditation.IdContrato,
          IdPerfilAcreditacion: origin.IdPerfilAcreditacion,
          IdRequisitoRenovado: requirement,
          [column]: holder,
          FechaInicio: today,
          FechaFin: accreditation.FechaFin < today ? today : accreditation.FechaFin,
          Observacion:
            typeof body.Observacion === 'string'
              ? body.Observacion.trim().toLocaleUpperCase('es').slice(0, 500) || null
              : null,
          EstadoAprobacion: 'I',
          FechaSolicitud: at,
          SolicitudCompleta: 'N',
          IndisciplinaRechazo: 'N',
          ...(within ? { CodigoCargaMasiva: within.massCode } : {}),
          IdUsuarioCreacion: principal.userId,
          FechaCreacion: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow()) as Row;
      await trx
        .insertInto(this.table('request-history'))
        .values({
          IdCliente: made.IdCliente,
          IdSolicitud: made.IdSolicitud,
          Fecha: at,
          IdUsuario: principal.userId,
          Evento: 'CREATE',
          EstadoAnterior: null,
          EstadoNuevo: 'I',
          IdUsuarioCreacion: principal.userId,
          FechaCreacion: at,
        })
        .execute();
      await moveCount(trx, this.registry, made as never, null, 'I');
      const { complete } = await this.requests.saveLines(trx, made as never, profile, inputs, within?.files);
      await trx
        .updateTable(this.table('request'))
        .set({ SolicitudCompleta: complete ? 'S' : 'N' })
        .where('IdSolicitud', '=', made.IdSolicitud as number)
        .execute();
      return made.IdSolicitud as number;
    });
    return within ? { IdSolicitud: id } : this.requests.summary(id);
  }

  /** A renewal the caller may see: else 404. */
  async load(who: Requester | Authoriser, rawId: unknown) {
    const id = idOf(rawId, 'IdSolicitud');
    return this.requests.load(this.database.db, who, id, false, ['A']);
  }

  /** actualizarautorizador: one renewal evaluated with the request service (lines and decision). */
  async evaluate(authoriser: Authoriser, body: Body): Promise<Row> {
    return this.requests.evaluate(authoriser, body, 'A');
  }

  /**
   * actualizarautorizadormasivo: several renewals given the same decision in one transaction, all
   * or nothing. Approving approves every line the authoriser may, then the request; observing and
   * rejecting need the reason. Refused rows are named as Solicitudes.<index>.
   */
  async evaluateMany(authoriser: Authoriser, body: Body): Promise<Row> {
    const list = Array.isArray(body.Solicitudes) ? body.Solicitudes : [];
    if (!list.length)
      throw new ApiError('VALIDATION_FAILED', {
        fields: { Solicitudes: { messageKey: 'demobilisation.refusals.selectionEmpty' } },
      });
    const ids = list.map((v, index) => idOf(v, `Solicitudes.${index}`));
    const action = String(body.Accion ?? '');
    if (!['APROBAR', 'OBSERVAR', 'RECHAZAR'].includes(action))
      throw new ApiError('VALIDATION_FAILED', { fields: { Accion: { messageKey: 'validation.enum' } } });
    const reason = typeof body.Observacion === 'string' ? body.Observacion : undefined;
    const results = await this.database.db.transaction().execute(async (trx) => {
      const problems: Record<string, FieldProblem> = {};
      const out: Row[] = [];
      for (const [index, id] of ids.entries()) {
        try {
          const request = await this.requests.load(trx, authoriser, id, true, ['A']);
          const lines = await this.requests.lines(trx, id);
          const profile = await this.requests.profileOf(trx, request);
          const evaluable = this.requests.evaluable(
            authoriser,
            request,
            profile,
            lines,
            await this.requests.approvers(trx, request),
          );
          const Detalle =
            action === 'APROBAR'
              ? lines
                  .filter((l) => l.IdDetalle && evaluable.has(l.IdDetalle) && l.EstadoAprobacion === 'P')
                  .map((l) => ({ IdDetalle: l.IdDetalle, EstadoAprobacion: 'A' }))
              : [];
          const done = await this.requests.evaluateWithin(trx, authoriser, {
            IdSolicitud: id,
            Accion: action,
            Observacion: reason,
            Detalle,
          });
          out.push(done.request as Row);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          problems[`Solicitudes.${index}`] = {
            messageKey: error.messageKey ?? `api.errors.${error.code}`,
            params: { id },
          };
        }
      }
      if (Object.keys(problems).length)
        throw new ApiError('BUSINESS_RULE', {
          messageKey: 'demobilisation.refusals.rowsStopped',
          params: { count: Object.keys(problems).length },
          fields: problems,
        });
      return out;
    });
    return {
      Solicitudes: results.map((r) => ({ IdSolicitud: r.IdSolicitud, EstadoAprobacion: r.EstadoAprobacion })),
    };
  }

  /**
   * cards: the requester's "expiring soon" view per kind: its company's accredited holders'
   * requirement values expired, and expiring within their type's notice days.
   */
  async cards(requester: Requester): Promise<Row[]> {
    const { principal } = requester;
    const today = await divisionToday(
      this.database.db,
      this.registry,
      principal.divisionId as number,
      this.now(),
    );
    const out: Row[] = [];
    for (const entity of requester.entities.filter((e) => e !== 'P')) {
      const column = entity === 'T' ? 'IdPersona' : 'IdVehiculo';
      const rows = (await this.database.db
        .selectFrom(`${this.table('accredited-requirement')} as k`)
        .innerJoin(`${this.table('requirement')} as q`, 'q.IdRequisito', 'k.IdRequisito')
        .leftJoin(`${this.table('requirement-type')} as ty`, 'ty.IdTipoRequisito', 'q.IdTipoRequisito')
        .innerJoin(`${this.table('accreditation')} as a`, `a.${column}`, `k.${column}`)
        .select([
          'k.IdRequisitoAcreditado',
          `k.${column} as Titular`,
          'q.Requisito',
          'k.FechaVencimiento',
          'ty.DiasNotificarVencimiento as Dias',
        ])
        .where('a.IdCliente', '=', principal.clientId as number)
        .where('a.IdDivision', '=', principal.divisionId as number)
        .where('a.IdCompania', '=', requester.companyId)
        .where('a.Estado', 'in', ['A', 'S'])
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
