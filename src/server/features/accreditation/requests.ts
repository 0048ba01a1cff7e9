import {
  REQUEST_REFUSALS,
  type RequestEvent,
  type RequestStatus,
  requestMachine,
} from '../../../../workflows/request.machine.js';
import {
  EVENT_FOR_STATUS,
  type LineStatus,
  requirementApprovalMachine,
} from '../../../../workflows/requirement-approval.machine.js';
import {
  type EntityCode,
  fileKindOf,
  HEADER_FIELDS,
  isEntityCode,
  MIME_OF,
  PERSON_FIELDS,
  VEHICLE_FIELDS,
} from '../../../shared/accreditation.js';
import { type WholeDecision, wholeDecision } from '../../../shared/approvals.js';
import { addDays } from '../../../shared/dates.js';
import { requestDateProblems } from '../../../shared/request-dates.js';
import type { FieldProblem } from '../../../shared/validation.js';
import { writeAudit } from '../../crud/audit.js';
import type { CrudService } from '../../crud/service.js';
import type { Row } from '../../crud/types.js';
import type { Database, Db } from '../../db/connection.js';
import { settlingRace } from '../../db/errors.js';
import { ApiError } from '../../errors.js';
import { checkInput } from '../../plugins/input.js';
import type { Principal } from '../../principal.js';
import type { Entity, Registry } from '../../registry.js';
import { INT32 } from '../../routes/responses.js';
import { divisionToday } from '../../site.js';
import type { FileStore } from '../../storage/files.js';
import { requireTransition } from '../../workflow.js';
import { carryOver } from './carry-over.js';
import { dataById, loadProfile, type ProfileDef } from './catalogue.js';
import { moveCount } from './counts.js';
import { reinstate } from './expiry.js';
import {
  applyValues,
  expectedLines,
  type Line,
  type LineInput,
  lineFacts,
  mergeLines,
  missingData,
  requestFacts,
  uncarry,
} from './lines.js';
import type { Notices } from './notices.js';
import { parameter } from './parameters.js';
import type { Authoriser, Requester } from './roles.js';

type Body = Record<string, unknown>;
type Stored = Row & {
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
interface Visitor {
  IdVisitaPersona?: number;
  IdTipoDocumento: number;
  Documento: string;
  Apellido: string;
  Nombre: string;
  Email?: string;
  IdPersona?: number | null;
}

const pick = (body: Body, fields: readonly string[]) =>
  Object.fromEntries(fields.filter((f) => body[f] !== undefined).map((f) => [f, body[f]]));

/** The Detalle of a request: a JSON string (as the spec sends it) or an array of at most `max` lines. */
export function parseDetail(raw: unknown, max = 2000): LineInput[] {
  if (raw === undefined || raw === null || raw === '') return [];
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw new ApiError('VALIDATION_FAILED', { fields: { Detalle: { messageKey: 'validation.invalid' } } });
    }
    // Checked as a JSON body is: an escaped NUL (\u0000) or a 1e400 inside is refused likewise.
    checkInput(value, 'body');
  }
  if (!Array.isArray(value) || value.length > max || value.some((v) => typeof v !== 'object' || v === null))
    throw new ApiError('VALIDATION_FAILED', { fields: { Detalle: { messageKey: 'validation.invalid' } } });
  return value as LineInput[];
}

/** What a worker (document type and number) or a vehicle (plate) is found by, as stored; undefined if not given. */
export function holderIdentity(worker: boolean, body: Body): Row | undefined {
  if (worker)
    return body.IdTipoDocumento !== undefined && body.Documento !== undefined
      ? {
          IdTipoDocumento: body.IdTipoDocumento,
          Documento: String(body.Documento).trim().toLocaleUpperCase('es'),
        }
      : undefined;
  return body.Placa !== undefined ? { Placa: String(body.Placa).trim().toLocaleUpperCase('es') } : undefined;
}

/** A PDF already in the file store, for a request line: its key and its name. */
export interface KeptFile {
  key: string;
  name: string;
}

/** A positive id from the caller, or a 400 on its field. */
export function idOf(value: unknown, field: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > INT32.max)
    throw new ApiError('VALIDATION_FAILED', { fields: { [field]: { messageKey: 'validation.required' } } });
  return n;
}

/** A worker's birth date as the body sends it, to be checked with the request's dates. */
const birthOf = (entity: string, body: Body): string | undefined =>
  entity === 'T' && typeof body.FechaNacimiento === 'string' ? body.FechaNacimiento : undefined;

/**
 * A requirement update's request fields (contract, profile, dates, the rest of the header) are
 * those of the accreditation it renews: a body that changes any is refused, field by field.
 */
function refuseRenewalChanges(request: Row, body: Body): void {
  const same = (a: unknown, b: unknown) =>
    String(a ?? '')
      .trim()
      .toLocaleUpperCase('es') ===
    String(b ?? '')
      .trim()
      .toLocaleUpperCase('es');
  const changed = HEADER_FIELDS.filter(
    (field) =>
      field !== 'IdEntidad' &&
      field !== 'Observacion' &&
      body[field] !== undefined &&
      !same(body[field], request[field]),
  );
  if (changed.length)
    throw new ApiError('VALIDATION_FAILED', {
      messageKey: 'renewal.refusals.fixed',
      fields: Object.fromEntries(changed.map((field) => [field, { messageKey: 'renewal.refusals.fixed' }])),
    });
}

/**
 * The request types the requester's editing calls (actualizarsolicitante, UploadSolicitanteArchivo,
 * cerrarsolicitud) handle: a mobilisation, and a requirement update, which is filled and sent as
 * one. A demobilisation, extension or contract change has its own calls.
 */
const EDITED_KINDS = ['M', 'A'] as const;

/**
 * The requests of the accreditation module, end to end: a requester makes, saves, attaches to
 * and sends them; authorisers evaluate them line by line and observe, reject, return or approve
 * them. Every status change is asked of the request machine and every line change of the
 * approval machine, from what is stored, inside the change's transaction; an approval grants
 * the accreditation in the same transaction.
 */
export class RequestService {
  constructor(
    private readonly database: Database,
    private readonly registry: Registry,
    private readonly crud: CrudService,
    readonly files: FileStore,
    private readonly notices: Notices,
    private readonly now: () => number = Date.now,
  ) {}

  private table(name: string): string {
    return this.registry.require(name).table;
  }

  private transaction<T>(fn: (trx: Db, crud: CrudService) => Promise<T>): Promise<T> {
    return this.database.db.transaction().execute((trx) => fn(trx, this.crud.within(trx)));
  }

  // ---- reading -------------------------------------------------------------------------------

  /**
   * A request the caller may see: a requester its company's, of the kinds its menu reaches; an
   * authoriser its division's, of the kinds it approves, once sent. Anything else is a 404.
   * `forChange`: in the caller's transaction, the row locked until it commits. `kinds`: the
   * request types the caller's call handles; a request of another type is not found either (a
   * demobilisation, an extension or a contract change is changed only through its own calls).
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
   * The profile a request is evaluated on: its accreditation profile, and for a requirement
   * update (TipoSolicitud A) only the requirements it renews (those it has lines for).
   */
  async profileOf(db: Db, request: Stored): Promise<ProfileDef> {
    const profile = await loadProfile(db, this.registry, request.IdCliente, request.IdPerfilAcreditacion);
    if (request.TipoSolicitud !== 'A') return profile;
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

  /** The date at the division's site (its country's time zone). */
  siteToday(db: Db, divisionId: number): Promise<string> {
    return divisionToday(db, this.registry, divisionId, this.now());
  }

  /** The correction days of each requirement's type (0: no deadline). */
  private async correctionDays(db: Db, profile: ProfileDef): Promise<Map<number, number>> {
    const types = [...new Set(profile.requirements.map((r) => r.IdTipoRequisito))];
    const rows = types.length
      ? ((await db
          .selectFrom(this.table('requirement-type'))
          .select(['IdTipoRequisito', 'DiasCorreccion'])
          .where('IdTipoRequisito', 'in', types)
          .execute()) as Array<{ IdTipoRequisito: number; DiasCorreccion: number | null }>)
      : [];
    const days = new Map(rows.map((r) => [r.IdTipoRequisito, Number(r.DiasCorreccion ?? 0)]));
    return new Map(profile.requirements.map((r) => [r.IdRequisito, days.get(r.IdTipoRequisito) ?? 0]));
  }

  async visitors(db: Db, id: number): Promise<Array<Visitor & { IdVisitaPersona: number }>> {
    return (await db
      .selectFrom(this.table('visit-person'))
      .select(['IdVisitaPersona', 'IdTipoDocumento', 'Documento', 'Apellido', 'Nombre', 'Email', 'IdPersona'])
      .where('IdSolicitud', '=', id)
      .orderBy('IdVisitaPersona')
      .execute()) as Array<Visitor & { IdVisitaPersona: number }>;
  }

  // ---- the requester's side ----------------------------------------------------------------------

  /**
   * The dates of spec section 5: a start today or later, within the contract's dates (and for a
   * visit, at most the longest visit). Answers the problems by field.
   */
  private async checkDates(
    db: Db,
    principal: Principal,
    header: { FechaInicio: string; FechaFin: string; IdContrato: number; FechaNacimiento?: string | null },
    profile: ProfileDef,
  ): Promise<Record<string, FieldProblem>> {
    const problems: Record<string, FieldProblem> = {};
    // A contract the caller cannot see (another company's, another division's) is no contract.
    const visible = await this.crud
      .within(db)
      .findKeys(this.registry.require('contract'), { IdContrato: header.IdContrato }, principal);
    if (!visible.length)
      throw new ApiError('MISSING_REFERENCE', {
        fields: {
          IdContrato: { messageKey: 'validation.referenceMissing', params: { resource: 'contract' } },
        },
      });
    const contract = (await db
      .selectFrom(this.table('contract'))
      .select(['FechaInicio', 'FechaFin', 'Activo'])
      .where('IdContrato', '=', header.IdContrato)
      .executeTakeFirst()) as { FechaInicio: string; FechaFin: string; Activo: string } | undefined;
    const today = await this.siteToday(db, principal.divisionId as number);
    if (contract && contract.Activo !== 'S')
      problems.IdContrato = { messageKey: 'accreditation.refusals.contractInactive' };
    const longestVisit =
      profile.IdEntidad === 'P'
        ? (profile.MaxDiasVisita ??
          (Number((await parameter(db, this.registry, principal, 'MAXDIASVISITA'))?.Valor1) || undefined))
        : undefined;
    // The same rules the wizard checks as the dates are typed (src/shared/request-dates.ts).
    Object.assign(
      problems,
      requestDateProblems(
        {
          FechaInicio: header.FechaInicio,
          FechaFin: header.FechaFin,
          FechaNacimiento: header.FechaNacimiento,
        },
        { today, contract, longestVisit },
      ),
    );
    return problems;
  }

  /**
   * The worker or vehicle a request names, kept up to date from the request's fields: found by its
   * document (or plate) within the company, or the request's own, or else registered.
   */
  private async holder(
    crud: CrudService,
    requester: Requester,
    entity: EntityCode,
    body: Body,
    current?: number | null,
  ): Promise<{ IdPersona?: number; IdVehiculo?: number }> {
    if (entity === 'P') return {};
    const principal = requester.principal;
    const worker = entity === 'T';
    const resource = this.registry.require(worker ? 'person' : 'vehicle');
    const sent = pick(body, worker ? PERSON_FIELDS : VEHICLE_FIELDS);
    const column = worker ? 'IdPersona' : 'IdVehiculo';
    if (!Object.keys(sent).length && current) return { [column]: current };
    const identity = holderIdentity(worker, sent);
    const [found] = identity ? await crud.findKeys(resource, identity, principal) : current ? [current] : [];
    const fields = { ...sent, IdCompania: requester.companyId };
    if (found !== undefined) {
      const existing = await crud.getOne(resource, found, principal);
      return {
        [column]: (await crud.update(resource, found, { ...existing, ...fields }, principal)).id as number,
      };
    }
    const defaults = worker ? { Condicion: 'T', Visita: 'N' } : {};
    return { [column]: (await crud.create(resource, { ...defaults, ...fields }, principal)).id as number };
  }

  /** Another open mobilisation of the same worker or vehicle on the same contract is refused. */
  private async refuseSecondOpen(
    db: Db,
    header: Row,
    exceptId?: number,
    principal?: Principal,
  ): Promise<void> {
    const holder = header.IdPersona ? 'IdPersona' : header.IdVehiculo ? 'IdVehiculo' : undefined;
    if (!holder) return;
    let qb = db.selectFrom(this.table('request')).select('IdSolicitud');
    // The request's indexes lead with its client and division: said, the holder's index answers.
    if (principal?.clientId !== undefined && principal.divisionId !== undefined)
      qb = qb.where('IdCliente', '=', principal.clientId).where('IdDivision', '=', principal.divisionId);
    qb = qb
      .where(holder, '=', header[holder] as number)
      .where('IdContrato', '=', header.IdContrato as number)
      .where('TipoSolicitud', '=', 'M')
      .where('EstadoAprobacion', 'in', ['I', 'P', 'O']);
    if (exceptId) qb = qb.where('IdSolicitud', '<>', exceptId);
    const open = (await qb.executeTakeFirst()) as { IdSolicitud: number } | undefined;
    if (open)
      throw new ApiError('DUPLICATE', {
        messageKey: 'accreditation.refusals.openRequestExists',
        params: { id: open.IdSolicitud },
      });
  }

  /** A visit's visitors, replaced by the ones sent (kept by document, so their lines stay). */
  private async saveVisitors(trx: Db, request: Stored, sent: unknown, principal: Principal): Promise<void> {
    if (sent === undefined) return;
    if (!Array.isArray(sent) || sent.length > 500)
      throw new ApiError('VALIDATION_FAILED', {
        fields: { Visitantes: { messageKey: 'validation.invalid' } },
      });
    const entity = this.registry.require('visit-person');
    const stored = await this.visitors(trx, request.IdSolicitud);
    const keyOf = (v: { IdTipoDocumento: unknown; Documento: unknown }) =>
      `${v.IdTipoDocumento}:${String(v.Documento ?? '')
        .trim()
        .toLocaleUpperCase('es')}`;
    const seen = new Set<string>();
    for (const [index, raw] of (sent as Body[]).entries()) {
      const visitor = this.crud.prepare(entity, {
        ...raw,
        IdSolicitud: request.IdSolicitud,
      }) as unknown as Visitor;
      const key = keyOf(visitor);
      if (seen.has(key))
        throw new ApiError('VALIDATION_FAILED', {
          fields: { [`Visitantes.${index}`]: { messageKey: 'accreditation.refusals.visitorTwice' } },
        });
      seen.add(key);
      const existing = stored.find((s) => keyOf(s) === key);
      const crud = this.crud.within(trx);
      if (existing)
        await crud.update(
          entity,
          existing.IdVisitaPersona,
          { ...existing, ...raw, IdSolicitud: request.IdSolicitud },
          principal,
        );
      else await crud.create(entity, { ...raw, IdSolicitud: request.IdSolicitud }, principal);
    }
    for (const gone of stored.filter((s) => !seen.has(keyOf(s)))) {
      await trx
        .deleteFrom(this.table('request-detail'))
        .where('IdVisitaPersona', '=', gone.IdVisitaPersona)
        .execute();
      await trx
        .deleteFrom(this.table('visit-person'))
        .where('IdVisitaPersona', '=', gone.IdVisitaPersona)
        .execute();
    }
  }

  /** Rewrites a request's lines: the profile's, with what was stored and what was sent. */
  async saveLines(
    trx: Db,
    request: Stored,
    profile: ProfileDef,
    inputs: LineInput[],
    files?: ReadonlyMap<number, KeptFile>,
  ): Promise<{ lines: Line[]; complete: boolean }> {
    const visitors = profile.IdEntidad === 'P' ? await this.visitors(trx, request.IdSolicitud) : [];
    const stored = await this.lines(trx, request.IdSolicitud);
    const lines = mergeLines(
      expectedLines(profile, profile.IdEntidad === 'P' ? visitors.map((v) => v.IdVisitaPersona) : [null]),
      stored,
    );
    if (request.TipoSolicitud === 'M')
      await carryOver(
        trx,
        this.registry,
        request,
        profile,
        lines.filter((line) => !line.IdDetalle),
      );
    const byDocument = new Map(visitors.map((v) => [v.Documento, v.IdVisitaPersona]));
    const problems = applyValues(lines, inputs, dataById(profile), (input) =>
      profile.IdEntidad !== 'P'
        ? null
        : (input.IdVisitaPersona ??
          byDocument.get(
            String(input.Documento ?? '')
              .trim()
              .toLocaleUpperCase('es'),
          ) ??
          -1),
    );
    if (Object.keys(problems).length) throw new ApiError('VALIDATION_FAILED', { fields: problems });
    // Files already kept (a bulk upload's PDFs) go on their holder's lines, as an attach would put them.
    for (const line of lines) {
      const file = line.IdVisitaPersona === null ? files?.get(line.IdDatoEvaluar) : undefined;
      if (!file) continue;
      if (line.IdSolicitudOrigen) uncarry(line);
      line.ClaveArchivo = file.key;
      line.NombreArchivo = file.name.slice(0, 200);
      line.TipoArchivo = MIME_OF.pdf;
    }
    const table = this.table('request-detail');
    const kept = new Set(lines.flatMap((l) => (l.IdDetalle ? [l.IdDetalle] : [])));
    const dropped = stored
      .filter((l) => l.IdDetalle && !kept.has(l.IdDetalle))
      .map((l) => l.IdDetalle as number);
    if (dropped.length) await trx.deleteFrom(table).where('IdDetalle', 'in', dropped).execute();
    const added: Row[] = [];
    for (const line of lines) {
      const { IdDetalle, ...values } = line;
      if (IdDetalle) await trx.updateTable(table).set(values).where('IdDetalle', '=', IdDetalle).execute();
      else
        added.push({
          ...values,
          IdSolicitud: request.IdSolicitud,
          IdCliente: request.IdCliente,
          IdUsuarioCreacion: 'SISTEMA',
          FechaCreacion: new Date(this.now()).toISOString(),
        });
    }
    // New lines in one statement a hundred at a time (in order): a request has a line per datum.
    for (let i = 0; i < added.length; i += 100)
      await trx
        .insertInto(table)
        .values(added.slice(i, i + 100))
        .execute();
    const complete =
      missingData(profile, lines).length === 0 && (profile.IdEntidad !== 'P' || visitors.length > 0);
    return { lines: await this.lines(trx, request.IdSolicitud), complete };
  }

  /**
   * A history row: who moved the request from which status to which, when and why; a move also
   * moves the request between the dashboards' counters, in the same transaction.
   */
  private async history(
    trx: Db,
    request: Stored,
    principal: Principal,
    event: string,
    to: RequestStatus | null,
    reason?: string,
  ): Promise<void> {
    await trx
      .insertInto(this.table('request-history'))
      .values({
        IdCliente: request.IdCliente,
        IdSolicitud: request.IdSolicitud,
        Fecha: new Date(this.now()).toISOString(),
        IdUsuario: principal.userId,
        Evento: event,
        EstadoAnterior: request.EstadoAprobacion ?? null,
        EstadoNuevo: to,
        Motivo: reason?.slice(0, 500) || null,
        IdUsuarioCreacion: principal.userId,
        FechaCreacion: new Date(this.now()).toISOString(),
      })
      .execute();
    if ((request.EstadoAprobacion ?? null) !== to)
      await moveCount(trx, this.registry, request, request.EstadoAprobacion ?? null, to);
  }

  /**
   * POST crearsolicitante: a new request, incomplete, with its holder, visitors and lines. A bulk
   * upload's row comes through here too, inside its own transaction (`within`) and with its mass
   * upload code, so it is checked exactly as a single request; it then answers only the id.
   */
  async create(
    requester: Requester,
    body: Body,
    within?: { trx: Db; massCode: string; files?: ReadonlyMap<number, KeptFile> },
  ): Promise<Row> {
    const entity = body.IdEntidad;
    if (!isEntityCode(entity))
      throw new ApiError('VALIDATION_FAILED', {
        fields: { IdEntidad: { messageKey: 'validation.required' } },
      });
    if (!requester.entities.includes(entity)) throw new ApiError('FORBIDDEN');
    const { principal } = requester;
    const inputs = parseDetail(body.Detalle);
    // A second open mobilisation of the holder is refused even when both are written at once.
    const run = <T>(fn: (trx: Db, crud: CrudService) => Promise<T>) =>
      settlingRace(
        this.registry,
        () => (within ? fn(within.trx, this.crud.within(within.trx)) : this.transaction(fn)),
        !within,
      );
    const id = await run(async (trx, crud) => {
      const header: Row = { ...pick(body, HEADER_FIELDS), TipoSolicitud: 'M' };
      const profile = await loadProfile(
        trx,
        this.registry,
        principal.clientId as number,
        idOf(header.IdPerfilAcreditacion, 'IdPerfilAcreditacion'),
        {
          entity,
          divisionId: principal.divisionId,
        },
      );
      Object.assign(header, await this.holder(crud, requester, entity, body));
      const resource = this.registry.require('request');
      const checked = this.crud.prepare(resource, header);
      const dates = await this.checkDates(
        trx,
        principal,
        { ...(checked as Row), FechaNacimiento: birthOf(entity, body) } as never,
        profile,
      );
      if (Object.keys(dates).length) throw new ApiError('VALIDATION_FAILED', { fields: dates });
      await this.refuseSecondOpen(trx, checked, undefined, principal);
      const created = (await crud.create(resource, header, principal, {
        set: {
          EstadoAprobacion: 'I',
          FechaSolicitud: new Date(this.now()).toISOString(),
          SolicitudCompleta: 'N',
          IndisciplinaRechazo: 'N',
          ...(within ? { CodigoCargaMasiva: within.massCode } : {}),
        },
      })) as unknown as Stored;
      await this.history(trx, { ...created, EstadoAprobacion: null as never }, principal, 'CREATE', 'I');
      if (entity === 'P') await this.saveVisitors(trx, created, body.Visitantes, principal);
      const { complete } = await this.saveLines(trx, created, profile, inputs, within?.files);
      await trx
        .updateTable(this.table('request'))
        .set({ SolicitudCompleta: complete ? 'S' : 'N' })
        .where('IdSolicitud', '=', created.IdSolicitud)
        .execute();
      return created.IdSolicitud;
    });
    return within ? { IdSolicitud: id } : this.summary(id);
  }

  /** POST actualizarsolicitante: an incomplete or observed request saved again. */
  async update(requester: Requester, body: Body): Promise<Row> {
    const id = idOf(body.IdSolicitud, 'IdSolicitud');
    const { principal } = requester;
    const inputs = parseDetail(body.Detalle);
    await this.transaction(async (trx, crud) => {
      const request = await this.load(trx, requester, id, true, EDITED_KINDS);
      requireTransition(
        requestMachine,
        {
          value: request.EstadoAprobacion,
          context: requestFacts([], { complete: false, datesValid: false }),
        },
        { type: 'UPDATE' },
        { messageKey: REQUEST_REFUSALS.UPDATE },
      );
      // A requirement update renews one requirement's data and file: the rest is its accreditation's.
      if (request.TipoSolicitud === 'A') refuseRenewalChanges(request, body);
      const header: Row = {
        ...pick(request, HEADER_FIELDS),
        ...pick(body, HEADER_FIELDS),
        IdEntidad: request.IdEntidad,
        TipoSolicitud: request.TipoSolicitud,
      };
      // A request's kind and profile stay what they were: a new profile is a new request.
      header.IdPerfilAcreditacion = request.IdPerfilAcreditacion;
      const profile = await this.profileOf(trx, request);
      Object.assign(
        header,
        request.TipoSolicitud === 'A'
          ? request.IdPersona
            ? { IdPersona: request.IdPersona }
            : { IdVehiculo: request.IdVehiculo }
          : await this.holder(
              crud,
              requester,
              request.IdEntidad,
              body,
              request.IdPersona ?? request.IdVehiculo,
            ),
      );
      const checked = this.crud.prepare(this.registry.require('request'), header);
      const dates = await this.checkDates(
        trx,
        principal,
        { ...(checked as Row), FechaNacimiento: birthOf(request.IdEntidad, body) } as never,
        profile,
      );
      if (Object.keys(dates).length) throw new ApiError('VALIDATION_FAILED', { fields: dates });
      await this.refuseSecondOpen(trx, checked, id, principal);
      await crud.update(this.registry.require('request'), id, header, principal);
      if (request.IdEntidad === 'P') await this.saveVisitors(trx, request, body.Visitantes, principal);
      const { complete } = await this.saveLines(trx, request, profile, inputs);
      await trx
        .updateTable(this.table('request'))
        .set({ SolicitudCompleta: complete ? 'S' : 'N' })
        .where('IdSolicitud', '=', id)
        .execute();
      await this.history(trx, request, principal, 'UPDATE', request.EstadoAprobacion);
    });
    return this.summary(id);
  }

  /** The facts the request machine decides on, from what is stored now. */
  async facts(trx: Db, request: Stored, principal: Principal) {
    const profile = await this.profileOf(trx, request);
    const lines = await this.lines(trx, request.IdSolicitud);
    const visitors = profile.IdEntidad === 'P' ? await this.visitors(trx, request.IdSolicitud) : [];
    const complete =
      missingData(profile, lines).length === 0 && (profile.IdEntidad !== 'P' || visitors.length > 0);
    const dates = await this.checkDates(trx, principal, request, profile);
    return {
      profile,
      lines,
      facts: requestFacts(lines, { complete, datesValid: Object.keys(dates).length === 0 }),
      dates,
    };
  }

  /** POST cerrarsolicitud: the request sent for evaluation, when complete and its dates hold. */
  async send(requester: Requester, rawId: unknown): Promise<Row> {
    const id = idOf(rawId, 'IdSolicitud');
    const request = await this.transaction(async (trx) => {
      const request = await this.load(trx, requester, id, true, EDITED_KINDS);
      const { facts, lines, profile, dates } = await this.facts(trx, request, requester.principal);
      if (request.EstadoAprobacion === 'I' || request.EstadoAprobacion === 'O') {
        if (!facts.complete)
          throw new ApiError('BUSINESS_RULE', {
            messageKey: 'accreditation.refusals.incomplete',
            fields: Object.fromEntries(
              missingData(profile, lines).map((l) => [
                `Detalle.${l.IdDatoEvaluar}`,
                { messageKey: l.ClaveArchivo ? 'validation.required' : 'ACCREDITATION.REQUEST.NOTFILE' },
              ]),
            ),
          });
        if (!facts.datesValid) throw new ApiError('VALIDATION_FAILED', { fields: dates });
      }
      const next = requireTransition(
        requestMachine,
        { value: request.EstadoAprobacion, context: facts },
        { type: 'SEND' },
        {
          messageKey:
            request.EstadoAprobacion === 'O' ? 'accreditation.refusals.stillObserved' : REQUEST_REFUSALS.SEND,
        },
      );
      await this.crud.within(trx).patch(
        this.registry.require('request'),
        id,
        {
          EstadoAprobacion: next.value,
          FechaEnvio: new Date(this.now()).toISOString(),
          SolicitudCompleta: 'S',
        },
        requester.principal,
      );
      await this.history(trx, request, requester.principal, 'SEND', next.value as RequestStatus);
      return request;
    });
    await this.notices.sent(request);
    return this.summary(id);
  }

  /**
   * DELETE eliminar: an incomplete request removed with its lines, visitors and history; a
   * mobilisation through the mobilisation's call, a requirement update through the renewal's (`kind`).
   */
  async remove(
    requester: Requester,
    rawId: unknown,
    kind: 'M' | 'A' = 'M',
  ): Promise<{ IdSolicitud: number }> {
    const id = idOf(rawId, 'IdSolicitud');
    await this.transaction(async (trx) => {
      const request = await this.load(trx, requester, id, true, [kind]);
      requireTransition(
        requestMachine,
        {
          value: request.EstadoAprobacion,
          context: requestFacts([], { complete: false, datesValid: false }),
        },
        { type: 'DELETE' },
        { messageKey: REQUEST_REFUSALS.DELETE },
      );
      for (const name of ['request-detail', 'visit-person', 'request-history'])
        await trx.deleteFrom(this.table(name)).where('IdSolicitud', '=', id).execute();
      await moveCount(trx, this.registry, request, request.EstadoAprobacion, null);
      await this.crud.within(trx).remove(this.registry.require('request'), id, requester.principal);
    });
    return { IdSolicitud: id };
  }

  /**
   * A requirement's file (UploadSolicitanteArchivo) or a visitor's (actualizararchivo): kept in
   * the file store before the line that names it commits. The request must still be editable; a
   * corrected observed line is pending again.
   */
  async attach(
    requester: Requester,
    target: { IdSolicitud?: unknown; IdDatoEvaluar?: unknown; IdVisitaPersona?: unknown },
    file: { bytes: Uint8Array; name: string; mime: string },
  ): Promise<Row> {
    const id = idOf(target.IdSolicitud, 'IdSolicitud');
    const datum = idOf(target.IdDatoEvaluar, 'IdDatoEvaluar');
    const visitor =
      target.IdVisitaPersona === undefined || target.IdVisitaPersona === ''
        ? null
        : idOf(target.IdVisitaPersona, 'IdVisitaPersona');
    return this.transaction(async (trx) => {
      const request = await this.load(trx, requester, id, true, EDITED_KINDS);
      requireTransition(
        requestMachine,
        {
          value: request.EstadoAprobacion,
          context: requestFacts([], { complete: false, datesValid: false }),
        },
        { type: 'UPDATE' },
        { messageKey: REQUEST_REFUSALS.UPDATE },
      );
      const profile = await this.profileOf(trx, request);
      const found = dataById(profile).get(datum);
      if (found?.datum.AdjuntarArchivo !== 'S' || found.requirement.TipoRequisito !== 'S')
        throw new ApiError('VALIDATION_FAILED', {
          fields: { IdDatoEvaluar: { messageKey: 'accreditation.refusals.noFileHere' } },
        });
      const line = (await this.lines(trx, id)).find(
        (l) => l.IdDatoEvaluar === datum && l.IdVisitaPersona === visitor,
      );
      if (!line?.IdDetalle)
        throw new ApiError('VALIDATION_FAILED', {
          fields: { IdDatoEvaluar: { messageKey: 'accreditation.refusals.unknownDatum' } },
        });
      const key = await this.files.put(file.bytes, trx);
      // A new file corrects an observed line, and makes a carried-over one the requester's own.
      if (line.IdSolicitudOrigen) uncarry(line);
      const status: LineStatus | null = line.EstadoAprobacion === 'O' ? 'P' : line.EstadoAprobacion;
      await trx
        .updateTable(this.table('request-detail'))
        .set({
          ClaveArchivo: key,
          NombreArchivo: file.name.slice(0, 200),
          TipoArchivo: file.mime,
          EstadoAprobacion: status,
          IdSolicitudOrigen: line.IdSolicitudOrigen ?? null,
          IdUsuarioAprobacion: line.IdUsuarioAprobacion,
          FechaAprobacion: line.FechaAprobacion,
        })
        .where('IdDetalle', '=', line.IdDetalle)
        .execute();
      const lines = await this.lines(trx, id);
      const complete = missingData(profile, lines).length === 0;
      await trx
        .updateTable(this.table('request'))
        .set({ SolicitudCompleta: complete ? 'S' : 'N' })
        .where('IdSolicitud', '=', id)
        .execute();
      return {
        IdSolicitud: id,
        IdDetalle: line.IdDetalle,
        NombreArchivo: file.name,
        SolicitudCompleta: complete ? 'S' : 'N',
      };
    });
  }

  /** crearsolicitantefoto: the worker's photo, checked by the caller, kept with the request. */
  async photo(requester: Requester, rawId: unknown, bytes: Uint8Array): Promise<Row> {
    const id = idOf(rawId, 'IdSolicitud');
    return this.transaction(async (trx) => {
      const request = await this.load(trx, requester, id, true, ['M']);
      requireTransition(
        requestMachine,
        {
          value: request.EstadoAprobacion,
          context: requestFacts([], { complete: false, datesValid: false }),
        },
        { type: 'UPDATE' },
        { messageKey: REQUEST_REFUSALS.UPDATE },
      );
      const key = await this.files.put(bytes, trx);
      await this.crud
        .within(trx)
        .patch(this.registry.require('request'), id, { ClaveFoto: key }, requester.principal);
      return { IdSolicitud: id, ClaveFoto: key };
    });
  }

  // ---- the authoriser's side ---------------------------------------------------------------------

  /** Every approver of the request's kind in its division, for the order of evaluation. */
  async approvers(trx: Db, request: Stored) {
    return (await trx
      .selectFrom(this.table('approver'))
      .select(['IdUsuario', 'Orden', 'IdTipoRequisito'])
      .where('IdDivision', '=', request.IdDivision)
      .where('IdEntidad', '=', request.IdEntidad)
      .where('Activo', '=', 'S')
      .execute()) as Array<{ IdUsuario: string; Orden: number; IdTipoRequisito: number | null }>;
  }

  /**
   * Approvers evaluate in order (DOMAIN: contract administrator, safety, health, security): a
   * line is the first order's that covers its requirement type, and an approver may evaluate it
   * once every line of an earlier order is approved. Answers the lines the user may change.
   */
  evaluable(
    authoriser: Authoriser,
    request: Stored,
    profile: ProfileDef,
    lines: Line[],
    approvers: Array<{ IdUsuario: string; Orden: number; IdTipoRequisito: number | null }>,
  ): Set<number> {
    return this.turns(authoriser, request, profile, lines, approvers).evaluable;
  }

  /**
   * The lines the authoriser may change now (`evaluable`), and for each of its own lines it may
   * not approve yet the lines it waits for (`waits`): an earlier order's open lines, or for an
   * authoriser-type line the requester-type lines not approved yet (spec section 5).
   */
  turns(
    authoriser: Authoriser,
    request: Stored,
    profile: ProfileDef,
    lines: Line[],
    approvers: Array<{ Orden: number; IdTipoRequisito: number | null }>,
  ): { evaluable: Set<number>; waits: Map<number, Line[]> } {
    const typeOf = new Map(profile.requirements.map((r) => [r.IdRequisito, r.IdTipoRequisito]));
    const covers = (row: { IdTipoRequisito: number | null }, line: Line) =>
      row.IdTipoRequisito === null || row.IdTipoRequisito === typeOf.get(line.IdRequisito);
    const orderOf = (line: Line) =>
      Math.min(...approvers.filter((a) => covers(a, line)).map((a) => a.Orden), Number.POSITIVE_INFINITY);
    const mine = authoriser.rows.filter((r) => r.IdEntidad === request.IdEntidad);
    const open = (line: Line) => line.EstadoAprobacion !== null && line.EstadoAprobacion !== 'A';
    const evaluable = new Set<number>();
    const waits = new Map<number, Line[]>();
    for (const line of lines) {
      if (!line.IdDetalle || line.EstadoAprobacion === null) continue;
      const row = mine.find((r) => covers(r, line));
      if (!row) continue;
      const earlier = lines.filter((other) => open(other) && orderOf(other) < row.Orden);
      if (earlier.length) {
        waits.set(line.IdDetalle, earlier);
        continue;
      }
      evaluable.add(line.IdDetalle);
      if (line.TipoRequisito === 'A' && open(line)) {
        const requester = lines.filter((other) => other.TipoRequisito === 'S' && open(other));
        if (requester.length) waits.set(line.IdDetalle, requester);
      }
    }
    return { evaluable, waits };
  }

  /**
   * Whether the authoriser may decide the request as a whole (approve, observe, reject, return):
   * src/shared/approvals.ts, on the request's lines as they stand in `lines`.
   */
  wholeDecisionOf(
    authoriser: Authoriser,
    request: Stored,
    profile: ProfileDef | null,
    lines: Line[],
    approvers: Array<{ Orden: number; IdTipoRequisito: number | null }>,
  ): WholeDecision {
    const typeOf = new Map(profile?.requirements.map((r) => [r.IdRequisito, r.IdTipoRequisito]));
    return wholeDecision(
      authoriser.rows.filter((r) => r.IdEntidad === request.IdEntidad),
      approvers,
      lines
        .filter((line) => line.IdDetalle)
        .map((line) => ({ type: typeOf.get(line.IdRequisito), status: line.EstadoAprobacion })),
    );
  }

  /**
   * Refuses a whole-request decision that is not the authoriser's, or not yet: 403 when some line
   * of the request belongs to another approver's requirement type, 400 while an earlier order's
   * lines are open.
   */
  requireWholeDecision(
    authoriser: Authoriser,
    request: Stored,
    profile: ProfileDef | null,
    lines: Line[],
    approvers: Array<{ Orden: number; IdTipoRequisito: number | null }>,
  ): void {
    const verdict = this.wholeDecisionOf(authoriser, request, profile, lines, approvers);
    if (verdict === 'notYours')
      throw new ApiError('FORBIDDEN', { messageKey: 'accreditation.refusals.notYourDecision' });
    if (verdict === 'notYourTurn')
      throw new ApiError('BUSINESS_RULE', { messageKey: 'accreditation.refusals.notYourTurn' });
  }

  /**
   * actualizarsolicitanteautorizador: an authoriser's evaluation of a pending request, line by
   * line (each change asked of the approval machine), and optionally its decision: approve,
   * observe, reject or return (asked of the request machine). An approval grants the
   * accreditation in the same transaction. It decides only requests of its `kind` (a
   * mobilisation, or through the renewal's call a requirement update): another kind's request
   * is not found here, for its decision (and what that ends or grants) is its own call's.
   */
  async evaluate(authoriser: Authoriser, body: Body, kind: 'M' | 'A' = 'M'): Promise<Row> {
    const id = idOf(body.IdSolicitud, 'IdSolicitud');
    const result = await this.transaction(async (trx) => {
      await this.load(trx, authoriser, id, false, [kind]);
      return this.evaluateWithin(trx, authoriser, body);
    });
    await this.notices.evaluated(result.request, result.reason);
    if (result.request.EstadoAprobacion === 'P')
      for (const order of result.newlyReady) await this.notices.turn(result.request, order);
    return this.summary(id);
  }

  /**
   * An evaluation in the caller's transaction (what evaluate does, and the bulk evaluations of
   * other request types run several of in one transaction); the caller mails the outcome.
   */
  async evaluateWithin(trx: Db, authoriser: Authoriser, body: Body) {
    const id = idOf(body.IdSolicitud, 'IdSolicitud');
    const { principal } = authoriser;
    const changes = (Array.isArray(body.Detalle) ? body.Detalle : parseDetail(body.Detalle)) as Body[];
    const action =
      body.Accion === undefined || body.Accion === null || body.Accion === ''
        ? undefined
        : String(body.Accion);
    const ACTIONS: Record<string, RequestEvent['type']> = {
      APROBAR: 'APPROVE',
      OBSERVAR: 'OBSERVE',
      RECHAZAR: 'REJECT',
      DEVOLVER: 'RETURN',
    };
    if (action !== undefined && !ACTIONS[action])
      throw new ApiError('VALIDATION_FAILED', { fields: { Accion: { messageKey: 'validation.enum' } } });
    {
      const request = await this.load(trx, authoriser, id, true);
      if (request.EstadoAprobacion !== 'P')
        throw new ApiError('CONFLICT', { messageKey: 'accreditation.refusals.notPending' });
      const profile = await this.profileOf(trx, request);
      const lines = await this.lines(trx, id);
      const approvers = await this.approvers(trx, request);
      const readyBefore = this.readyOrders(profile, lines, approvers);
      const evaluable = this.evaluable(authoriser, request, profile, lines, approvers);
      const byId = new Map(lines.map((l) => [l.IdDetalle, l]));
      // Requester-type lines first: an authoriser-type line is approved only after them.
      const ordered = changes
        .map((change) => ({ change, line: byId.get(Number(change.IdDetalle)) }))
        .sort((a, b) => (a.line?.TipoRequisito === 'S' ? 0 : 1) - (b.line?.TipoRequisito === 'S' ? 0 : 1));
      const now = new Date(this.now()).toISOString();
      const correction = await this.correctionDays(trx, profile);
      const today = await this.siteToday(trx, request.IdDivision);
      for (const { change, line } of ordered) {
        const field = `Detalle.${change.IdDetalle}`;
        if (!line?.IdDetalle)
          throw new ApiError('VALIDATION_FAILED', {
            fields: { [field]: { messageKey: 'accreditation.refusals.unknownDatum' } },
          });
        const status = change.EstadoAprobacion as LineStatus;
        const note =
          typeof change.Observacion === 'string'
            ? change.Observacion.trim().toLocaleUpperCase('es').slice(0, 500)
            : line.Observacion;
        if (status !== line.EstadoAprobacion) {
          if (!(status in EVENT_FOR_STATUS))
            throw new ApiError('VALIDATION_FAILED', {
              fields: { [field]: { messageKey: 'validation.enum' } },
            });
          if (!evaluable.has(line.IdDetalle))
            throw new ApiError('BUSINESS_RULE', {
              messageKey: 'ACCREDITATION.MESSAGE.APPROVALSTATUS',
              fields: { [field]: { messageKey: 'ACCREDITATION.MESSAGE.APPROVALSTATUS' } },
            });
          if ((status === 'O' || status === 'R') && !note)
            throw new ApiError('VALIDATION_FAILED', {
              fields: { [field]: { messageKey: 'accreditation.refusals.observationRequired' } },
            });
          const facts = lineFacts(line, lines);
          const blocked = status === 'A' && line.TipoRequisito === 'A' && facts.requesterPending;
          requireTransition(
            requirementApprovalMachine,
            { value: line.EstadoAprobacion as LineStatus, context: facts },
            { type: EVENT_FOR_STATUS[status] },
            blocked
              ? { messageKey: 'ACCREDITATION.MESSAGE.APPROVALSTATUS', code: 'BUSINESS_RULE' }
              : { messageKey: 'accreditation.refusals.lineNotChangeable' },
          );
          line.EstadoAprobacion = status;
          line.IdUsuarioAprobacion = principal.userId;
          line.FechaAprobacion = now;
          // An observation is to be corrected within its requirement type's days.
          const days = correction.get(line.IdRequisito) ?? 0;
          line.FechaLimiteCorreccion = status === 'O' && days > 0 ? addDays(today, days) : null;
        }
        // An authoriser-type requirement's values are the authoriser's to record.
        if (line.TipoRequisito === 'A' && change.Valor !== undefined)
          line.Valor =
            change.Valor === null ? null : String(change.Valor).trim().toLocaleUpperCase('es').slice(0, 1000);
        line.Observacion = note ?? null;
        await trx
          .updateTable(this.table('request-detail'))
          .set({
            EstadoAprobacion: line.EstadoAprobacion,
            Observacion: line.Observacion,
            Valor: line.Valor,
            IdUsuarioAprobacion: line.IdUsuarioAprobacion,
            FechaAprobacion: line.FechaAprobacion,
            FechaLimiteCorreccion: line.FechaLimiteCorreccion ?? null,
            ...(line.FechaLimiteCorreccion ? { FechaEscalamiento: null } : {}),
          })
          .where('IdDetalle', '=', line.IdDetalle)
          .execute();
      }
      let status: RequestStatus = request.EstadoAprobacion;
      const reason = String(body.MotivoRechazo ?? body.Observacion ?? '')
        .trim()
        .toLocaleUpperCase('es')
        .slice(0, 500);
      if (action) {
        this.requireWholeDecision(authoriser, request, profile, lines, approvers);
        const type = ACTIONS[action];
        const event = (type === 'APPROVE' ? { type } : { type, reason }) as RequestEvent;
        const facts = requestFacts(lines, { complete: true, datesValid: true });
        status = requireTransition(
          requestMachine,
          { value: request.EstadoAprobacion, context: facts },
          event,
          {
            messageKey: REQUEST_REFUSALS[type],
            code: type === 'APPROVE' ? 'BUSINESS_RULE' : 'CONFLICT',
          },
        ).value as RequestStatus;
        await this.crud.within(trx).patch(
          this.registry.require('request'),
          id,
          {
            EstadoAprobacion: status,
            FechaAtencion: status === 'I' ? null : now,
            ObservacionAutorizador: reason || null,
            MotivoRechazo: type === 'REJECT' ? reason : null,
            IndisciplinaRechazo: type === 'REJECT' && body.IndisciplinaRechazo === 'S' ? 'S' : 'N',
          },
          principal,
        );
        await this.history(trx, request, principal, type, status, reason);
        if (status === 'A')
          await this.grant(trx, { ...request, EstadoAprobacion: status }, profile, lines, principal);
      } else {
        await this.history(trx, request, principal, 'EVALUATE', status);
      }
      const readyAfter = this.readyOrders(profile, lines, approvers);
      return {
        request: { ...request, EstadoAprobacion: status },
        newlyReady: [...readyAfter].filter((o) => !readyBefore.has(o)),
        approvers,
        reason,
      };
    }
  }

  /** The approval orders whose turn it is: every line of an earlier order approved, some of theirs pending. */
  private readyOrders(
    profile: ProfileDef,
    lines: Line[],
    approvers: Array<{ Orden: number; IdTipoRequisito: number | null }>,
  ): Set<number> {
    const typeOf = new Map(profile.requirements.map((r) => [r.IdRequisito, r.IdTipoRequisito]));
    const orderOf = (line: Line) =>
      Math.min(
        ...approvers
          .filter((a) => a.IdTipoRequisito === null || a.IdTipoRequisito === typeOf.get(line.IdRequisito))
          .map((a) => a.Orden),
        Number.POSITIVE_INFINITY,
      );
    const ready = new Set<number>();
    for (const order of new Set(approvers.map((a) => a.Orden))) {
      const open = lines.filter((l) => l.EstadoAprobacion !== null && l.EstadoAprobacion !== 'A');
      if (open.some((l) => orderOf(l) < order)) continue;
      if (open.some((l) => orderOf(l) === order)) ready.add(order);
    }
    return ready;
  }

  /**
   * What an approval grants, in its transaction: the accreditation of the worker, vehicle or
   * each visitor (registered as the company's person) for the contract, division and dates, and
   * the requirement values with their expiry kept per holder for renewal.
   */
  private async grant(
    trx: Db,
    request: Stored,
    profile: ProfileDef,
    lines: Line[],
    principal: Principal,
  ): Promise<void> {
    const now = new Date(this.now()).toISOString();
    const today = now.slice(0, 10);
    const holders: Array<{ IdPersona?: number; IdVehiculo?: number; visitor: number | null }> = [];
    if (request.IdEntidad === 'T' && request.IdPersona)
      holders.push({ IdPersona: request.IdPersona, visitor: null });
    if (request.IdEntidad === 'V' && request.IdVehiculo)
      holders.push({ IdVehiculo: request.IdVehiculo, visitor: null });
    if (request.IdEntidad === 'P') {
      const crud = this.crud.within(trx);
      const person = this.registry.require('person');
      const atCompany: Principal = { ...principal, companyId: request.IdCompania };
      for (const visitor of await this.visitors(trx, request.IdSolicitud)) {
        const [found] = await crud.findKeys(
          person,
          { IdTipoDocumento: visitor.IdTipoDocumento, Documento: visitor.Documento },
          atCompany,
        );
        // A visitor is registered from what the visit says of them: the person form's field
        // rules (a birth date, a phone) are for the people a company registers itself.
        const id = found ?? (await this.registerVisitor(trx, person, visitor, request, principal));
        await trx
          .updateTable(this.table('visit-person'))
          .set({ IdPersona: id })
          .where('IdVisitaPersona', '=', visitor.IdVisitaPersona)
          .execute();
        holders.push({ IdPersona: id as number, visitor: visitor.IdVisitaPersona });
      }
    }
    // The worker's photo on the request becomes the person's (what the gate and the badge show).
    if (
      request.IdEntidad === 'T' &&
      request.IdPersona &&
      request.ClaveFoto &&
      request.TipoSolicitud === 'M'
    ) {
      const bytes = await this.files.get(String(request.ClaveFoto));
      const kind = bytes && fileKindOf(bytes);
      if (bytes && kind)
        await trx
          .updateTable(this.table('person'))
          .set({
            Foto: `data:${MIME_OF[kind]};base64,${bytes.toString('base64')}`,
            IdUsuarioModificacion: principal.userId,
            FechaModificacion: now,
          })
          .where('IdPersona', '=', request.IdPersona)
          .execute();
    }
    const accreditation = this.table('accreditation');
    const kept = this.table('accredited-requirement');
    const data = dataById(profile);
    for (const holder of holders) {
      const column = holder.IdPersona ? 'IdPersona' : 'IdVehiculo';
      const value = (holder.IdPersona ?? holder.IdVehiculo) as number;
      // A requirement update renews values only: the accreditation's dates stay.
      if (request.TipoSolicitud !== 'A') {
        const existing = (await trx
          .selectFrom(accreditation)
          .select('IdAcreditacion')
          .where(column, '=', value)
          .where('IdContrato', '=', request.IdContrato)
          .where('IdDivision', '=', request.IdDivision)
          .executeTakeFirst()) as { IdAcreditacion: number } | undefined;
        const values = {
          FechaInicio: request.FechaInicio,
          FechaFin: request.FechaFin,
          Estado: 'A',
          IdSolicitud: request.IdSolicitud,
          FechaAprobacion: now,
        };
        if (existing)
          await trx
            .updateTable(accreditation)
            .set({ ...values, IdUsuarioModificacion: principal.userId, FechaModificacion: now })
            .where('IdAcreditacion', '=', existing.IdAcreditacion)
            .execute();
        else
          await trx
            .insertInto(accreditation)
            .values({
              ...values,
              IdCliente: request.IdCliente,
              IdDivision: request.IdDivision,
              IdCompania: request.IdCompania,
              IdEntidad: request.IdEntidad,
              [column]: value,
              IdContrato: request.IdContrato,
              IdUsuarioCreacion: principal.userId,
              FechaCreacion: now,
            })
            .execute();
      }
      // The expiry of each requirement: its expiry datum's date, else its validity from today.
      const expiry = new Map<number, string | null>();
      for (const requirement of profile.requirements) {
        const datum = requirement.data.find((d) => d.Vencimiento === 'S');
        const line =
          datum &&
          lines.find((l) => l.IdDatoEvaluar === datum.IdDatoEvaluar && l.IdVisitaPersona === holder.visitor);
        expiry.set(
          requirement.IdRequisito,
          line?.Valor ?? (requirement.VigenciaDias > 0 ? addDays(today, requirement.VigenciaDias) : null),
        );
      }
      for (const line of lines.filter((l) => l.IdVisitaPersona === holder.visitor)) {
        if (!line.Valor && !line.ClaveArchivo) continue;
        // A carried-over value stays kept as it was: its expiry and the request that proved it.
        if (line.IdSolicitudOrigen) continue;
        if (!data.has(line.IdDatoEvaluar)) continue;
        await trx
          .deleteFrom(kept)
          .where(column, '=', value)
          .where('IdDatoEvaluar', '=', line.IdDatoEvaluar)
          .execute();
        await trx
          .insertInto(kept)
          .values({
            IdCliente: request.IdCliente,
            IdEntidad: request.IdEntidad,
            [column]: value,
            IdRequisito: line.IdRequisito,
            IdDatoEvaluar: line.IdDatoEvaluar,
            Valor: line.Valor,
            ClaveArchivo: line.ClaveArchivo,
            NombreArchivo: line.NombreArchivo,
            TipoArchivo: line.TipoArchivo,
            FechaVencimiento: expiry.get(line.IdRequisito) ?? null,
            IdSolicitud: request.IdSolicitud,
            FechaAprobacion: now,
            IdUsuarioCreacion: principal.userId,
            FechaCreacion: now,
          })
          .execute();
      }
      // A renewal lifts the suspension an expired mandatory requirement caused, when none is left.
      if (request.TipoSolicitud === 'A')
        await reinstate(trx, this.registry, column, value, request.IdCliente, today);
    }
  }

  /** A visitor of an approved visit, registered as a person of the visit's company. */
  private async registerVisitor(
    trx: Db,
    person: Entity,
    visitor: Visitor,
    request: Stored,
    principal: Principal,
  ) {
    const data = this.crud.prepare(person, {
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
    const now = new Date(this.now()).toISOString();
    const row = (await trx
      .insertInto(person.table)
      .values({
        ...data,
        IdCliente: request.IdCliente,
        IdUsuarioCreacion: principal.userId,
        FechaCreacion: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow()) as Row;
    await writeAudit(trx, this.registry, person, 'C', principal, row.IdPersona, undefined, row);
    return row.IdPersona as number;
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
}
