import { randomUUID } from 'node:crypto';
import type { EntityCode } from '../../../../shared/accreditation.js';
import type { Language } from '../../../../shared/constants.js';
import type { CrudService } from '../../../crud/service.js';
import type { Row } from '../../../crud/types.js';
import type { Database, Db, DialectName } from '../../../db/connection.js';
import {
  addingLaterOn,
  keepingReads,
  rowKept,
  rowRolledBack,
  writeAdditions,
} from '../../../db/kept-reads.js';
import { releaseSavepoint, rollbackToSavepoint, savepoint } from '../../../db/savepoint.js';
import { FreshStatistics } from '../../../db/statistics.js';
import { ApiError } from '../../../errors.js';
import { crashPoint } from '../../../jobs/crash.js';
import type { Leases } from '../../../jobs/leases.js';
import type { Registry } from '../../../registry.js';
import { numericParameter } from '../../../services/parameters.js';
import type { Requester } from '../../../services/requester.js';
import { readSheet } from '../../../services/upload-reader.js';
import type { FileStore } from '../../../storage/files.js';
import { loadProfile } from '../catalogue.js';
import { holderIdentity, type KeptFile } from '../engine/input.js';
import type { Mobilisations } from '../kinds/mobilisation.js';
import type { Renewals } from '../kinds/renewal.js';
import { Attachments, attachmentSlots } from './attachments.js';
import { errorsOf, type RowErrors, toBody, uploadCounts, worded } from './cells.js';
import { asVisit, identityKey } from './columns.js';
import { BulkSheets } from './sheets.js';
import { signature } from './workbook.js';

/** The most rows one upload takes, unless the environment's BULK_MAX_ROWS says otherwise. */
export const bulkMaxRows = () => Number(process.env.BULK_MAX_ROWS) || 10_000;
/** Rows a dry run checks at once on PostgreSQL. */
const DRY_RUN_CONCURRENCY = 4;
/** Rows stored per insert. */
const INSERT_BATCH = 200;
/**
 * Rows a job checks or processes in one transaction: a commit (a sync to disk) and the profile,
 * contract and parameter reads are shared by them. SQLite has one writer, which a set holds until
 * it commits: its sets are kept short, so the calls waiting on it (a gate's, a progress read) are
 * answered between two sets.
 */
const ROWS_PER_TRANSACTION: Readonly<Record<DialectName, number>> = { sqlite: 5, postgres: 20 };
/** Rows a job reads at once (with their PDFs), then writes a set at a time. */
const ROWS_PER_READ = 100;

/** A row's problems: by column key (`*` for the row as a whole), each a message key and its params. */

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

/** A stored row as its jobs read it. */
interface PendingRow {
  IdFila: number;
  Datos: string;
  Errores: string | null;
}

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
  ) {
    this.sheets = new BulkSheets(database, registry, crud, maxRows);
  }

  /** The profile, columns and template of an upload's file. */
  private readonly sheets: BulkSheets;

  private table(name: string): string {
    return this.registry.require(name).table;
  }

  private get db(): Db {
    return this.database.db;
  }

  /** Rows a job writes in one transaction. */
  private get setSize(): number {
    return ROWS_PER_TRANSACTION[this.database.dialect];
  }

  /** The requester requirements of a profile a requirement update may renew from a file. */
  requirements(requester: Requester, profileId: number): Promise<Row[]> {
    return this.sheets.requirements(requester, profileId);
  }

  /** excelformato: the template of a contract and profile, in the caller's language. */
  template(
    requester: Requester,
    contract: number,
    profileId: number,
    language: Language,
    requirement: number | null = null,
  ) {
    return this.sheets.template(requester, contract, profileId, language, requirement);
  }

  /** The header of each column of an upload's template in the caller's language, by key. */
  async headings(requester: Requester, code: unknown, language: Language): Promise<Map<string, string>> {
    return this.sheets.headings(requester, await this.find(this.db, requester, code), language);
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
    const filed = target.IdEntidad === 'P' ? asVisit(body) : body;
    if (target.IdRequisito === null) return this.requests.create(requester, filed, { trx, massCode, files });
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
  ): Promise<
    Upload &
      Awaited<ReturnType<typeof uploadCounts>> & { running: boolean; attached: number; unusedFiles: string[] }
  > {
    const requirement = input.requirement ?? null;
    const profile = await this.sheets.profile(requester, input.contract, input.profile, requirement);
    const columns = await this.sheets.readingColumns(requester, profile, requirement);
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
      ? await Attachments.open(input.attachments, attachmentSlots(this.sheets.scoped(profile, requirement)))
      : undefined;
    const base = requestBase(profile.IdEntidad, input.contract, input.profile, requirement);
    const code = `CM-${new Date().toISOString().slice(0, 10).replaceAll('-', '')}-${randomUUID().slice(0, 8).toUpperCase()}`;
    const firstOf = new Map<string, number>();
    const documentKey = profile.IdEntidad === 'V' ? 'Placa' : 'Documento';
    const prepared = sheet.rows.map(({ row, cells }) => {
      const { body, errors } = toBody(columns, cells, base);
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
    // Counted before the check begins, so that the answer waits for no set of the job on SQLite.
    const counts = await uploadCounts(this.db, this.registry, stored);
    // The rows are checked by a job: the caller follows it with progresomasivo.
    this.startCheck(requester, stored);
    return { ...stored, ...counts, running: true };
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

  /** What an upload's screen shows: the upload, its counts and whether a job is running now. */
  async progress(requester: Requester, code: unknown): Promise<Row> {
    const upload = await this.find(this.db, requester, code);
    this.resumeIfLeft(requester, upload);
    // A job runs only while the upload is being checked or processed: once its state has moved on,
    // this process's job is only letting go of its lease, and another's cannot have begun.
    const running =
      (upload.Estado === 'C' || upload.Estado === 'R') &&
      (this.jobs.has(upload.IdCargaMasiva) || (await this.leases.held(upload.IdCliente, jobName(upload))));
    return { ...upload, ...(await uploadCounts(this.db, this.registry, upload)), running };
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
        ...worded(r, language),
        Archivos: [...(files.get(r.IdFila as number)?.values() ?? [])].map((f) => f.name),
      })),
      total,
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
    const counts = await uploadCounts(this.db, this.registry, upload);
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
    const columns = await this.sheets.readingColumns(requester, profile, requirement);
    return {
      columns,
      keys: new Set(columns.map((c) => c.key)),
      base: requestBase(upload.IdEntidad, upload.IdContrato, upload.IdPerfilAcreditacion, requirement),
      target: { IdEntidad: upload.IdEntidad, IdContrato: upload.IdContrato, IdRequisito: requirement },
    };
  }

  /**
   * Runs `each` on an upload's rows in `state`, in order: read a hundred at a time with their kept
   * PDFs, then a set (`setSize`) at a time, `width` such sets at once, the event loop given a turn
   * between. `each` must
   * move its rows out of `state`. Answers false when it stopped before the end (the server is
   * closing, or the lease was lost to another process).
   */
  private async eachSet(
    upload: Upload,
    run: JobRun,
    state: 'P' | 'V',
    width: number,
    each: (rows: PendingRow[], files: Map<number, Map<number, KeptFile>>) => Promise<void>,
  ): Promise<boolean> {
    for (;;) {
      if (this.stopping || run.signal.aborted) return false;
      await yieldTurn();
      const batch = (await this.db
        .selectFrom(this.table('bulk-upload-row'))
        .select(['IdFila', 'Datos', 'Errores'])
        .where('IdCliente', '=', upload.IdCliente)
        .where('IdCargaMasiva', '=', upload.IdCargaMasiva)
        .where('Estado', '=', state)
        .orderBy('Fila')
        .limit(ROWS_PER_READ)
        .execute()) as PendingRow[];
      if (!batch.length) return true;
      const files = await this.keptFiles(
        upload,
        batch.map((r) => r.IdFila),
      );
      const sets: PendingRow[][] = [];
      for (let i = 0; i < batch.length; i += this.setSize) sets.push(batch.slice(i, i + this.setSize));
      for (let i = 0; i < sets.length; i += width) {
        if (i > 0 && (this.stopping || run.signal.aborted)) return false;
        await Promise.all(sets.slice(i, i + width).map((rows) => each(rows, files)));
      }
    }
  }

  /**
   * The dry run: the rows still to check (P), a set at a time in one transaction that reads the
   * profile, contract and parameters once (`keepingReads`): each row made as a single request would
   * be and rolled back to the savepoint before it, its errors (with those found when the file was
   * read) and its state (V or E) stored when the set commits. PostgreSQL checks a few sets at a time
   * on pooled connections; SQLite one.
   */
  private async runCheck(requester: Requester, upload: Upload, run: JobRun): Promise<boolean> {
    const context = await this.jobContext(requester, upload);
    const width = this.database.dialect === 'postgres' ? DRY_RUN_CONCURRENCY : 1;
    // Its rows are rolled back: the tables do not grow, their statistics are refreshed once.
    const statistics = this.statisticsOfGrown(Number.POSITIVE_INFINITY);
    return this.eachSet(upload, run, 'P', width, async (rows, files) => {
      await statistics.before(rows.length);
      await this.inSet(
        async (trx) => {
          const found = new Map<number, RowErrors>();
          await savepoint(trx);
          for (const row of rows) {
            await yieldTurn();
            const errors = await this.checkRow(trx, requester, upload, context, row, files.get(row.IdFila));
            await rollbackToSavepoint(trx);
            rowRolledBack();
            if (Object.keys(errors).length) found.set(row.IdFila, errors);
          }
          await releaseSavepoint(trx);
          await run.fence(trx);
          const good = rows.map((r) => r.IdFila).filter((id) => !found.has(id));
          await this.markRows(trx, good, 'P', 'V');
          await this.markFailed(trx, found, 'P', 'E');
        },
        { dryRun: true },
      );
      // After the commit: a test that kills the process here finds the rows before it checked.
      for (let i = 0; i < rows.length; i++) crashPoint('bulk.check');
    });
  }

  /**
   * A row made as a single request would be, in the set's transaction (the caller rolls it back):
   * its errors, with those found when the file was read.
   */
  private async checkRow(
    trx: Db,
    requester: Requester,
    upload: Upload,
    { columns, keys, base, target }: Awaited<ReturnType<BulkService['jobContext']>>,
    row: PendingRow,
    files?: ReadonlyMap<number, KeptFile>,
  ): Promise<RowErrors> {
    const read = toBody(columns, JSON.parse(row.Datos), base);
    const errors: RowErrors = { ...(row.Errores ? (JSON.parse(row.Errores) as RowErrors) : {}) };
    for (const [key, problem] of Object.entries(read.errors)) errors[key] ??= problem;
    try {
      await this.make(requester, target, trx, read.body, upload.CodigoCargaMasiva, files);
    } catch (error) {
      for (const [key, problem] of Object.entries(errorsOf(error, keys))) errors[key] ??= problem;
    }
    return errors;
  }

  /** Moves the rows `ids` from `from` to `to` in one statement, their errors cleared. */
  private async markRows(trx: Db, ids: number[], from: string, to: string): Promise<void> {
    if (ids.length)
      await trx
        .updateTable(this.table('bulk-upload-row'))
        .set({ Estado: to, Errores: null })
        .where('IdFila', 'in', ids)
        .where('Estado', '=', from)
        .execute();
  }

  /** Moves each row of `errors` from `from` to `to`, storing its own errors. */
  private async markFailed(
    trx: Db,
    errors: ReadonlyMap<number, RowErrors>,
    from: string,
    to: string,
  ): Promise<void> {
    for (const [id, problems] of errors)
      await trx
        .updateTable(this.table('bulk-upload-row'))
        .set({ Estado: to, Errores: JSON.stringify(problems) })
        .where('IdFila', '=', id)
        .where('Estado', '=', from)
        .execute();
  }

  /**
   * The processing: the valid rows, in order, a set at a time in one transaction that claims them
   * (V to S: a second job waits for this one and then finds them taken) and reads the profile,
   * contract and parameters once (`keepingReads`). Each row is made a request after a savepoint;
   * one that no longer holds (another request was made meanwhile, the contract ended…) is rolled
   * back to it and stored failed (F) with its errors.
   */
  private async runJob(requester: Requester, upload: Upload, run: JobRun): Promise<boolean> {
    const rowsTable = this.table('bulk-upload-row');
    const { columns, keys, base, target } = await this.jobContext(requester, upload);
    const statistics = this.statisticsOfGrown();
    return this.eachSet(upload, run, 'V', 1, async (rows, files) => {
      await statistics.before(rows.length);
      await this.inSet(async (trx) => {
        // Only while this process still holds the job: one presumed dead writes nothing more.
        await run.fence(trx);
        const claimed = (await trx
          .updateTable(rowsTable)
          .set({ Estado: 'S' })
          .where(
            'IdFila',
            'in',
            rows.map((r) => r.IdFila),
          )
          .where('Estado', '=', 'V')
          .returning('IdFila')
          .execute()) as Array<{ IdFila: number }>;
        const taken = new Set(claimed.map((c) => c.IdFila));
        const failed = new Map<number, RowErrors>();
        for (const row of rows.filter((r) => taken.has(r.IdFila))) {
          await yieldTurn();
          const { body } = toBody(columns, JSON.parse(row.Datos), base);
          await savepoint(trx);
          try {
            const made = await this.make(
              requester,
              target,
              trx,
              body,
              upload.CodigoCargaMasiva,
              files.get(row.IdFila),
            );
            await trx
              .updateTable(rowsTable)
              .set({ IdSolicitud: made.IdSolicitud as number })
              .where('IdFila', '=', row.IdFila)
              .execute();
            rowKept();
          } catch (error) {
            await rollbackToSavepoint(trx);
            rowRolledBack();
            failed.set(row.IdFila, errorsOf(error, keys));
          }
          await releaseSavepoint(trx);
          crashPoint('bulk.process');
        }
        await this.markFailed(trx, failed, 'S', 'F');
      });
    });
  }

  /**
   * `work` on a set of rows in one transaction that reads the profile, contract and parameters once
   * (`keepingReads`) and writes the counters its rows move once, last (`addLater`).
   */
  private inSet(work: (trx: Db) => Promise<void>, options: { dryRun?: boolean } = {}): Promise<void> {
    return keepingReads(
      () =>
        this.db.transaction().execute(async (trx) => {
          addingLaterOn(trx);
          await work(trx);
          await writeAdditions();
        }),
      options,
    );
  }

  /** The statistics of the tables a job's requests grow, kept fresh as it writes (PostgreSQL). */
  private statisticsOfGrown(rowsPerRefresh?: number): FreshStatistics {
    const grown = ['request', 'request-detail', 'request-history', 'person', 'person-employment', 'vehicle'];
    return new FreshStatistics(
      this.database,
      grown.map((name) => this.table(name)),
      rowsPerRefresh,
    );
  }
}
