import type { FastifyRequest } from 'fastify';
import { isSensitive, MASKED_KEY, type SensitiveClass } from '../../shared/data-classes.js';
import { TOKEN_HEADERS } from '../../shared/session.js';
import type { ApiRecord, Row } from '../crud/types.js';
import type { Db } from '../db/connection.js';
import type { Principal } from '../principal.js';
import type { Entity, Registry } from '../registry.js';

/** The entity whose records are the access log of sensitive data. */
export const ACCESS_LOG_RESOURCE = 'sensitive-access';

/** Where a read came from: the call, and the console's screen when the console made it. */
export function readOrigin(request: FastifyRequest): string {
  const screen = request.headers[TOKEN_HEADERS.path];
  const call = `${request.method} ${request.routeOptions.url ?? request.url}`;
  return (typeof screen === 'string' && screen ? `${call} · ${screen}` : call).slice(0, 300);
}

/** The entity's sensitive fields the caller may not read. */
export function maskedFields(entity: Entity, principal: Principal): string[] {
  return entity.sensitive.filter((s) => !principal.sensitive?.has(s.dataClass)).map((s) => s.field);
}

/** The entity's sensitive fields the caller reads, with their classes. */
export function readableSensitive(
  entity: Entity,
  principal: Principal,
): Array<{ field: string; dataClass: SensitiveClass }> {
  return entity.sensitive.filter((s) => principal.sensitive?.has(s.dataClass));
}

/**
 * A list carries no health or criminal-record value, whoever asks (as it carries no picture): the
 * record's own page shows them to whom may read them, and the read is logged there.
 */
export function withoutSensitive(entity: Entity, records: ApiRecord[]): void {
  if (!entity.sensitive.length) return;
  for (const record of records) for (const { field } of entity.sensitive) delete record[field];
}

/**
 * The field of an entity's records that names the person they are about: a person's own key, or
 * `IdPersona`; none when its records name nobody.
 */
export function personKey(entity: Entity): string | undefined {
  const key = entity.name === 'person' ? entity.primaryKey : 'IdPersona';
  return Object.hasOwn(entity.schema.properties, key) ? key : undefined;
}

/** The person a record of the entity is about, when it names one. */
function personOf(entity: Entity, record: Row): number | null {
  const key = personKey(entity);
  const id = key ? record[key] : null;
  return typeof id === 'number' ? id : null;
}

/** One access-log row per sensitive value read, not yet written. */
export interface SensitiveRead {
  entity: Entity;
  record: Row;
  field: string;
  dataClass: SensitiveClass;
  /** Whom the value is about, when the record does not say (a request line's worker). */
  person?: number | null;
}

/**
 * The reads of these records' sensitive values of the given fields (those the caller may read):
 * one a field that holds a value, about `person` when the records do not say.
 */
export function readsOf(
  entity: Entity,
  records: Row[],
  fields: ReadonlyArray<{ field: string; dataClass: SensitiveClass }>,
  person?: number | null,
): SensitiveRead[] {
  const reads: SensitiveRead[] = [];
  for (const record of records)
    for (const { field, dataClass } of fields)
      if (record[field] !== null && record[field] !== undefined)
        reads.push({ entity, record, field, dataClass, person });
  return reads;
}

/**
 * Records as the caller may read them: a sensitive field the caller's data-protection settings do
 * not allow is sent empty, and every masked field is named under `$masked` (held or not: an empty
 * one would tell that the others hold a value). A write's answer is masked so, unlogged: it sends
 * back what its author sent.
 */
export function maskSensitive(entity: Entity, records: ApiRecord[], principal: Principal): void {
  const masked = maskedFields(entity, principal);
  if (!masked.length) return;
  for (const record of records) {
    for (const field of masked) record[field] = null;
    record[MASKED_KEY] = masked;
  }
}

/**
 * Answers records read as the caller may read them (`maskSensitive`), and records in the access log
 * every sensitive value it does read, in one statement for the whole answer.
 */
export async function answerSensitive(
  db: Db,
  registry: Registry,
  entity: Entity,
  records: ApiRecord[],
  principal: Principal,
  origin: string,
): Promise<void> {
  if (!entity.sensitive.length) return;
  maskSensitive(entity, records, principal);
  await logSensitiveReads(
    db,
    registry,
    readsOf(entity, records, readableSensitive(entity, principal)),
    principal,
    origin,
  );
}

/** Writes the access log's rows for what the caller read (nothing when it read none). */
export async function logSensitiveReads(
  db: Db,
  registry: Registry,
  reads: SensitiveRead[],
  principal: Principal,
  origin: string,
): Promise<void> {
  if (!reads.length) return;
  const log = registry.require(ACCESS_LOG_RESOURCE);
  const now = new Date().toISOString();
  const rows = reads.map(({ entity, record, field, dataClass, person }) => ({
    IdCliente: principal.clientId ?? null,
    Fecha: now,
    IdUsuario: principal.userId,
    IdPerfil: principal.profileId ?? null,
    IdPersona: person === undefined ? personOf(entity, record) : person,
    Recurso: entity.name,
    IdRegistro: String(record[entity.primaryKey]),
    Campo: field,
    ClaseDato: dataClass,
    Origen: origin,
    IdUsuarioCreacion: principal.userId,
    FechaCreacion: now,
  }));
  // SQLite binds at most 32 766 values a statement: 12 columns, some 2 700 rows.
  for (let i = 0; i < rows.length; i += 2_000)
    await db
      .insertInto(log.table)
      .values(rows.slice(i, i + 2_000))
      .execute();
}

/**
 * The batches of an export, passed on as they come, with the access log's rows for the sensitive
 * values each carries (the export's columns leave out those the caller may not read).
 */
export async function* loggedBatches(
  db: Db,
  registry: Registry,
  entity: Entity,
  principal: Principal,
  origin: string,
  batches: AsyncIterable<Row[]>,
): AsyncGenerator<Row[]> {
  const readable = readableSensitive(entity, principal);
  for await (const rows of batches) {
    await logSensitiveReads(db, registry, readsOf(entity, rows, readable), principal, origin);
    yield rows;
  }
}

/**
 * Rows whose sensitivity each row says (`ClaseDato`: a requirement's class on the values a person
 * holds), as the caller may read them: the `fields` of a class the caller may not read come empty
 * and the row says `Protegido: <class>`; those it may read are logged, about the row's `IdPersona`.
 */
export async function answerByRowClass(
  db: Db,
  registry: Registry,
  entity: Entity,
  rows: Row[],
  fields: readonly string[],
  principal: Principal,
  origin: string,
): Promise<Row[]> {
  const reads: SensitiveRead[] = [];
  for (const row of rows) {
    const dataClass = row.ClaseDato;
    delete row.ClaseDato;
    row.Protegido = null;
    if (!isSensitive(dataClass as string)) continue;
    const sensitive = dataClass as SensitiveClass;
    if (!principal.sensitive?.has(sensitive)) {
      for (const field of fields) row[field] = null;
      row.Protegido = sensitive;
      continue;
    }
    const person = typeof row.IdPersona === 'number' ? row.IdPersona : null;
    reads.push(
      ...readsOf(
        entity,
        [row],
        fields.map((field) => ({ field, dataClass: sensitive })),
        person,
      ),
    );
  }
  await logSensitiveReads(db, registry, reads, principal, origin);
  return rows;
}
