import { randomUUID } from 'node:crypto';
import type { EntityCode } from '../../../../shared/accreditation.js';
import type { Language } from '../../../../shared/constants.js';
import { messageKeyOf } from '../../../../shared/errors.js';
import type { FieldProblem } from '../../../../shared/validation.js';
import type { CrudService } from '../../../crud/service.js';
import type { Row } from '../../../crud/types.js';
import type { Database, Db } from '../../../db/connection.js';
import { ApiError } from '../../../errors.js';
import { t } from '../../../i18n.js';
import { LeaseLost, type Leases } from '../../../jobs/leases.js';
import type { Registry } from '../../../registry.js';
import type { FileStore } from '../../../storage/files.js';
import { loadProfile, type ProfileDef } from '../catalogue.js';
import { holderIdentity, type KeptFile } from '../engine/input.js';
import type { Mobilisations } from '../kinds/mobilisation.js';
import type { Renewals } from '../kinds/renewal.js';
import { numericParameter } from '../parameters.js';
import type { Requester } from '../roles.js';
import { Attachments, attachmentName, attachmentSlots } from './attachments.js';
import { type BulkColumn, bulkColumns, identityKey } from './columns.js';
import { type CellValue, readSheet } from './upload-reader.js';
import { signature, templateWorkbook } from './workbook.js';

/** The most rows one upload takes, unless the environment's BULK_MAX_ROWS says otherwise. */
export const bulkMaxRows = () => Number(process.env.BULK_MAX_ROWS) || 10_000;
/** Rows a dry run checks at once on PostgreSQL. */
const DRY_RUN_CONCURRENCY = 4;
/** Rows stored per insert. */
const INSERT_BATCH = 200;

/** A row's problems: by column key (`*` for the row as a whole), each a message key and its params. */
export type RowErrors = Record<string, FieldProblem>;

export interface Upload {
  IdCargaMasiva: number;
  CodigoCargaMasiva: string;
  IdCliente: number;
  IdDivision: number;
  IdCompania: number;
  IdEntidad: EntityCode;
  IdContrato: number;
  IdPerfilAcreditacion: number;
  /** A requirement update's requirement; null for mobilisation requests. */
  IdRequisito: number | null;
  NombreArchivo: string | null;
  Filas: number;
  /** C being checked, V checked, R being processed, F processed. */
  Estado: 'C' | 'V' | 'R' | 'F';
  IdUsuario: string;
  /** The uploader's session profile: whose grants its jobs run with. */
  IdPerfil: number | null;
}

export interface Counts {
  loaded: number;
  /** Rows the dry run has not checked yet. */
  toCheck: number;
  observed: number;
  processed: number;
  successful: number;
  toProcess: number;
}

/**
 * Lets the server answer other calls between two rows: SQLite's driver is synchronous, so a loop
 * of its queries would otherwise never give the event loop a turn (no progress could be read).
 */
const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The request fields a row starts from: a mobilisation's contract and profile, or for a requirement update its kind alone. */
const requestBase = (
  entity: EntityCode,
  contract: number,
  profile: number,
  requirement: number | null,
): Row =>
  requirement === null
    ? { IdEntidad: entity, IdContrato: contract, IdPerfilAcreditacion: profile }
    : { IdEntidad: entity };

/** The cell a holder error lands on: the document (a person) or the plate (a vehicle). */
const HOLDER_CELL: Record<string, string> = { IdPersona: 'Documento', IdVehiculo: 'Placa' };

/** A stored row as its jobs read it. */
interface PendingRow {
  IdFila: number;
  Datos: string;
  Errores: string | null;
}

/** Thrown inside a dry run's transaction so that nothing it wrote stays. */
class DryRun extends Error {}

/** What a job is told while it runs: that its lease was lost, and how to write under it. */
interface JobRun {
  signal: AbortSignal;
  /** Renews the lease inside `trx`; throws LeaseLost when another process took the job over. */
  fence(trx: Db): Promise<void>;
}

interface RunningJob {
  /** Whether this process took the job (false: another holds it). */
  taken: Promise<boolean>;
  done: Promise<void>;
}

/** An upload's job's name in the lease table. */
const jobName = (upload: Upload) => `CARGA ${upload.IdCargaMasiva}`;

/**
 * Bulk requests (spec sections 2, 4 and 7: excelformato, cargamasiva, procesarmasivo,
 * excelprocesados). Every row goes through the single request's own `create`: as a dry run in a
 * transaction rolled back when the file is uploaded, for real when it is processed. Processing
 * is a job over the stored rows: each row's state moves in the transaction that creates its
 * request, so a row is created once whatever crashes or repeats, and the job picks up the rows
 * still valid when it is started again.
 */
export class BulkService {
  /** The jobs running in this process, by upload. */
  private readonly jobs = new Map<number, RunningJob>();
  private stopping = false;

  constructor(
    private readonly database: Database,
    private readonly registry: Registry,
    private readonly crud: CrudService,
    private readonly requests: Mobilisations,
    private readonly renewals: Renewals,
    private readonly files: FileStore,
    /** The database's leases: one process runs an upload's job at a time, and takes over a dead one's. */
    private readonly leases: Leases,
    readonly maxRows: number = bulkMaxRows(),
  ) {}

  private table(name: string): string {
    return this.registry.require(name).table;
  }

  private get db(): Db {
    return this.database.db;
  }

  /**
   * The profile of a bulk upload: a worker's or a vehicle's, for the requester's division; for a
   * requirement update, the requirement must be one of its requester's requirements.
   */
  private async profile(
    requester: Requester,
    contract: number,
    profileId: number,
    requirement: number | null = null,
  ): Promise<ProfileDef> {
    const { principal } = requester;
    const profile = await loadProfile(this.db, this.registry, principal.clientId as number, profileId, {
      divisionId: principal.divisionId,
    });
    if (profile.IdEntidad !== 'T' && profile.IdEntidad !== 'V')
      throw new ApiError('VALIDATION_FAILED', {
        fields: { IdPerfilAcreditacion: { messageKey: 'bulk.errors.notBulkEntity' } },
      });
    if (!requester.entities.includes(profile.IdEntidad)) throw new ApiError('FORBIDDEN');
    const visible = await this.crud
      .within(this.db)
      .findKeys(this.registry.require('contract'), { IdContrato: contract }, principal);
    if (!visible.length)
      throw new ApiError('MISSING_REFERENCE', {
        fields: {
          IdContrato: { messageKey: 'validation.referenceMissing', params: { resource: 'contract' } },
        },
      });
    if (
      requirement !== null &&
      !profile.requirements.some((r) => r.IdRequisito === requirement && r.TipoRequisito === 'S')
    )
      throw new ApiError('VALIDATION_FAILED', {
        fields: { IdRequisito: { messageKey: 'bulk.errors.requirementNotInProfile' } },
      });
    return profile;
  }

  /** What a template asks for: the whole profile, or for a requirement update that requirement only. */
  private scoped(profile: ProfileDef, requirement: number | null): ProfileDef {
    return requirement === null
      ? profile
      : { ...profile, requirements: profile.requirements.filter((r) => r.IdRequisito === requirement) };
  }

  /**
   * A template's columns: a mobilisation's (bulkColumns), or a requirement update's: the holder's
   * identity (document type and number, or plate), then the requirement's data.
   */
  private async columnsOf(
    requester: Requester,
    profile: ProfileDef,
    requirement: number | null,
    language: Language,
  ): Promise<BulkColumn[]> {
    const columns = await bulkColumns(
      this.db,
      this.registry,
      requester.principal,
      this.scoped(profile, requirement),
      language,
    );
    if (requirement === null) return columns;
    const identity = profile.IdEntidad === 'V' ? ['Placa'] : ['IdTipoDocumento', 'Documento'];
    return columns.filter((c) => identity.includes(c.key) || c.datum !== undefined);
  }

  /** The requester requirements of a profile a requirement update may renew from a file. */
  async requirements(requester: Requester, profileId: number): Promise<Row[]> {
    const profile = await loadProfile(
      this.db,
      this.registry,
      requester.principal.clientId as number,
      profileId,
      {
        divisionId: requester.principal.divisionId,
      },
    );
    if (!requester.entities.includes(profile.IdEntidad)) throw new ApiError('FORBIDDEN');
    return profile.requirements
      .filter((r) => r.TipoRequisito === 'S')
      .map((r) => ({ IdRequisito: r.IdRequisito, Requisito: r.Requisito }));
  }

  /**
   * Makes a row's request in the caller's transaction: a mobilisation request, or a requirement
   * update of the accredited holder the row names (found by document or plate).
   */
  private async make(
    requester: Requester,
    target: { IdEntidad: EntityCode; IdContrato: number; IdRequisito: number | null },
    trx: Db,
    body: Row,
    massCode: string,
    files?: ReadonlyMap<number, KeptFile>,
  ): Promise<Row> {
    if (target.IdRequisito === null) return this.requests.create(requester, body, { trx, massCode, files });
    const worker = target.IdEntidad !== 'V';
    const identity = holderIdentity(worker, body);
    const key = worker ? 'Documento' : 'Placa';
    if (!identity)
      throw new ApiError('VALIDATION_FAILED', { fields: { [key]: { messageKey: 'validation.required' } } });
    const [holder] = await this.crud
      .within(trx)
      .findKeys(this.registry.require(worker ? 'person' : 'vehicle'), identity, requester.principal);
    if (holder === undefined)
      throw new ApiError('VALIDATION_FAILED', {
        fields: { [key]: { messageKey: 'bulk.errors.unknownHolder' } },
      });
    return this.renewals.create(
      requester,
      {
        IdEntidad: target.IdEntidad,
        [worker ? 'IdPersona' : 'IdVehiculo']: holder,
        IdRequisito: target.IdRequisito,
        Detalle: body.Detalle,
      },
      { trx, massCode, contract: target.IdContrato, files },
    );
  }

  /** excelformato: the template of a contract and profile, in the caller's language. */
  async template(
    requester: Requester,
    contract: number,
    profileId: number,
    language: Language,
    requirement: number | null = null,
  ): Promise<{ bytes: Buffer; fileName: string }> {
    const profile = await this.profile(requester, contract, profileId, requirement);
    const columns = await this.columnsOf(requester, profile, requirement, language);
    const renewed = profile.requirements.find((r) => r.IdRequisito === requirement);
    const row = (await this.db
      .selectFrom(this.table('contract'))
      .select(['NumeroContrato'])
      .where('IdContrato', '=', contract)
      .executeTakeFirst()) as { NumeroContrato?: string } | undefined;
    const contractName = row?.NumeroContrato ?? String(contract);
    const slots = attachmentSlots(this.scoped(profile, requirement));
    const holder = t(language, `bulk.instructions.${profile.IdEntidad === 'V' ? 'plate' : 'document'}`);
    const bytes = await templateWorkbook(
      columns,
      {
        contract,
        contractName,
        profile: profileId,
        profileName: profile.Descripcion,
        entity: t(language, `enums.bulkEntity.${profile.IdEntidad}`),
        requirement: renewed ? { id: renewed.IdRequisito, name: renewed.Requisito } : undefined,
      },
      slots.map((slot) => ({
        requirement: slot.requirement,
        fileName: attachmentName(holder, slot, slots.length),
      })),
      this.maxRows,
      language,
    );
    const safe = `${contractName} ${renewed ? renewed.Requisito : profile.Descripcion}`
      .replace(/[\\/:*?"<>|]/g, '')
      .slice(0, 80);
    return { bytes, fileName: `${safe}.xlsx` };
  }

  /**
   * The columns a file is read with: a list's text is taken in either language (the template was
   * written in its downloader's), or its stored value.
   */
  private async readingColumns(
    requester: Requester,
    profile: ProfileDef,
    requirement: number | null,
  ): Promise<BulkColumn[]> {
    const [es, en] = await Promise.all(
      (['es', 'en'] as const).map((l) => this.columnsOf(requester, profile, requirement, l)),
    );
    return es.map((column, i) =>
      column.choices ? { ...column, choices: [...column.choices, ...(en[i].choices ?? [])] } : column,
    );
  }

  /** A row's cells as a request body, and the cells that could not be read. */
  private toBody(
    columns: BulkColumn[],
    cells: Record<string, CellValue>,
    base: Row,
  ): { body: Row; errors: RowErrors } {
    const body: Row = { ...base };
    const detail: Array<{ IdDatoEvaluar: number; Valor: string }> = [];
    const errors: RowErrors = {};
    for (const column of columns) {
      const raw = cells[column.key];
      if (raw === null || raw === undefined) continue;
      let value: string | number | undefined;
      if (column.choices) {
        const text = String(raw).trim().toLocaleUpperCase('es');
        const found = column.choices.find(
          (c) => c.label.toLocaleUpperCase('es') === text || String(c.value).toLocaleUpperCase('es') === text,
        );
        if (!found) {
          errors[column.key] = { messageKey: 'bulk.errors.unknownChoice' };
          continue;
        }
        value = found.value;
      } else if (column.kind === 'date') {
        const text = String(raw).trim();
        const dmy = /^(\d{1,2})[/-](\d{1,2})[/-](\d{4})$/.exec(text);
        value = dmy ? `${dmy[3]}-${dmy[2].padStart(2, '0')}-${dmy[1].padStart(2, '0')}` : text;
        if (typeof raw === 'number') {
          errors[column.key] = { messageKey: 'validation.format.date' };
          continue;
        }
      } else if (column.json === 'integer' || column.json === 'number') {
        const n = typeof raw === 'number' ? raw : Number(String(raw).trim().replace(',', '.'));
        value = Number.isFinite(n) ? n : String(raw);
      } else value = typeof raw === 'number' ? String(raw) : raw;
      if (column.datum) detail.push({ IdDatoEvaluar: column.datum, Valor: String(value) });
      else body[column.key] = value;
    }
    body.Detalle = JSON.stringify(detail);
    return { body, errors };
  }

  /** Where an error of the request service lands: the cell of its field, or the row. */
  private errorsOf(error: unknown, keys: Set<string>): RowErrors {
    if (!(error instanceof ApiError)) throw error;
    const out: RowErrors = {};
    const fields = (error.fields ?? {}) as Record<string, FieldProblem>;
    for (const [field, problem] of Object.entries(fields)) {
      const key = field.startsWith('Detalle.') ? `D${field.slice(8)}` : (HOLDER_CELL[field] ?? field);
      out[keys.has(key) ? key : '*'] ??= problem;
    }
    if (!Object.keys(out).length)
      out['*'] = {
        messageKey: error.messageKey ?? messageKeyOf(error.code),
        params: error.params as FieldProblem['params'],
      };
    else if (error.code === 'DUPLICATE' && error.messageKey)
      out['*'] = { messageKey: error.messageKey, params: error.params as FieldProblem['params'] };
    return out;
  }

  /**
   * cargamasiva: the uploaded file (on disk) read as a stream, the upload stored under a new mass
   * upload code with its rows (and the errors found reading them) to check, and the dry run started
   * as a job (`runCheck`): every row checked as a single request would be, inside a transaction
   * rolled back. With a zip of attachments, each row's PDFs are matched by name, checked and kept
   * for its request. Nothing else is created.
   */
  async upload(
    requester: Requester,
    input: {
      contract: number;
      profile: number;
      requirement?: number | null;
      path: string;
      fileName: string;
      attachments?: string;
    },
  ): Promise<Upload & { attached: number; unusedFiles: string[] }> {
    const requirement = input.requirement ?? null;
    const profile = await this.profile(requester, input.contract, input.profile, requirement);
    const columns = await this.readingColumns(requester, profile, requirement);
    const sheet = await readSheet(
      input.path,
      this.maxRows,
      columns.map((c) => c.key),
    );
    if (sheet.signature !== signature(input.contract, input.profile, requirement))
      throw new ApiError('VALIDATION_FAILED', {
        messageKey: 'bulk.errors.otherTemplate',
        fields: { file: { messageKey: 'bulk.errors.otherTemplate' } },
      });
    if (!sheet.rows.length)
      throw new ApiError('VALIDATION_FAILED', {
        messageKey: 'bulk.errors.empty',
        fields: { file: { messageKey: 'bulk.errors.empty' } },
      });
    const attachments = input.attachments
      ? await Attachments.open(input.attachments, attachmentSlots(this.scoped(profile, requirement)))
      : undefined;
    const base = requestBase(profile.IdEntidad, input.contract, input.profile, requirement);
    const code = `CM-${new Date().toISOString().slice(0, 10).replaceAll('-', '')}-${randomUUID().slice(0, 8).toUpperCase()}`;
    const firstOf = new Map<string, number>();
    const documentKey = profile.IdEntidad === 'V' ? 'Placa' : 'Documento';
    const prepared = sheet.rows.map(({ row, cells }) => {
      const { body, errors } = this.toBody(columns, cells, base);
      const identity = identityKey(profile.IdEntidad, body);
      if (identity !== undefined) {
        const first = firstOf.get(identity);
        if (first !== undefined)
          errors[documentKey] ??= { messageKey: 'bulk.errors.duplicateInFile', params: { row: first } };
        else firstOf.set(identity, row);
      }
      return { row, cells, body, errors, files: new Map<number, KeptFile>() };
    });
    // Each holder's PDFs, one at a time: checked, kept, and on their cells when they are wrong.
    let attached = 0;
    if (attachments) {
      const maxBytes =
        (await numericParameter(this.db, this.registry, requester.principal, 'SIZEMAXPDFUPLOAD', 10)) *
        1024 *
        1024;
      for (const { body, errors, files } of prepared) {
        const document = body[documentKey];
        if (document === undefined || document === null || String(document).trim() === '') continue;
        // A holder's files go to its first row; a repeated row is refused anyway.
        if (errors[documentKey]?.messageKey === 'bulk.errors.duplicateInFile') continue;
        for (const found of await attachments.forHolder(String(document).trim(), maxBytes, (bytes) =>
          this.files.put(bytes),
        )) {
          if ('problem' in found) errors[`D${found.datum}`] ??= found.problem;
          else {
            files.set(found.datum, { key: found.key, name: found.name });
            attached++;
          }
        }
      }
    }
    const pending: Row[] = prepared.map(({ row, cells, body, errors }) => ({
      Fila: row,
      Documento: String(body[documentKey] ?? '').slice(0, 20) || null,
      Datos: JSON.stringify(cells),
      Errores: Object.keys(errors).length ? JSON.stringify(errors) : null,
      Estado: 'P',
    }));
    const filesOf = new Map(prepared.map((p) => [p.row, p.files]));
    const { principal } = requester;
    const now = new Date().toISOString();
    const stored = await this.database.db.transaction().execute(async (trx) => {
      const created = (await trx
        .insertInto(this.table('bulk-upload'))
        .values({
          CodigoCargaMasiva: code,
          IdCliente: principal.clientId,
          IdDivision: principal.divisionId,
          IdCompania: requester.companyId,
          IdEntidad: profile.IdEntidad,
          IdContrato: input.contract,
          IdPerfilAcreditacion: input.profile,
          IdRequisito: requirement,
          NombreArchivo: input.fileName.slice(0, 200),
          Filas: pending.length,
          Estado: 'C',
          IdUsuario: principal.userId,
          IdPerfil: principal.profileId ?? null,
          IdUsuarioCreacion: principal.userId,
          FechaCreacion: now,
        })
        .returning('IdCargaMasiva')
        .executeTakeFirstOrThrow()) as { IdCargaMasiva: number };
      const ids: Array<{ IdFila: number; Fila: number }> = [];
      for (let i = 0; i < pending.length; i += INSERT_BATCH)
        ids.push(
          ...((await trx
            .insertInto(this.table('bulk-upload-row'))
            .values(
              pending.slice(i, i + INSERT_BATCH).map((r) => ({
                ...r,
                IdCargaMasiva: created.IdCargaMasiva,
                IdCliente: principal.clientId,
                IdUsuarioCreacion: principal.userId,
                FechaCreacion: now,
              })),
            )
            .returning(['IdFila', 'Fila'])
            .execute()) as Array<{ IdFila: number; Fila: number }>),
        );
      // The rows' PDFs, by the ids their rows were given.
      const kept: Row[] = [];
      for (const { IdFila, Fila } of ids)
        for (const [datum, file] of filesOf.get(Fila) ?? [])
          kept.push({
            IdCliente: principal.clientId,
            IdCargaMasiva: created.IdCargaMasiva,
            IdFila,
            IdDatoEvaluar: datum,
            ClaveArchivo: file.key,
            NombreArchivo: file.name.slice(0, 200),
            IdUsuarioCreacion: principal.userId,
            FechaCreacion: now,
          });
      for (let i = 0; i < kept.length; i += INSERT_BATCH)
        await trx
          .insertInto(this.table('bulk-upload-file'))
          .values(kept.slice(i, i + INSERT_BATCH))
          .execute();
      return {
        ...(await this.find(trx, requester, code)),
        attached,
        unusedFiles: attachments?.unused() ?? [],
      };
    });
    // The rows are checked by a job: the caller follows it with progresomasivo.
    this.startCheck(requester, stored);
    return stored;
  }

  /** The PDFs kept for some rows of an upload, by row and datum. */
  private async keptFiles(upload: Upload, rows: number[]): Promise<Map<number, Map<number, KeptFile>>> {
    const out = new Map<number, Map<number, KeptFile>>();
    if (!rows.length) return out;
    const found = (await this.db
      .selectFrom(this.table('bulk-upload-file'))
      .select(['IdFila', 'IdDatoEvaluar', 'ClaveArchivo', 'NombreArchivo'])
      .where('IdCliente', '=', upload.IdCliente)
      .where('IdCargaMasiva', '=', upload.IdCargaMasiva)
      .where('IdFila', 'in', rows)
      .orderBy('IdArchivoCarga')
      .execute()) as Array<{
      IdFila: number;
      IdDatoEvaluar: number;
      ClaveArchivo: string;
      NombreArchivo: string;
    }>;
    for (const f of found) {
      const files = out.get(f.IdFila) ?? new Map<number, KeptFile>();
      files.set(f.IdDatoEvaluar, { key: f.ClaveArchivo, name: f.NombreArchivo });
      out.set(f.IdFila, files);
    }
    return out;
  }

  /** An upload of the requester's company (in its client and division), by code; else 404. */
  async find(db: Db, requester: Requester, code: unknown): Promise<Upload> {
    const { principal } = requester;
    const row = (await db
      .selectFrom(this.table('bulk-upload'))
      .selectAll()
      .where('CodigoCargaMasiva', '=', String(code ?? '').slice(0, 40))
      .where('IdCliente', '=', principal.clientId as number)
      .where('IdDivision', '=', principal.divisionId as number)
      .where('IdCompania', '=', requester.companyId)
      .executeTakeFirst()) as Upload | undefined;
    if (!row)
      throw new ApiError('NOT_FOUND', {
        messageKey: 'bulk.errors.notFound',
        params: { resource: 'bulk-upload', id: String(code) },
      });
    return row;
  }

  /** Section 4's counts of an upload. */
  async counts(upload: Upload): Promise<Counts> {
    const rows = (await this.db
      .selectFrom(this.table('bulk-upload-row'))
      .select(['Estado', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('IdCliente', '=', upload.IdCliente)
      .where('IdCargaMasiva', '=', upload.IdCargaMasiva)
      .groupBy('Estado')
      .execute()) as Array<{ Estado: string; n: number | string }>;
    const n = (s: string) => Number(rows.find((r) => r.Estado === s)?.n ?? 0);
    return {
      loaded: upload.Filas,
      toCheck: n('P'),
      observed: n('E') + n('F'),
      processed: n('S') + n('F'),
      successful: n('S'),
      toProcess: n('V'),
    };
  }

  /** What an upload's screen shows: the upload, its counts and whether a job is running now. */
  async progress(requester: Requester, code: unknown): Promise<Row> {
    const upload = await this.find(this.db, requester, code);
    this.resumeIfLeft(requester, upload);
    // A job runs only while the upload is being checked or processed: once its state has moved on,
    // this process's job is only letting go of its lease, and another's cannot have begun.
    const running =
      (upload.Estado === 'C' || upload.Estado === 'R') &&
      (this.jobs.has(upload.IdCargaMasiva) || (await this.leases.held(upload.IdCliente, jobName(upload))));
    return { ...upload, ...(await this.counts(upload)), running };
  }

  /** Recent uploads' headings by upload and language: the screen asks for them with every page of rows. */
  private readonly headingsKept = new Map<string, { until: number; headings: Map<string, string> }>();

  /** The header of each column of an upload's template in the caller's language, by key. */
  async headings(requester: Requester, code: unknown, language: Language): Promise<Map<string, string>> {
    const upload = await this.find(this.db, requester, code);
    const key = `${upload.IdCargaMasiva}:${language}`;
    const kept = this.headingsKept.get(key);
    if (kept && kept.until > Date.now()) return kept.headings;
    const profile = await loadProfile(this.db, this.registry, upload.IdCliente, upload.IdPerfilAcreditacion);
    const columns = await this.columnsOf(requester, profile, upload.IdRequisito ?? null, language);
    const headings = new Map(columns.map((c) => [c.key, c.header]));
    if (this.headingsKept.size >= 200) this.headingsKept.clear();
    this.headingsKept.set(key, { until: Date.now() + 60_000, headings });
    return headings;
  }

  /** The rows of an upload with their errors worded in the caller's language. */
  async rows(
    requester: Requester,
    code: unknown,
    language: Language,
    page: { skip: number; take: number; state?: string },
  ): Promise<{ rows: Row[]; total: number }> {
    const upload = await this.find(this.db, requester, code);
    let qb = this.db
      .selectFrom(this.table('bulk-upload-row'))
      .where('IdCliente', '=', upload.IdCliente)
      .where('IdCargaMasiva', '=', upload.IdCargaMasiva);
    if (page.state) qb = qb.where('Estado', 'in', page.state.split(','));
    const total = Number(
      (
        (await qb.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst()) as {
          n: number | string;
        }
      ).n,
    );
    const rows = (await qb
      .select(['IdFila', 'Fila', 'Documento', 'Datos', 'Errores', 'Estado', 'IdSolicitud'])
      .orderBy('Fila')
      .offset(page.skip)
      .limit(page.take)
      .execute()) as Row[];
    const files = await this.keptFiles(
      upload,
      rows.map((r) => r.IdFila as number),
    );
    return {
      rows: rows.map((r) => ({
        ...this.worded(r, language),
        Archivos: [...(files.get(r.IdFila as number)?.values() ?? [])].map((f) => f.name),
      })),
      total,
    };
  }

  /** A stored row as shown: its cells, its errors by column in words, its state. */
  worded(row: Row, language: Language): Row {
    const errors = row.Errores ? (JSON.parse(String(row.Errores)) as RowErrors) : {};
    return {
      Fila: row.Fila,
      Documento: row.Documento,
      Estado: row.Estado,
      IdSolicitud: row.IdSolicitud ?? null,
      Datos: row.Datos ? JSON.parse(String(row.Datos)) : {},
      Errores: Object.fromEntries(
        Object.entries(errors).map(([key, p]) => [key, t(language, p.messageKey, p.params)]),
      ),
    };
  }

  /**
   * procesarmasivo: starts (or resumes) the job that creates the valid rows' requests, and
   * answers at once with the progress. Processing an upload again creates nothing twice.
   */
  async process(requester: Requester, code: unknown): Promise<Row> {
    const upload = await this.find(this.db, requester, code);
    if (upload.Estado === 'C') {
      this.resumeIfLeft(requester, upload);
      throw new ApiError('BUSINESS_RULE', { messageKey: 'bulk.errors.stillChecking' });
    }
    const counts = await this.counts(upload);
    if (upload.Estado !== 'R' && counts.toProcess === 0 && counts.processed === 0)
      throw new ApiError('BUSINESS_RULE', { messageKey: 'bulk.errors.nothingToProcess' });
    if (counts.toProcess > 0 && !this.jobs.has(upload.IdCargaMasiva)) this.start(requester, upload);
    return this.progress(requester, code);
  }

  /**
   * Starts again the job an upload is marked for (checking or processing) when no job of this
   * process runs it: one a stopped server left (a crash, a restart).
   */
  private resumeIfLeft(requester: Requester, upload: Upload): void {
    if (this.jobs.has(upload.IdCargaMasiva)) return;
    if (upload.Estado === 'C') this.startCheck(requester, upload);
    else if (upload.Estado === 'R') this.start(requester, upload);
  }

  /**
   * At start and then every few seconds (jobs/runner.ts): the uploads left being checked or
   * processed that no live process holds (a stopped or dead server's), each resumed as its
   * uploader (`requesterOfUpload`: the principal rebuilt from the upload, its user still active
   * and still holding the profile, with the profile's grants as they are now). One whose uploader
   * no longer may waits for a progress read of a requester. Answers how many this process took.
   */
  async resume(requesterOfUpload: (upload: Upload) => Promise<Requester | undefined>): Promise<number> {
    const left = (await this.db
      .selectFrom(this.table('bulk-upload'))
      .selectAll()
      .where('Estado', 'in', ['C', 'R'])
      .execute()) as Upload[];
    let resumed = 0;
    for (const upload of left) {
      if (this.jobs.has(upload.IdCargaMasiva) || this.stopping) continue;
      if (await this.leases.held(upload.IdCliente, jobName(upload))) continue;
      const requester = await requesterOfUpload(upload).catch(() => undefined);
      if (!requester) continue;
      this.resumeIfLeft(requester, upload);
      if (await this.jobs.get(upload.IdCargaMasiva)?.taken) resumed++;
    }
    return resumed;
  }

  /** Moves an upload to a state (from `from` only, when given). */
  private async setState(upload: Upload, state: Upload['Estado'], from?: Upload['Estado']): Promise<void> {
    let qb = this.db
      .updateTable(this.table('bulk-upload'))
      .set({ Estado: state })
      .where('IdCliente', '=', upload.IdCliente)
      .where('IdCargaMasiva', '=', upload.IdCargaMasiva);
    if (from) qb = qb.where('Estado', '=', from);
    await qb.execute();
  }

  /**
   * Runs one of an upload's jobs in the background, holding the upload's lease in the database:
   * when another process holds it, this one does nothing. One that fails leaves the upload in its
   * state, for the next progress read (or another process, once the lease runs out) to pick it up.
   */
  private launch(upload: Upload, work: (run: JobRun) => Promise<void>): void {
    if (this.jobs.has(upload.IdCargaMasiva)) return;
    const name = jobName(upload);
    let taken!: (yes: boolean) => void;
    const job: RunningJob = {
      taken: new Promise<boolean>((resolve) => {
        taken = resolve;
      }),
      done: this.leases
        .hold(upload.IdCliente, name, async (signal) => {
          taken(true);
          await work({
            signal,
            fence: (trx) => this.leases.fence(upload.IdCliente, name, trx),
          });
        })
        .catch(() => {})
        .finally(() => {
          taken(false);
          this.jobs.delete(upload.IdCargaMasiva);
        }),
    };
    this.jobs.set(upload.IdCargaMasiva, job);
  }

  /** Runs the processing in the background; marks the upload processing until it ends. */
  private start(requester: Requester, upload: Upload): void {
    this.launch(upload, async (run) => {
      await this.setState(upload, 'R');
      if (await this.runJob(requester, upload, run)) await this.setState(upload, 'F');
    });
  }

  /** Runs the dry run of an upload's rows in the background; marks the upload checked when it ends. */
  private startCheck(requester: Requester, upload: Upload): void {
    this.launch(upload, async (run) => {
      if (await this.runCheck(requester, upload, run)) await this.setState(upload, 'V', 'C');
    });
  }

  /**
   * Stops the jobs of this process after the row each is on (the server is closing): their
   * uploads stay marked checking or processing, and the next start resumes them.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.jobs.values()].map((job) => job.done));
  }

  /** What an upload's jobs read its rows with (`columns`, `keys`, `base`) and make them into (`target`). */
  private async jobContext(requester: Requester, upload: Upload) {
    const profile = await loadProfile(this.db, this.registry, upload.IdCliente, upload.IdPerfilAcreditacion);
    const requirement = upload.IdRequisito ?? null;
    const columns = await this.readingColumns(requester, profile, requirement);
    return {
      columns,
      keys: new Set(columns.map((c) => c.key)),
      base: requestBase(upload.IdEntidad, upload.IdContrato, upload.IdPerfilAcreditacion, requirement),
      target: { IdEntidad: upload.IdEntidad, IdContrato: upload.IdContrato, IdRequisito: requirement },
    };
  }

  /**
   * Runs `each` on an upload's rows in `state`, in order: read a hundred at a time with their kept
   * PDFs, `width` at once, the event loop given a turn between. `each` must move its row out of
   * `state`. Answers false when it stopped before the end (the server is closing, or the lease
   * was lost to another process).
   */
  private async eachRow(
    upload: Upload,
    run: JobRun,
    state: 'P' | 'V',
    width: number,
    each: (row: PendingRow, files?: ReadonlyMap<number, KeptFile>) => Promise<void>,
  ): Promise<boolean> {
    for (;;) {
      const batch = (await this.db
        .selectFrom(this.table('bulk-upload-row'))
        .select(['IdFila', 'Datos', 'Errores'])
        .where('IdCliente', '=', upload.IdCliente)
        .where('IdCargaMasiva', '=', upload.IdCargaMasiva)
        .where('Estado', '=', state)
        .orderBy('Fila')
        .limit(100)
        .execute()) as PendingRow[];
      if (!batch.length) return true;
      const files = await this.keptFiles(
        upload,
        batch.map((r) => r.IdFila),
      );
      for (let i = 0; i < batch.length; i += width) {
        if (this.stopping || run.signal.aborted) return false;
        await yieldTurn();
        await Promise.all(batch.slice(i, i + width).map((row) => each(row, files.get(row.IdFila))));
      }
    }
  }

  /**
   * The dry run: each row still to check (P), in order, made as a single request would be inside
   * a transaction rolled back; its errors (with those found when the file was read) and its state
   * (V or E) stored. PostgreSQL checks a few rows at a time on pooled connections; SQLite one.
   */
  private async runCheck(requester: Requester, upload: Upload, run: JobRun): Promise<boolean> {
    const rowsTable = this.table('bulk-upload-row');
    const { columns, keys, base, target } = await this.jobContext(requester, upload);
    const width = this.database.dialect === 'postgres' ? DRY_RUN_CONCURRENCY : 1;
    return this.eachRow(upload, run, 'P', width, async (row, files) => {
      const read = this.toBody(columns, JSON.parse(row.Datos), base);
      const errors: RowErrors = { ...(row.Errores ? (JSON.parse(row.Errores) as RowErrors) : {}) };
      for (const [key, problem] of Object.entries(read.errors)) errors[key] ??= problem;
      try {
        await this.db.transaction().execute(async (trx) => {
          await this.make(requester, target, trx, read.body, upload.CodigoCargaMasiva, files);
          throw new DryRun();
        });
      } catch (error) {
        if (!(error instanceof DryRun))
          for (const [key, problem] of Object.entries(this.errorsOf(error, keys))) errors[key] ??= problem;
      }
      const bad = Object.keys(errors).length > 0;
      await this.db.transaction().execute(async (trx) => {
        await run.fence(trx);
        await trx
          .updateTable(rowsTable)
          .set({ Estado: bad ? 'E' : 'V', Errores: bad ? JSON.stringify(errors) : null })
          .where('IdFila', '=', row.IdFila)
          .where('Estado', '=', 'P')
          .execute();
      });
    });
  }

  /**
   * The processing: each valid row, in order, made a request in its own transaction with its
   * row's state.
   */
  private async runJob(requester: Requester, upload: Upload, run: JobRun): Promise<boolean> {
    const rowsTable = this.table('bulk-upload-row');
    const { columns, keys, base, target } = await this.jobContext(requester, upload);
    return this.eachRow(upload, run, 'V', 1, async (row, files) => {
      const { body } = this.toBody(columns, JSON.parse(row.Datos), base);
      try {
        await this.db.transaction().execute(async (trx) => {
          // The row is claimed first: a second job waits for this one's transaction and then finds it taken.
          const claimed = await trx
            .updateTable(rowsTable)
            .set({ Estado: 'S' })
            .where('IdFila', '=', row.IdFila)
            .where('Estado', '=', 'V')
            .executeTakeFirst();
          if (Number(claimed.numUpdatedRows) !== 1) return;
          // Only while this process still holds the job: one presumed dead writes nothing more.
          await run.fence(trx);
          const made = await this.make(requester, target, trx, body, upload.CodigoCargaMasiva, files);
          await trx
            .updateTable(rowsTable)
            .set({ IdSolicitud: made.IdSolicitud as number })
            .where('IdFila', '=', row.IdFila)
            .execute();
        });
      } catch (error) {
        if (error instanceof LeaseLost) throw error;
        // The row no longer holds (another request was made meanwhile, the contract ended…).
        await this.db
          .updateTable(rowsTable)
          .set({ Estado: 'F', Errores: JSON.stringify(this.errorsOf(error, keys)) })
          .where('IdFila', '=', row.IdFila)
          .where('Estado', '=', 'V')
          .execute();
      }
    });
  }
}
