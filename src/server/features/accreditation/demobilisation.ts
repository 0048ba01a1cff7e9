import {
  REQUEST_REFUSALS,
  type RequestEvent,
  type RequestStatus,
  requestMachine,
} from '../../../../workflows/request.machine.js';
import { dmy } from '../../../shared/request-dates.js';
import type { FieldProblem } from '../../../shared/validation.js';
import { writeAudit } from '../../crud/audit.js';
import type { CrudService } from '../../crud/service.js';
import type { Row } from '../../crud/types.js';
import type { Database, Db } from '../../db/connection.js';
import { settlingRace } from '../../db/errors.js';
import { ApiError } from '../../errors.js';
import type { Principal } from '../../principal.js';
import type { Registry } from '../../registry.js';
import { divisionToday } from '../../site.js';
import { requireTransition } from '../../workflow.js';
import { endStays } from '../hotel/releases.js';
import { moveCount } from './counts.js';
import type { Notices } from './notices.js';
import type { RequestService } from './requests.js';
import type { Authoriser, Requester } from './roles.js';

type Body = Record<string, unknown>;

/** The facts of a request without lines: a demobilisation is complete once its observation is given. */
export const NO_LINES = {
  complete: true,
  datesValid: true,
  linesPending: 0,
  linesObserved: 0,
  linesRejected: 0,
};

interface AccreditationRow {
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

/** What one approval revoked, as the requester and the authoriser see it. */
export interface Revoked {
  Recurso: string;
  IdRegistro: number;
  Descripcion: string | null;
}

const ACTIONS: Record<string, RequestEvent['type']> = {
  APROBAR: 'APPROVE',
  OBSERVAR: 'OBSERVE',
  RECHAZAR: 'REJECT',
};

function ids(value: unknown, field: string): number[] {
  const list =
    value === undefined || value === null || value === '' ? [] : Array.isArray(value) ? value : [value];
  if (list.length > 500)
    throw new ApiError('VALIDATION_FAILED', { fields: { [field]: { messageKey: 'validation.invalid' } } });
  return list.map((v, index) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1 || n > 2_147_483_647)
      throw new ApiError('VALIDATION_FAILED', {
        fields: { [`${field}.${index}`]: { messageKey: 'validation.invalid' } },
      });
    return n;
  });
}

/**
 * Demobilisation (TipoSolicitud D, spec sections 2, 4 and 5): a contractor's requester asks for
 * one or several accredited workers or vehicles of a contract to leave the site, with an
 * observation; the division's authorisers approve, observe or reject each request, one by one or
 * in bulk. The request is a request row like a mobilisation's (same table, counters, history and
 * machine), sent on creation. Approving it ends the accreditation and, in the same transaction,
 * revokes what hangs on it, recording each revoked row. Mass actions are all or nothing.
 */
export class DemobilisationService {
  constructor(
    private readonly database: Database,
    private readonly registry: Registry,
    private readonly crud: CrudService,
    private readonly requests: RequestService,
    private readonly notices: Notices,
    private readonly now: () => number = Date.now,
    /** The request type this service files and evaluates: D demobilisation, E contract extension, C contract change. */
    readonly kind: 'D' | 'E' | 'C' = 'D',
  ) {}

  /**
   * A transaction that makes requests: a second open request of a holder's kind is refused even
   * when both are written at once (the database's index, then the check again: settlingRace).
   */
  private creating<T>(fn: (trx: Db) => Promise<T>): Promise<T> {
    return settlingRace(this.registry, () => this.database.db.transaction().execute(fn));
  }

  private table(name: string): string {
    return this.registry.require(name).table;
  }

  private today(db: Db, principal: Principal): Promise<string> {
    return divisionToday(db, this.registry, principal.divisionId as number, this.now());
  }

  private async historyRow(
    trx: Db,
    request: Row,
    principal: Principal,
    event: string,
    from: RequestStatus | null,
    to: RequestStatus,
    reason?: string,
  ) {
    const now = new Date(this.now()).toISOString();
    await trx
      .insertInto(this.table('request-history'))
      .values({
        IdCliente: request.IdCliente,
        IdSolicitud: request.IdSolicitud,
        Fecha: now,
        IdUsuario: principal.userId,
        Evento: event,
        EstadoAnterior: from,
        EstadoNuevo: to,
        Motivo: reason?.slice(0, 500) || null,
        IdUsuarioCreacion: principal.userId,
        FechaCreacion: now,
      })
      .execute();
    if (from !== to) await moveCount(trx, this.registry, request as never, from, to);
  }

  /**
   * The accreditations a requester may demobilise: its company's, in the session's division, of
   * the kinds it requests, active or suspended, with no demobilisation open for the same holder
   * and contract. `contract` narrows them to one contract.
   */
  async candidates(requester: Requester, entity: 'T' | 'V', contract?: number): Promise<Row[]> {
    const { principal } = requester;
    if (!requester.entities.includes(entity)) throw new ApiError('FORBIDDEN');
    const a = this.table('accreditation');
    let qb = this.database.db
      .selectFrom(`${a} as a`)
      .leftJoin(`${this.table('person')} as p`, 'p.IdPersona', 'a.IdPersona')
      .leftJoin(`${this.table('vehicle')} as v`, 'v.IdVehiculo', 'a.IdVehiculo')
      .leftJoin(`${this.table('contract')} as k`, 'k.IdContrato', 'a.IdContrato')
      .select([
        'a.IdAcreditacion',
        'a.IdEntidad',
        'a.IdPersona',
        'a.IdVehiculo',
        'a.IdContrato',
        'k.NumeroContrato',
        'a.FechaInicio',
        'a.FechaFin',
        'a.Estado',
        'p.Documento',
        'p.Apellido',
        'p.Nombre',
        'v.Placa',
      ])
      .where('a.IdCliente', '=', principal.clientId as number)
      .where('a.IdDivision', '=', principal.divisionId as number)
      .where('a.IdCompania', '=', requester.companyId)
      .where('a.IdEntidad', '=', entity)
      .where('a.Estado', 'in', ['A', 'S'])
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom(`${this.table('request')} as r`)
              .select('r.IdSolicitud')
              .whereRef('r.IdContrato', '=', 'a.IdContrato')
              .where('r.TipoSolicitud', '=', 'D')
              .where('r.EstadoAprobacion', 'in', ['I', 'P', 'O'])
              .where((eb) =>
                eb.or([
                  eb.and([eb('a.IdPersona', 'is not', null), eb('r.IdPersona', '=', eb.ref('a.IdPersona'))]),
                  eb.and([
                    eb('a.IdVehiculo', 'is not', null),
                    eb('r.IdVehiculo', '=', eb.ref('a.IdVehiculo')),
                  ]),
                ]),
              ),
          ),
        ),
      );
    if (contract !== undefined) qb = qb.where('a.IdContrato', '=', contract);
    return (await qb.orderBy('a.IdAcreditacion').limit(2000).execute()) as Row[];
  }

  /**
   * POST crear: one demobilisation per accreditation selected (Acreditaciones, or IdAcreditacion),
   * each sent for evaluation at once (P). The observation is required and at least one row must be
   * selected; every row must be the requester's company's active accreditation in the session's
   * division with no demobilisation open; the date (FechaDesmovilizacion, today by default) must be
   * today or later and within the accreditation. All or nothing: the rows that stop it are named.
   */
  async create(
    requester: Requester,
    body: Body,
    /** A file the requests carry (a demobilisation's letter), already kept in the file store. */
    attachment?: { ClaveArchivo: string; NombreArchivo: string; TipoArchivo: string },
  ): Promise<{ Solicitudes: Row[] }> {
    const { principal } = requester;
    const selected = ids(body.Acreditaciones ?? body.IdAcreditacion, 'Acreditaciones');
    const observation = String(body.Observacion ?? '')
      .trim()
      .toLocaleUpperCase('es')
      .slice(0, 500);
    const problems: Record<string, FieldProblem> = {};
    if (!observation) problems.Observacion = { messageKey: 'demobilisation.refusals.observationRequired' };
    if (!selected.length) problems.Acreditaciones = { messageKey: 'demobilisation.refusals.selectionEmpty' };
    if (new Set(selected).size !== selected.length)
      problems.Acreditaciones = { messageKey: 'demobilisation.refusals.selectedTwice' };
    if (Object.keys(problems).length) throw new ApiError('VALIDATION_FAILED', { fields: problems });
    const created = await this.creating(async (trx) => {
      const today = await this.today(trx, principal);
      const date = body.FechaDesmovilizacion === undefined ? today : String(body.FechaDesmovilizacion);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || date < today)
        throw new ApiError('VALIDATION_FAILED', {
          fields: {
            FechaDesmovilizacion: {
              messageKey: 'accreditation.refusals.startBeforeToday',
              params: { today: dmy(today) },
            },
          },
        });
      const rows = (await trx
        .selectFrom(this.table('accreditation'))
        .selectAll()
        .where('IdAcreditacion', 'in', selected)
        .where('IdCliente', '=', principal.clientId as number)
        .where('IdDivision', '=', principal.divisionId as number)
        .where('IdCompania', '=', requester.companyId)
        .where(
          'IdEntidad',
          'in',
          requester.entities.filter((e) => e !== 'P'),
        )
        .execute()) as AccreditationRow[];
      const open = (await trx
        .selectFrom(this.table('request'))
        .select(['IdSolicitud', 'IdPersona', 'IdVehiculo', 'IdContrato'])
        .where('TipoSolicitud', '=', 'D')
        .where('EstadoAprobacion', 'in', ['I', 'P', 'O'])
        .where('IdCliente', '=', principal.clientId as number)
        .where('IdCompania', '=', requester.companyId)
        .execute()) as Array<{
        IdSolicitud: number;
        IdPersona: number | null;
        IdVehiculo: number | null;
        IdContrato: number;
      }>;
      const rowProblems: Record<string, FieldProblem> = {};
      selected.forEach((id, index) => {
        const field = `Acreditaciones.${index}`;
        const row = rows.find((r) => r.IdAcreditacion === id);
        if (!row || (row.Estado !== 'A' && row.Estado !== 'S'))
          rowProblems[field] = { messageKey: 'demobilisation.refusals.notAccredited', params: { id } };
        else if (date > row.FechaFin)
          rowProblems[field] = {
            messageKey: 'accreditation.refusals.outsideContract',
            params: { start: dmy(row.FechaInicio), end: dmy(row.FechaFin) },
          };
        else {
          const twin = open.find(
            (o) =>
              o.IdContrato === row.IdContrato &&
              ((row.IdPersona && o.IdPersona === row.IdPersona) ||
                (row.IdVehiculo && o.IdVehiculo === row.IdVehiculo)),
          );
          if (twin)
            rowProblems[field] = {
              messageKey: 'accreditation.refusals.openRequestExists',
              params: { id: twin.IdSolicitud },
            };
        }
      });
      if (Object.keys(rowProblems).length)
        throw new ApiError('BUSINESS_RULE', {
          messageKey: 'demobilisation.refusals.rowsStopped',
          params: { count: Object.keys(rowProblems).length },
          fields: rowProblems,
        });
      const resource = this.registry.require('request');
      const crud: CrudService = this.crud.within(trx);
      const out: Row[] = [];
      for (const id of selected) {
        const row = rows.find((r) => r.IdAcreditacion === id) as AccreditationRow;
        const origin = (await trx
          .selectFrom(this.table('request'))
          .select('IdPerfilAcreditacion')
          .where('IdSolicitud', '=', row.IdSolicitud)
          .executeTakeFirst()) as { IdPerfilAcreditacion: number } | undefined;
        const header: Row = {
          TipoSolicitud: 'D',
          IdEntidad: row.IdEntidad,
          IdContrato: row.IdContrato,
          IdPerfilAcreditacion: origin?.IdPerfilAcreditacion,
          FechaInicio: date < row.FechaInicio ? row.FechaInicio : date,
          FechaFin: date < row.FechaInicio ? row.FechaInicio : date,
          Observacion: observation,
          ...(row.IdPersona ? { IdPersona: row.IdPersona } : { IdVehiculo: row.IdVehiculo }),
        };
        const made = (await crud.create(resource, header, principal, {
          set: {
            EstadoAprobacion: 'I',
            FechaSolicitud: new Date(this.now()).toISOString(),
            SolicitudCompleta: 'S',
            IndisciplinaRechazo: 'N',
            ...attachment,
          },
        })) as Row;
        await this.historyRow(trx, made, principal, 'CREATE', null, 'I');
        const next = requireTransition(
          requestMachine,
          { value: 'I', context: NO_LINES },
          { type: 'SEND' },
          { messageKey: REQUEST_REFUSALS.SEND },
        ).value as RequestStatus;
        await trx
          .updateTable(resource.table)
          .set({ EstadoAprobacion: next, FechaEnvio: new Date(this.now()).toISOString() })
          .where('IdSolicitud', '=', made.IdSolicitud as number)
          .execute();
        await this.historyRow(
          trx,
          { ...made, EstadoAprobacion: 'I' },
          principal,
          'SEND',
          'I',
          next,
          observation,
        );
        out.push({ ...made, EstadoAprobacion: next, IdAcreditacion: id });
      }
      return out;
    });
    for (const request of created) await this.notices.sent(request as never);
    return {
      Solicitudes: created.map((r) => ({
        IdSolicitud: r.IdSolicitud,
        IdAcreditacion: r.IdAcreditacion,
        EstadoAprobacion: r.EstadoAprobacion,
      })),
    };
  }

  /** A demobilisation the caller may see (a requester its company's, an authoriser its division's): else 404. */
  private async load(db: Db, who: Requester | Authoriser, id: number, forChange = false) {
    return this.requests.load(db, who, id, forChange, [this.kind]);
  }

  /** The accreditation a demobilisation ends: its holder's on the contract in the division. */
  private async accreditationOf(db: Db, request: Row): Promise<AccreditationRow | undefined> {
    const column = request.IdPersona ? 'IdPersona' : 'IdVehiculo';
    return (await db
      .selectFrom(this.table('accreditation'))
      .selectAll()
      .where(column, '=', request[column] as number)
      .where('IdContrato', '=', request.IdContrato as number)
      .where('IdDivision', '=', request.IdDivision as number)
      .orderBy('IdAcreditacion', 'desc')
      .executeTakeFirst()) as AccreditationRow | undefined;
  }

  /** One demobilisation with its accreditation, history and what its approval revoked. */
  async read(who: Requester | Authoriser, rawId: unknown): Promise<Row> {
    const id = ids(rawId, 'IdSolicitud')[0];
    if (id === undefined)
      throw new ApiError('VALIDATION_FAILED', {
        fields: { IdSolicitud: { messageKey: 'validation.required' } },
      });
    const db = this.database.db;
    const request = await this.load(db, who, id);
    const history = await db
      .selectFrom(this.table('request-history'))
      .select(['Fecha', 'IdUsuario', 'Evento', 'EstadoAnterior', 'EstadoNuevo', 'Motivo'])
      .where('IdSolicitud', '=', id)
      .orderBy('IdHistorial')
      .execute();
    const revoked = await db
      .selectFrom(this.table('revocation'))
      .select(['Recurso', 'IdRegistro', 'IdAcreditacion', 'Descripcion', 'Fecha'])
      .where('IdSolicitud', '=', id)
      .orderBy('IdRevocacion')
      .execute();
    // Whom it is for, as the lists name them.
    const holder = request.IdPersona
      ? ((await db
          .selectFrom(this.table('person'))
          .select(['Apellido', 'Nombre', 'Documento'])
          .where('IdPersona', '=', request.IdPersona as number)
          .executeTakeFirst()) as Row | undefined)
      : ((await db
          .selectFrom(this.table('vehicle'))
          .select(['Placa'])
          .where('IdVehiculo', '=', request.IdVehiculo as number)
          .executeTakeFirst()) as Row | undefined);
    return {
      ...request,
      Nombres: holder ? (holder.Placa ?? `${holder.Apellido} ${holder.Nombre}`) : null,
      Documento: holder ? (holder.Placa ?? holder.Documento) : null,
      acreditacion: (await this.accreditationOf(db, request)) ?? null,
      historial: history,
      revocados: revoked,
    };
  }

  /** Evaluates one pending demobilisation in the caller's transaction; answers the request as it ends. */
  private async evaluateOne(
    trx: Db,
    authoriser: Authoriser,
    id: number,
    type: RequestEvent['type'],
    reason: string,
  ) {
    const { principal } = authoriser;
    const request = await this.load(trx, authoriser, id, true);
    // Ending or moving an accreditation whole is for an approver of every requirement type.
    if (request.EstadoAprobacion === 'P')
      this.requests.requireWholeDecision(
        authoriser,
        request as never,
        null,
        [],
        await this.requests.approvers(trx, request as never),
      );
    const event = (type === 'APPROVE' ? { type } : { type, reason }) as RequestEvent;
    const status = requireTransition(
      requestMachine,
      { value: request.EstadoAprobacion, context: NO_LINES },
      event,
      {
        messageKey:
          request.EstadoAprobacion !== 'P' ? 'accreditation.refusals.notPending' : REQUEST_REFUSALS[type],
        code: 'CONFLICT',
      },
    ).value as RequestStatus;
    const now = new Date(this.now()).toISOString();
    await trx
      .updateTable(this.table('request'))
      .set({
        EstadoAprobacion: status,
        FechaAtencion: now,
        ObservacionAutorizador: reason || null,
        MotivoRechazo: type === 'REJECT' ? reason : null,
        IdUsuarioModificacion: principal.userId,
        FechaModificacion: now,
      })
      .where('IdSolicitud', '=', id)
      .execute();
    await this.historyRow(trx, request, principal, type, request.EstadoAprobacion, status, reason);
    const revoked =
      status !== 'A'
        ? []
        : this.kind === 'D'
          ? await this.end(trx, request, principal)
          : await this.move(trx, request, principal);
    return { request: { ...request, EstadoAprobacion: status }, revoked };
  }

  /**
   * What an approval ends, in its transaction: the accreditation (state T, ending on the
   * demobilisation's date), and what hangs on it: the holder's person or vehicle access
   * assignments in the division (unless another accreditation there stays active), and for a
   * holder with no other active accreditation of the client, the active credential (a person's
   * badge, a vehicle's card) and a worker's dining cost categories. Each revoked row is recorded.
   */
  private async end(trx: Db, request: Row, principal: Principal): Promise<Revoked[]> {
    const now = new Date(this.now()).toISOString();
    const date = String(request.FechaFin);
    const accreditation = await this.accreditationOf(trx, request);
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
        .insertInto(this.table('revocation'))
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
          this.registry,
          this.registry.require(resource),
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
      .updateTable(this.table('accreditation'))
      .set(ended)
      .where('IdAcreditacion', '=', accreditation.IdAcreditacion)
      .execute();
    /** A referenced record's name (an access profile's, a cost category's), as its label says. */
    const nameOf = async (resource: string, id: unknown, field: string): Promise<string | null> => {
      if (id === null || id === undefined) return null;
      const entity = this.registry.require(resource);
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
      .selectFrom(this.table('accreditation'))
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
      const entity = this.registry.require(resource);
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
        .selectFrom(this.table('identification-reason'))
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
      const stays = await endStays(trx, this.registry, {
        clientId: accreditation.IdCliente,
        divisionId: accreditation.IdDivision,
        personId: holder,
        userId: principal.userId,
        today: await divisionToday(trx, this.registry, accreditation.IdDivision, this.now()),
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
  private async move(trx: Db, request: Row, principal: Principal): Promise<Revoked[]> {
    const from = this.kind === 'C' ? Number(request.IdContratoAnterior ?? 0) : Number(request.IdContrato);
    const column = request.IdPersona ? 'IdPersona' : 'IdVehiculo';
    const accreditation = (await trx
      .selectFrom(this.table('accreditation'))
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
    const now = new Date(this.now()).toISOString();
    const change: Row = {
      FechaFin: request.FechaFin,
      IdUsuarioModificacion: principal.userId,
      FechaModificacion: now,
      ...(this.kind === 'C' ? { IdContrato: request.IdContrato } : {}),
    };
    await trx
      .updateTable(this.table('accreditation'))
      .set(change)
      .where('IdAcreditacion', '=', accreditation.IdAcreditacion)
      .execute();
    await writeAudit(
      trx,
      this.registry,
      this.registry.require('accreditation'),
      'U',
      principal,
      accreditation.IdAcreditacion,
      accreditation as never,
      { ...accreditation, ...change } as never,
    );
    return [];
  }

  /**
   * POST ampliar / cambiar: one request per accreditation selected to extend its end (FechaFin,
   * later than today's end and within its contract) or to move it to another contract of the
   * company (IdContrato, different from the current one, active, with the end within it), sent at
   * once (P). All or nothing, naming the rows that stop it.
   */
  async createContractRequest(requester: Requester, body: Body): Promise<{ Solicitudes: Row[] }> {
    const { principal } = requester;
    const selected = ids(body.Acreditaciones ?? body.IdAcreditacion, 'Acreditaciones');
    if (!selected.length)
      throw new ApiError('VALIDATION_FAILED', {
        fields: { Acreditaciones: { messageKey: 'demobilisation.refusals.selectionEmpty' } },
      });
    const end = String(body.FechaFin ?? '');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(end))
      throw new ApiError('VALIDATION_FAILED', {
        fields: { FechaFin: { messageKey: 'validation.required' } },
      });
    const target = this.kind === 'C' ? ids(body.IdContrato, 'IdContrato')[0] : undefined;
    if (this.kind === 'C' && target === undefined)
      throw new ApiError('VALIDATION_FAILED', {
        fields: { IdContrato: { messageKey: 'validation.required' } },
      });
    const observation = String(body.Observacion ?? '')
      .trim()
      .toLocaleUpperCase('es')
      .slice(0, 500);
    const created = await this.creating(async (trx) => {
      const today = await this.today(trx, principal);
      const contracts = this.table('contract');
      const contractOf = async (id: number) =>
        (await trx
          .selectFrom(contracts)
          .select(['IdContrato', 'FechaInicio', 'FechaFin', 'Activo', 'IdCompaniaContratista'])
          .where('IdContrato', '=', id)
          .executeTakeFirst()) as
          | {
              IdContrato: number;
              FechaInicio: string;
              FechaFin: string;
              Activo: string;
              IdCompaniaContratista: number;
            }
          | undefined;
      const problems: Record<string, FieldProblem> = {};
      let next: Awaited<ReturnType<typeof contractOf>>;
      if (target !== undefined) {
        const visible = await this.crud
          .within(trx)
          .findKeys(this.registry.require('contract'), { IdContrato: target }, principal);
        next = visible.length ? await contractOf(target) : undefined;
        if (!next || next.IdCompaniaContratista !== requester.companyId)
          throw new ApiError('MISSING_REFERENCE', {
            fields: {
              IdContrato: { messageKey: 'validation.referenceMissing', params: { resource: 'contract' } },
            },
          });
        if (next.Activo !== 'S')
          throw new ApiError('VALIDATION_FAILED', {
            fields: { IdContrato: { messageKey: 'accreditation.refusals.contractInactive' } },
          });
      }
      const rows = (await trx
        .selectFrom(this.table('accreditation'))
        .selectAll()
        .where('IdAcreditacion', 'in', selected)
        .where('IdCliente', '=', principal.clientId as number)
        .where('IdDivision', '=', principal.divisionId as number)
        .where('IdCompania', '=', requester.companyId)
        .where('Estado', 'in', ['A', 'S'])
        .where(
          'IdEntidad',
          'in',
          requester.entities.filter((e) => e !== 'P'),
        )
        .execute()) as AccreditationRow[];
      const open = (await trx
        .selectFrom(this.table('request'))
        .select(['IdSolicitud', 'IdPersona', 'IdVehiculo'])
        .where('TipoSolicitud', '=', this.kind)
        .where('EstadoAprobacion', 'in', ['I', 'P', 'O'])
        .where('IdCompania', '=', requester.companyId)
        .execute()) as Array<{ IdSolicitud: number; IdPersona: number | null; IdVehiculo: number | null }>;
      for (const [index, id] of selected.entries()) {
        const field = `Acreditaciones.${index}`;
        const row = rows.find((r) => r.IdAcreditacion === id);
        if (!row) {
          problems[field] = { messageKey: 'demobilisation.refusals.notAccredited', params: { id } };
          continue;
        }
        const current = await contractOf(row.IdContrato);
        const contract = next ?? current;
        if (this.kind === 'E' && end <= row.FechaFin)
          problems[field] = {
            messageKey: 'contractRequest.refusals.notLater',
            params: { end: row.FechaFin },
          };
        else if (this.kind === 'C' && next && next.IdContrato === row.IdContrato)
          problems[field] = { messageKey: 'contractRequest.refusals.sameContract' };
        else if (contract && (end > contract.FechaFin || end < today || end < contract.FechaInicio))
          problems[field] = {
            messageKey: 'accreditation.refusals.outsideContract',
            params: { start: dmy(contract.FechaInicio), end: dmy(contract.FechaFin) },
          };
        else {
          const twin = open.find(
            (o) =>
              (row.IdPersona && o.IdPersona === row.IdPersona) ||
              (row.IdVehiculo && o.IdVehiculo === row.IdVehiculo),
          );
          if (twin)
            problems[field] = {
              messageKey: 'accreditation.refusals.openRequestExists',
              params: { id: twin.IdSolicitud },
            };
        }
      }
      if (Object.keys(problems).length)
        throw new ApiError('BUSINESS_RULE', {
          messageKey: 'demobilisation.refusals.rowsStopped',
          params: { count: Object.keys(problems).length },
          fields: problems,
        });
      const resource = this.registry.require('request');
      const out: Row[] = [];
      for (const id of selected) {
        const row = rows.find((r) => r.IdAcreditacion === id) as AccreditationRow;
        const origin = (await trx
          .selectFrom(resource.table)
          .select('IdPerfilAcreditacion')
          .where('IdSolicitud', '=', row.IdSolicitud)
          .executeTakeFirstOrThrow()) as { IdPerfilAcreditacion: number };
        const at = new Date(this.now()).toISOString();
        const made = (await trx
          .insertInto(resource.table)
          .values({
            IdCliente: principal.clientId,
            IdDivision: principal.divisionId,
            IdCompania: requester.companyId,
            TipoSolicitud: this.kind,
            IdEntidad: row.IdEntidad,
            IdContrato: next?.IdContrato ?? row.IdContrato,
            IdContratoAnterior: this.kind === 'C' ? row.IdContrato : null,
            IdPerfilAcreditacion: origin.IdPerfilAcreditacion,
            ...(row.IdPersona ? { IdPersona: row.IdPersona } : { IdVehiculo: row.IdVehiculo }),
            FechaInicio: today,
            FechaFin: end,
            Observacion: observation || null,
            EstadoAprobacion: 'I',
            FechaSolicitud: at,
            SolicitudCompleta: 'S',
            IndisciplinaRechazo: 'N',
            IdUsuarioCreacion: principal.userId,
            FechaCreacion: at,
          })
          .returningAll()
          .executeTakeFirstOrThrow()) as Row;
        await this.historyRow(trx, made, principal, 'CREATE', null, 'I');
        const sent = requireTransition(
          requestMachine,
          { value: 'I', context: NO_LINES },
          { type: 'SEND' },
          { messageKey: REQUEST_REFUSALS.SEND },
        ).value as RequestStatus;
        await trx
          .updateTable(resource.table)
          .set({ EstadoAprobacion: sent, FechaEnvio: at })
          .where('IdSolicitud', '=', made.IdSolicitud as number)
          .execute();
        await this.historyRow(
          trx,
          { ...made, EstadoAprobacion: 'I' },
          principal,
          'SEND',
          'I',
          sent,
          observation,
        );
        out.push({ ...made, EstadoAprobacion: sent, IdAcreditacion: id });
      }
      return out;
    });
    for (const request of created) await this.notices.sent(request as never);
    return {
      Solicitudes: created.map((r) => ({
        IdSolicitud: r.IdSolicitud,
        IdAcreditacion: r.IdAcreditacion,
        EstadoAprobacion: r.EstadoAprobacion,
      })),
    };
  }

  private action(body: Body): { type: RequestEvent['type']; reason: string } {
    const type = ACTIONS[String(body.Accion ?? '')];
    if (!type)
      throw new ApiError('VALIDATION_FAILED', { fields: { Accion: { messageKey: 'validation.enum' } } });
    const reason = String(body.MotivoRechazo ?? body.Observacion ?? '')
      .trim()
      .toLocaleUpperCase('es')
      .slice(0, 500);
    return { type, reason };
  }

  /** POST actualizarautorizador: one demobilisation approved, observed or rejected (with its reason). */
  async evaluate(authoriser: Authoriser, body: Body): Promise<Row> {
    const id = ids(body.IdSolicitud, 'IdSolicitud')[0];
    if (id === undefined)
      throw new ApiError('VALIDATION_FAILED', {
        fields: { IdSolicitud: { messageKey: 'validation.required' } },
      });
    const { type, reason } = this.action(body);
    const done = await this.database.db
      .transaction()
      .execute((trx) => this.evaluateOne(trx, authoriser, id, type, reason));
    await this.notices.evaluated(done.request as never, reason);
    return { IdSolicitud: id, EstadoAprobacion: done.request.EstadoAprobacion, revocados: done.revoked };
  }

  /**
   * POST actualizarautorizadormasivo: several demobilisations given the same decision, all or
   * nothing: every row is tried in one transaction and, if any is refused, nothing is kept and the
   * refused rows are named (Solicitudes.<index>).
   */
  async evaluateMany(authoriser: Authoriser, body: Body): Promise<Row> {
    const selected = ids(body.Solicitudes, 'Solicitudes');
    if (!selected.length)
      throw new ApiError('VALIDATION_FAILED', {
        fields: { Solicitudes: { messageKey: 'demobilisation.refusals.selectionEmpty' } },
      });
    if (new Set(selected).size !== selected.length)
      throw new ApiError('VALIDATION_FAILED', {
        fields: { Solicitudes: { messageKey: 'demobilisation.refusals.selectedTwice' } },
      });
    const { type, reason } = this.action(body);
    const done = await this.database.db.transaction().execute(async (trx) => {
      const out: Array<Awaited<ReturnType<DemobilisationService['evaluateOne']>>> = [];
      const problems: Record<string, FieldProblem> = {};
      for (const [index, id] of selected.entries()) {
        try {
          out.push(await this.evaluateOne(trx, authoriser, id, type, reason));
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          problems[`Solicitudes.${index}`] = {
            messageKey: error.messageKey ?? `errors.${error.code}`,
            params: { id, ...(error.params as Record<string, string | number> | undefined) },
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
    for (const one of done) await this.notices.evaluated(one.request as never, reason);
    return {
      Solicitudes: done.map((d) => ({
        IdSolicitud: d.request.IdSolicitud,
        EstadoAprobacion: d.request.EstadoAprobacion,
        revocados: d.revoked,
      })),
    };
  }

  /**
   * DELETE eliminar: a demobilisation removed, as the request machine allows (only an incomplete
   * one: a sent or answered demobilisation stays, with its history).
   */
  async remove(requester: Requester, rawId: unknown): Promise<Row> {
    const id = ids(rawId, 'IdSolicitud')[0];
    if (id === undefined)
      throw new ApiError('VALIDATION_FAILED', {
        fields: { IdSolicitud: { messageKey: 'validation.required' } },
      });
    await this.database.db.transaction().execute(async (trx) => {
      const request = await this.load(trx, requester, id, true);
      requireTransition(
        requestMachine,
        { value: request.EstadoAprobacion, context: NO_LINES },
        { type: 'DELETE' },
        { messageKey: REQUEST_REFUSALS.DELETE },
      );
      for (const name of ['request-history'])
        await trx.deleteFrom(this.table(name)).where('IdSolicitud', '=', id).execute();
      await moveCount(trx, this.registry, request, request.EstadoAprobacion, null);
      await trx.deleteFrom(this.table('request')).where('IdSolicitud', '=', id).execute();
    });
    return { IdSolicitud: id };
  }
}
