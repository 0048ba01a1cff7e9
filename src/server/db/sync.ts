import { createHash } from 'node:crypto';
import { type ColumnDataType, type CreateTableBuilder, sql } from 'kysely';
import type { UniqueWhen } from '../../shared/schema/types.js';
import type { Entity, Link, Registry } from '../registry.js';
import type { Database, DialectName } from './connection.js';

export interface SyncReport {
  createdTables: string[];
  addedColumns: string[];
  /** Columns made NOT NULL by an earlier schema whose field is no longer required: now nullable. */
  relaxedColumns: string[];
  createdIndexes: number;
  /**
   * Partial unique indexes (x-uniqueWhen) the rows already stored break: not made, named with
   * why; the services' own checks still refuse new duplicates, and the next start tries again.
   */
  refusedIndexes: Array<{ index: string; reason: string }>;
}

const AUDIT_COLUMNS: Array<[string, 'user' | 'instant']> = [
  ['IdUsuarioCreacion', 'user'],
  ['FechaCreacion', 'instant'],
  ['IdUsuarioModificacion', 'user'],
  ['FechaModificacion', 'instant'],
];

/** The columns of an entity's table: its properties (sets of references live apart), then the audit columns. */
export function columnsOf(entity: Entity): string[] {
  return [
    ...Object.keys(entity.schema.properties).filter((f) => entity.schema.properties[f].type !== 'array'),
    ...AUDIT_COLUMNS.map(([name]) => name),
  ];
}

/** Type of a key column, for the link tables that hold its values. */
function keyType(target: Entity): ColumnDataType {
  return target.schema.properties[target.primaryKey].type === 'integer' ? 'integer' : 'text';
}

function columnType(entity: Entity, field: string, dialect: DialectName): ColumnDataType {
  const prop = entity.schema.properties[field];
  if (prop.type === 'integer') return 'integer';
  if (prop.type === 'number') return dialect === 'postgres' ? 'double precision' : 'real';
  if (dialect === 'postgres' && prop.format === 'date') return 'date';
  if (dialect === 'postgres' && prop.format === 'date-time') return 'timestamptz';
  return 'text';
}

function auditType(kind: 'user' | 'instant', dialect: DialectName): ColumnDataType {
  return kind === 'instant' && dialect === 'postgres' ? 'timestamptz' : 'text';
}

export function indexName(table: string, fields: string[], unique: boolean): string {
  const base = `${unique ? 'uq' : 'ix'}_${table}_${fields.join('_').toLowerCase()}`;
  if (base.length <= 60) return base;
  const hash = createHash('sha1').update(base).digest('hex').slice(0, 8);
  return `${base.slice(0, 51)}_${hash}`;
}

/** The name of a partial unique index: its table, its fields and a digest of its condition. */
export function uniqueWhenName(table: string, rule: UniqueWhen): string {
  const digest = createHash('sha1').update(JSON.stringify(rule.when)).digest('hex').slice(0, 6);
  return indexName(table, [...rule.fields, `w${digest}`], true);
}

const UNIQUE_VIOLATIONS = new Set(['23505', 'SQLITE_CONSTRAINT_UNIQUE']);

/**
 * Sets of columns worth an index: references, filters, sort keys and declared composites. Every
 * query of a scoped entity says its client (and division), so those lead each index of a filter or
 * a sort key: a count or an ordered page is then answered from the index alone. A reference leads
 * its own, the scope after it: a list that filters by it says both (equalities, in any order), and
 * a delete of the record it points at asks by the reference alone (whether it is still used, the
 * rows that go with it).
 */
function indexSets(entity: Entity): string[][] {
  const scope = [entity.scope.client, entity.scope.division, entity.scope.user].filter((f): f is string =>
    Boolean(f),
  );
  const references = new Set(entity.references.filter((r) => !r.many).map((r) => r.field));
  const singles = new Set<string>([...entity.filters, ...entity.sortable]);
  for (const field of [entity.primaryKey, ...scope, ...references]) singles.delete(field);
  references.delete(entity.primaryKey);
  const lead = (set: string[]) => [...scope, ...set.filter((f) => !scope.includes(f))];
  const sets = [
    ...(scope.length ? [scope] : []),
    ...[...references].map((f) => [f, ...scope.filter((s) => s !== f)]),
    ...[...singles].map((f) => lead([f])),
    ...entity.indexes.map(lead),
  ];
  const seen = new Set<string>();
  const arrays = new Set(entity.references.filter((r) => r.many).map((r) => r.field));
  return sets.filter((set) => {
    if (set.some((f) => arrays.has(f))) return false;
    const key = set.join(',');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Additive sync: creates missing tables, columns and indexes from the schemas. It never drops,
 * renames or retypes anything; those changes are explicit migrations (db/migrations).
 */
export async function syncSchema(database: Database, registry: Registry): Promise<SyncReport> {
  const { db, dialect } = database;
  const report: SyncReport = {
    createdTables: [],
    addedColumns: [],
    relaxedColumns: [],
    createdIndexes: 0,
    refusedIndexes: [],
  };
  const existing = new Map<string, Set<string>>();
  const notNull = new Map<string, Set<string>>();
  for (const table of await db.introspection.getTables()) {
    if (dialect === 'postgres' && table.schema !== 'public') continue;
    existing.set(table.name, new Set(table.columns.map((c) => c.name)));
    notNull.set(table.name, new Set(table.columns.filter((c) => !c.isNullable).map((c) => c.name)));
  }

  for (const entity of registry.inDependencyOrder()) {
    const have = existing.get(entity.table);
    if (!have) {
      await createTable(database, registry, entity);
      report.createdTables.push(entity.table);
    } else {
      for (const column of columnsOf(entity)) {
        if (have.has(column)) continue;
        await addColumn(database, registry, entity, column);
        report.addedColumns.push(`${entity.table}.${column}`);
      }
      const required = new Set(entity.schema.required ?? []);
      const loose = [...(notNull.get(entity.table) ?? [])].filter(
        (column) =>
          column !== entity.primaryKey &&
          Object.hasOwn(entity.schema.properties, column) &&
          !required.has(column),
      );
      if (loose.length) {
        await relaxColumns(database, entity.table, loose);
        report.relaxedColumns.push(...loose.map((column) => `${entity.table}.${column}`));
      }
    }
    for (const fields of entity.unique) {
      await db.schema
        .createIndex(indexName(entity.table, fields, true))
        .ifNotExists()
        .on(entity.table)
        .columns(fields)
        .unique()
        .execute();
      report.createdIndexes++;
    }
    for (const rule of entity.uniqueWhen) {
      const name = uniqueWhenName(entity.table, rule);
      let builder = db.schema.createIndex(name).ifNotExists().on(entity.table).columns(rule.fields).unique();
      for (const [field, values] of Object.entries(rule.when))
        builder = builder.where(sql.ref(field), 'in', values);
      try {
        await builder.execute();
        report.createdIndexes++;
      } catch (error) {
        // Rows written before the index existed (two open requests of one holder, say) stop it.
        if (!UNIQUE_VIOLATIONS.has(String((error as { code?: unknown }).code))) throw error;
        report.refusedIndexes.push({ index: name, reason: (error as Error).message });
      }
    }
    for (const fields of indexSets(entity)) {
      await db.schema
        .createIndex(indexName(entity.table, fields, false))
        .ifNotExists()
        .on(entity.table)
        .columns(fields)
        .execute();
      report.createdIndexes++;
    }
    for (const ref of entity.references) {
      if (!ref.many || existing.has(ref.many.table)) continue;
      await createLinkTable(database, registry, entity, ref.target, ref.many);
      report.createdTables.push(ref.many.table);
    }
  }
  return report;
}

/**
 * Drops NOT NULL from columns whose field a schema no longer requires (a credential that became a
 * person's or a vehicle's: its person column may now be empty). PostgreSQL alters the column;
 * SQLite cannot, so its table is rebuilt the way SQLite's documentation prescribes: a copy made
 * from the table's own definition without those NOT NULLs, the rows copied, the old one dropped,
 * the copy renamed and the indexes remade, in one transaction with foreign keys off meanwhile.
 */
async function relaxColumns(database: Database, table: string, columns: string[]): Promise<void> {
  const { db, dialect } = database;
  if (dialect === 'postgres') {
    await db.transaction().execute(async (trx) => {
      for (const column of columns)
        await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} drop not null`.execute(trx);
    });
    return;
  }
  const definition = await sql<{ type: string; sql: string | null }>`
    select type, sql from sqlite_master where tbl_name = ${table} and sql is not null`.execute(db);
  const create = definition.rows.find((r) => r.type === 'table')?.sql;
  if (!create) return;
  let relaxed = create;
  for (const column of columns) {
    const pattern = new RegExp(`("${column}"\\s+\\w+(?:\\s+precision)?)\\s+not null`, 'i');
    if (!pattern.test(relaxed)) throw new Error(`cannot find ${table}.${column} NOT NULL in its definition`);
    relaxed = relaxed.replace(pattern, '$1');
  }
  const copy = `${table}__relaxed`;
  relaxed = relaxed.replace(/^CREATE TABLE\s+("[^"]+"|\S+)/i, `CREATE TABLE "${copy}"`);
  const indexes = definition.rows.filter((r) => r.type === 'index').map((r) => String(r.sql));
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await sql.raw(relaxed).execute(trx);
      await sql`insert into ${sql.table(copy)} select * from ${sql.table(table)}`.execute(trx);
      await sql`drop table ${sql.table(table)}`.execute(trx);
      await sql`alter table ${sql.table(copy)} rename to ${sql.table(table)}`.execute(trx);
      for (const index of indexes) await sql.raw(index).execute(trx);
      const broken = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.rows.length) throw new Error(`rebuilding ${table} broke foreign keys`);
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

/** The link table of a set of references: (owner, value) pairs, gone with their owner. */
async function createLinkTable(
  database: Database,
  registry: Registry,
  entity: Entity,
  targetName: string,
  link: Link,
): Promise<void> {
  const target = registry.require(targetName);
  await database.db.schema
    .createTable(link.table)
    .addColumn(link.owner, keyType(entity), (col) =>
      col.notNull().references(`${entity.table}.${entity.primaryKey}`).onDelete('cascade'),
    )
    .addColumn(link.value, keyType(target), (col) =>
      col.notNull().references(`${target.table}.${target.primaryKey}`),
    )
    .addPrimaryKeyConstraint(indexName(link.table, [link.owner, link.value], true), [link.owner, link.value])
    .execute();
  await database.db.schema
    .createIndex(indexName(link.table, [link.value], false))
    .on(link.table)
    .column(link.value)
    .execute();
}

async function createTable(database: Database, registry: Registry, entity: Entity): Promise<void> {
  const { db, dialect } = database;
  const required = new Set(entity.schema.required ?? []);
  // biome-ignore lint/suspicious/noExplicitAny: the builder's type grows with every column
  let builder: CreateTableBuilder<string, any> = db.schema.createTable(entity.table);
  for (const field of columnsOf(entity).filter((f) => Object.hasOwn(entity.schema.properties, f))) {
    const ref = entity.schema.properties[field]['x-ref'];
    builder = builder.addColumn(field, columnType(entity, field, dialect), (col) => {
      if (field === entity.primaryKey) {
        col = col.primaryKey();
        if (entity.generatedKey) {
          col = dialect === 'postgres' ? col.generatedByDefaultAsIdentity() : col.autoIncrement();
        }
        return col.notNull();
      }
      if (required.has(field)) col = col.notNull();
      if (ref) {
        const target = registry.require(ref.resource);
        col = col.references(`${target.table}.${target.primaryKey}`);
      }
      return col;
    });
  }
  for (const [name, kind] of AUDIT_COLUMNS) builder = builder.addColumn(name, auditType(kind, dialect));
  await builder.execute();
}

async function addColumn(
  database: Database,
  registry: Registry,
  entity: Entity,
  column: string,
): Promise<void> {
  const { db, dialect } = database;
  const audit = AUDIT_COLUMNS.find(([name]) => name === column);
  if (audit) {
    await db.schema.alterTable(entity.table).addColumn(column, auditType(audit[1], dialect)).execute();
    return;
  }
  const ref = entity.schema.properties[column]['x-ref'];
  // Added columns are nullable: rows that exist have no value for them yet.
  await db.schema
    .alterTable(entity.table)
    .addColumn(column, columnType(entity, column, dialect), (col) => {
      if (!ref) return col;
      const target = registry.require(ref.resource);
      return col.references(`${target.table}.${target.primaryKey}`);
    })
    .execute();
}
