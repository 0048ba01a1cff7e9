import type { FastifyPluginAsync } from 'fastify';
import {
  REQUEST_REFUSALS,
  type RequestEvent,
  type RequestFacts,
  type RequestStatus,
  requestMachine,
} from '../../../../../workflows/request.machine.js';
import type { EntityCode } from '../../../../shared/accreditation.js';
import type { RequestKindDef } from '../../../../shared/request-kinds.js';
import type { FieldProblem } from '../../../../shared/validation.js';
import type { CrudService } from '../../../crud/service.js';
import type { Row } from '../../../crud/types.js';
import type { Database, Db } from '../../../db/connection.js';
import { settlingRace } from '../../../db/errors.js';
import { ApiError } from '../../../errors.js';
import { AccreditationEvents } from '../../../events.js';
import type { Principal } from '../../../principal.js';
import type { Registry } from '../../../registry.js';
import { RequirementSources } from '../../../requirement-sources.js';
import type { Requester } from '../../../services/requester.js';
import { divisionToday } from '../../../site.js';
import type { FileStore } from '../../../storage/files.js';
import { requireTransition } from '../../../workflow.js';
import { loadProfile, type ProfileDef } from '../catalogue.js';
import { moveCount } from '../counts.js';
import type { Line } from '../lines.js';
import type { Notices } from '../notices.js';
import type { Authoriser } from '../roles.js';
import { type Attention, countAttention } from './attention.js';
import { idOf, rowsStopped } from './input.js';

/** A request row as stored (spec section 3's request record). */
export type Stored = Row & {
  IdSolicitud: number;
  IdCliente: number;
  IdDivision: number;
  IdCompania: number;
  IdEntidad: EntityCode;
  IdContrato: number;
  IdPerfilAcreditacion: number;
  IdPersona: number | null;
  IdVehiculo: number | null;
  FechaInicio: string;
  FechaFin: string;
  EstadoAprobacion: RequestStatus;
  FechaSolicitud: string;
  TipoSolicitud: string;
  IdUsuarioCreacion: string;
};

/** The facts of a request without lines: a demobilisation is complete once its observation is given. */
export const NO_LINES: RequestFacts = {
  complete: true,
  datesValid: true,
  linesPending: 0,
  linesObserved: 0,
  linesRejected: 0,
};

/** A visitor of a visit request (TipoSolicitud M, IdEntidad P). */
export interface Visitor {
  IdVisitaPersona: number;
  IdTipoDocumento: number;
  Documento: string;
  Apellido: string;
  Nombre: string;
  Email?: string | null;
  IdPersona?: number | null;
}

/** What one approval revoked, as the requester and the authoriser see it. */
export interface Revoked {
  Recurso: string;
  IdRegistro: number;
  Descripcion: string | null;
}

/** What an approval's effect works from: the request as approved, its profile and lines (none for a kind without lines). */
export interface ApprovalContext {
  request: Stored;
  profile: ProfileDef | null;
  lines: Line[];
  principal: Principal;
}

/**
 * A kind of request as a module (kinds/index.ts registers one per kind, under its TipoSolicitud
 * code): its row of the shared table (area, lines, holders), what approving one does in the
 * approval's transaction (answering what it revoked), and its calls. The engine knows the kinds
 * only through these. docs/requests.md has the recipe for adding one.
 */
export interface KindModule extends RequestKindDef {
  approve(engine: RequestEngine, trx: Db, context: ApprovalContext): Promise<Revoked[]>;
  /**
   * Its calls (filing, reading, and the shared list, evaluation and removal through kindCalls),
   * registered in accreditation's scope, where `fastify.requests` holds the engine; kinds that
   * share calls name the same plugin, registered once.
   */
  routes?: FastifyPluginAsync;
}
export type Kinds = Readonly<Record<string, KindModule>>;

/** The tables a request's rows live in besides its own, removed with it. */
const CHILDREN = ['request-detail', 'visit-person', 'request-history'] as const;

/**
 * The request engine every kind of request runs on: one request table, its lines, history,
 * dashboard counters and the request machine. A kind (src/server/features/accreditation/kinds,
 * handed in as `kinds`; the engine imports none) says who a request is about, which lines it
 * carries (src/shared/request-kinds.ts) and what its approval does; the engine
 * reads, files, sends, decides and removes requests the same way for every kind, each status
 * change asked of the machine inside the change's transaction.
 */
export class RequestEngine {
  constructor(
    readonly database: Database,
    readonly registry: Registry,
    readonly crud: CrudService,
    readonly files: FileStore,
    readonly notices: Notices,
    /** Each kind's module: what its approval does. */
    readonly kinds: Kinds,
    readonly now: () => number = Date.now,
    /** The features that release their rows when an accreditation ends. */
    readonly events: AccreditationEvents = new AccreditationEvents(),
    /** The features whose records prove requirements (an induction): a worker's lines are filled from them. */
    readonly sources: RequirementSources = new RequirementSources(),
  ) {}

  /** The module of a kind of request; a code no module registers is a fault of the caller. */
  kind(code: string): KindModule {
    const kind = Object.hasOwn(this.kinds, code) ? this.kinds[code] : undefined;
    if (!kind) throw new Error(`no request kind ${code} is registered`);
    return kind;
  }

  table(name: string): string {
    return this.registry.require(name).table;
  }

  /** The current instant as stored. */
  at(): string {
    return new Date(this.now()).toISOString();
  }

  transaction<T>(fn: (trx: Db, crud: CrudService) => Promise<T>): Promise<T> {
    return this.database.db.transaction().execute((trx) => fn(trx, this.crud.within(trx)));
  }

  /**
   * A transaction that files requests: a second open request where the database's unique indexes
   * forbid one is refused even when both are written at once (settlingRace). `within`: a bulk
   * upload's row, in the caller's transaction.
   */
  filing<T>(fn: (trx: Db, crud: CrudService) => Promise<T>, within?: Db): Promise<T> {
    return settlingRace(
      this.registry,
      () => (within ? fn(within, this.crud.within(within)) : this.transaction(fn)),
      !within,
    );
  }

  /** The date at the division's site (its country's time zone). */
  siteToday(db: Db, divisionId: number): Promise<string> {
    return divisionToday(db, this.registry, divisionId, this.now());
  }

  // ---- reading ---------------------------------------------------------------------------------

  /**
   * A request the caller may see: a requester its company's, of the kinds its menu reaches; an
   * authoriser its division's, of the kinds it approves, once sent. Anything else is a 404.
   * `forChange`: in the caller's transaction, the row locked until it commits. `kinds`: the
   * request types the caller's call handles; a request of another type is not found either.
   */
  async load(
    db: Db,
    who: Requester | Authoriser,
    id: number,
    forChange = false,
    kinds?: readonly string[],
  ): Promise<Stored> {
    const { principal } = who;
    let qb = db
      .selectFrom(this.table('request'))
      .selectAll()
      .where('IdSolicitud', '=', id)
      .where('IdCliente', '=', principal.clientId as number)
      .where('IdDivision', '=', principal.divisionId as number)
      .where('IdEntidad', 'in', who.entities);
    if ('companyId' in who) qb = qb.where('IdCompania', '=', who.companyId);
    else qb = qb.where('EstadoAprobacion', '<>', 'I');
    // Loaded to be changed, two changes wait for each other on PostgreSQL (SQLite has a single
    // writer), so a status never moves twice from the same reading.
    if (forChange && this.database.dialect === 'postgres') qb = qb.forUpdate();
    const row = (await qb.executeTakeFirst()) as Stored | undefined;
    if (!row || (kinds && !kinds.includes(row.TipoSolicitud)))
      throw new ApiError('NOT_FOUND', { params: { resource: 'request', id } });
    return row;
  }

  /**
   * The profile a request is evaluated on: its accreditation profile, and for a kind that renews
   * (a requirement update) only the requirements it renews (those it has lines for).
   */
  async profileOf(db: Db, request: Stored): Promise<ProfileDef> {
    const profile = await loadProfile(db, this.registry, request.IdCliente, request.IdPerfilAcreditacion);
    if (!this.kind(request.TipoSolicitud).renews) return profile;
    const renewed = new Set((await this.lines(db, request.IdSolicitud)).map((l) => l.IdRequisito));
    return { ...profile, requirements: profile.requirements.filter((r) => renewed.has(r.IdRequisito)) };
  }

  async lines(db: Db, id: number): Promise<Line[]> {
    return (await db
      .selectFrom(this.table('request-detail'))
      .select([
        'IdDetalle',
        'IdSolicitud',
        'IdVisitaPersona',
        'IdRequisito',
        'IdDatoEvaluar',
        'TipoRequisito',
        'Valor',
        'Observacion',
        'EstadoAprobacion',
        'ClaveArchivo',
        'NombreArchivo',
        'TipoArchivo',
        'FechaVencimiento',
        'IdUsuarioAprobacion',
        'FechaAprobacion',
        'FechaLimiteCorreccion',
        'IdSolicitudOrigen',
        'Fuente',
        'ReferenciaFuente',
        'DetalleFuente',
        'EnlaceFuente',
      ])
      // The lines' indexes lead with the client: the request's, so the index answers (not a scan).
      .where(
        'IdCliente',
        '=',
        db.selectFrom(this.table('request')).select('IdCliente').where('IdSolicitud', '=', id),
      )
      .where('IdSolicitud', '=', id)
      .orderBy('IdDetalle')
      .execute()) as Line[];
  }

  /** A visit's visitors, in the order they were added. */
  async visitors(db: Db, id: number): Promise<Visitor[]> {
    return (await db
      .selectFrom(this.table('visit-person'))
      .select(['IdVisitaPersona', 'IdTipoDocumento', 'Documento', 'Apellido', 'Nombre', 'Email', 'IdPersona'])
      .where('IdSolicitud', '=', id)
      .orderBy('IdVisitaPersona')
      .execute()) as Visitor[];
  }

  /** What a write answers: the request's number, status and completeness. */
  async summary(id: number): Promise<Row> {
    const row = (await this.database.db
      .selectFrom(this.table('request'))
      .select([
        'IdSolicitud',
        'EstadoAprobacion',
        'SolicitudCompleta',
        'IdEntidad',
        'IdPersona',
        'IdVehiculo',
      ])
      .where('IdSolicitud', '=', id)
      .executeTakeFirst()) as Row | undefined;
    return row ?? { IdSolicitud: id, EstadoAprobacion: null };
  }

  // ---- moving ----------------------------------------------------------------------------------

  /**
   * A history row: who moved the request from its stored status to `to`, when and why; a move
   * also moves the request between the dashboards' counters, in the same transaction.
   */
  async history(
    trx: Db,
    request: Row,
    principal: Principal,
    event: string,
    to: RequestStatus | null,
    reason?: string,
  ): Promise<void> {
    const from = (request.EstadoAprobacion as RequestStatus | undefined) ?? null;
    await trx
      .insertInto(this.table('request-history'))
      .values({
        IdCliente: request.IdCliente,
        IdSolicitud: request.IdSolicitud,
        Fecha: this.at(),
        IdUsuario: principal.userId,
        Evento: event,
        EstadoAnterior: from,
        EstadoNuevo: to,
        Motivo: reason?.slice(0, 500) || null,
        IdUsuarioCreacion: principal.userId,
        FechaCreacion: this.at(),
      })
      .execute();
    if (from !== to) await moveCount(trx, this.registry, request as never, from, to);
  }

  /** A request filed (incomplete, I) from `header`, with `set` the server's values; its history begun. */
  async file(trx: Db, header: Row, principal: Principal, set: Row = {}): Promise<Stored> {
    const made = (await this.crud.within(trx).create(this.registry.require('request'), header, principal, {
      set: {
        EstadoAprobacion: 'I',
        FechaSolicitud: this.at(),
        IndisciplinaRechazo: 'N',
        ...set,
      },
    })) as unknown as Stored;
    await this.history(trx, { ...made, EstadoAprobacion: null }, principal, 'CREATE', 'I');
    return made;
  }

  /** A request sent for evaluation (P) as the machine allows on `facts`, with its history. */
  async send(
    trx: Db,
    request: Stored,
    principal: Principal,
    facts: RequestFacts = NO_LINES,
    reason?: string,
    messageKey?: string,
  ): Promise<RequestStatus> {
    const next = requireTransition(
      requestMachine,
      { value: request.EstadoAprobacion, context: facts },
      { type: 'SEND' },
      { messageKey: messageKey ?? REQUEST_REFUSALS.SEND },
    ).value as RequestStatus;
    await this.crud
      .within(trx)
      .patch(
        this.registry.require('request'),
        request.IdSolicitud,
        { EstadoAprobacion: next, FechaEnvio: this.at(), SolicitudCompleta: 'S' },
        principal,
      );
    await this.history(trx, request, principal, 'SEND', next, reason);
    // A first sending counts in the efficiency report's requests of the month.
    if (request.EstadoAprobacion === 'I')
      await this.attend(trx, request, [{ axis: 'S', key: '', outcome: 'P', minutes: 0 }]);
    return next;
  }

  /** Refuses a change the request's status does not allow (an update, a delete: asked of the machine). */
  requireEditable(request: Stored, type: 'UPDATE' | 'DELETE'): void {
    requireTransition(
      requestMachine,
      { value: request.EstadoAprobacion, context: { ...NO_LINES, complete: false, datesValid: false } },
      { type },
      { messageKey: REQUEST_REFUSALS[type] },
    );
  }

  /**
   * An authoriser's decision on a whole pending request (approve, observe, reject, return) as the
   * machine allows on `facts`: the status, attention date and reasons stored, the history
   * written; answers the new status. The kind's approval effect is the caller's.
   */
  async decide(
    trx: Db,
    authoriser: Authoriser,
    request: Stored,
    decision: {
      type: RequestEvent['type'];
      reason: string;
      indiscipline?: boolean;
      /** The kind of indiscipline a rejection for indiscipline records against the worker. */
      indisciplineKind?: number;
    },
    facts: RequestFacts,
  ): Promise<RequestStatus> {
    const { type, reason } = decision;
    const event = (type === 'APPROVE' ? { type } : { type, reason }) as RequestEvent;
    const status = requireTransition(
      requestMachine,
      { value: request.EstadoAprobacion, context: facts },
      event,
      { messageKey: REQUEST_REFUSALS[type], code: type === 'APPROVE' ? 'BUSINESS_RULE' : 'CONFLICT' },
    ).value as RequestStatus;
    await this.crud.within(trx).patch(
      this.registry.require('request'),
      request.IdSolicitud,
      {
        EstadoAprobacion: status,
        FechaAtencion: status === 'I' ? null : this.at(),
        ObservacionAutorizador: reason || null,
        MotivoRechazo: type === 'REJECT' ? reason : null,
        IndisciplinaRechazo: type === 'REJECT' && decision.indiscipline ? 'S' : 'N',
      },
      authoriser.principal,
    );
    await this.history(trx, request, authoriser.principal, type, status, reason);
    if (type === 'REJECT' && decision.indiscipline && decision.indisciplineKind && request.IdPersona)
      await this.recordIndiscipline(trx, authoriser, request, decision.indisciplineKind, reason);
    return status;
  }

  /** The indiscipline a rejection names, recorded against the request's worker (the request is read-only on it). */
  private async recordIndiscipline(
    trx: Db,
    authoriser: Authoriser,
    request: Stored,
    kind: number,
    reason: string,
  ) {
    const entity = this.registry.require('person-indiscipline');
    const made = await this.crud.within(trx).create(
      entity,
      {
        IdPersona: request.IdPersona,
        IdIndisciplina: kind,
        Fecha: await this.siteToday(trx, request.IdDivision),
        Observacion: reason.slice(0, 500),
        Activo: 'S',
      },
      authoriser.principal,
    );
    await trx
      .updateTable(entity.table)
      .set({ IdSolicitud: request.IdSolicitud })
      .where('IdIndisciplinaPersona', '=', made.id as number)
      .execute();
  }

  /** Counts a request's sendings and decisions into the efficiency report's table, in the caller's transaction. */
  async attend(
    trx: Db,
    request: Stored,
    rows: Array<Pick<Attention, 'axis' | 'key' | 'outcome' | 'minutes'>>,
  ): Promise<void> {
    const at = this.at();
    await countAttention(
      { db: trx, dialect: this.database.dialect },
      this.registry,
      rows.map((row) => ({
        ...row,
        IdCliente: request.IdCliente,
        IdDivision: request.IdDivision,
        TipoSolicitud: request.TipoSolicitud,
        IdEntidad: request.IdEntidad,
        at,
      })),
    );
  }

  /**
   * DELETE eliminar: an incomplete request of one of `kinds` removed with its lines, visitors and
   * history (a sent or answered one stays, as the machine says).
   */
  async remove(
    requester: Requester,
    rawId: unknown,
    kinds: readonly string[],
  ): Promise<{ IdSolicitud: number }> {
    const id = idOf(rawId, 'IdSolicitud');
    await this.transaction((trx) => this.removeWithin(trx, requester, id, kinds));
    return { IdSolicitud: id };
  }

  /**
   * eliminarmasivo: the selected requests of `kinds` removed in one transaction, those the machine
   * lets the requester delete (incomplete); each other one is kept and named with its reason
   * (another's, sent, answered). Nothing removed at all is a refusal naming every row.
   */
  async removeMany(
    requester: Requester,
    selected: number[],
    kinds: readonly string[],
  ): Promise<{ Eliminadas: number[]; Rechazadas: Array<{ IdSolicitud: number; messageKey: string }> }> {
    return this.transaction(async (trx) => {
      const removed: number[] = [];
      const refused: Array<{ IdSolicitud: number; messageKey: string }> = [];
      const problems: Record<string, FieldProblem> = {};
      for (const [index, id] of selected.entries()) {
        try {
          // Refused before anything of it is written: not found, or not deletable.
          await this.removeWithin(trx, requester, id, kinds);
          removed.push(id);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          const messageKey = error.messageKey ?? `api.errors.${error.code}`;
          refused.push({ IdSolicitud: id, messageKey });
          problems[`Solicitudes.${index}`] = { messageKey, params: { id } };
        }
      }
      if (!removed.length) throw rowsStopped(problems) as ApiError;
      return { Eliminadas: removed, Rechazadas: refused };
    });
  }

  private async removeWithin(trx: Db, requester: Requester, id: number, kinds: readonly string[]) {
    const request = await this.load(trx, requester, id, true, kinds);
    this.requireEditable(request, 'DELETE');
    for (const name of CHILDREN)
      await trx.deleteFrom(this.table(name)).where('IdSolicitud', '=', id).execute();
    await moveCount(trx, this.registry, request, request.EstadoAprobacion, null);
    await this.crud.within(trx).remove(this.registry.require('request'), id, requester.principal);
  }

  /**
   * Runs `one` for each selected id in one transaction, all or nothing: if any is refused,
   * nothing is kept and each refused row is named (`<field>.<index>`) with its reason.
   */
  async allOrNothing<T>(
    selected: number[],
    field: string,
    one: (trx: Db, id: number) => Promise<T>,
  ): Promise<T[]> {
    return this.transaction(async (trx) => {
      const out: T[] = [];
      const problems: Record<string, FieldProblem> = {};
      for (const [index, id] of selected.entries()) {
        try {
          out.push(await one(trx, id));
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          problems[`${field}.${index}`] = {
            messageKey: error.messageKey ?? `api.errors.${error.code}`,
            params: { ...(error.params as Record<string, string | number> | undefined), id },
          };
        }
      }
      const refusal = rowsStopped(problems);
      if (refusal) throw refusal;
      return out;
    });
  }
}
