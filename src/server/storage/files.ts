import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database, Db } from '../db/connection.js';

/**
 * Where attachments and photos live. Files are content-addressed: the key is the SHA-256 of the
 * bytes, so the same document uploaded twice is kept once and a key always names the same bytes.
 * On SQLite the files are on disk (DATA_DIR/files), written before the row that names them
 * commits; on PostgreSQL they are in the database (`PostgresFileStore`), written in the
 * transaction that names them when one is given, so every server process on the database reads
 * them. A file no row names (its record deleted, a write outside the naming transaction rolled
 * back) is an orphan that `sweepOrphans` removes later.
 */
export interface FileStore {
  /** Keeps the bytes (if not kept already) and answers their key; in `within`, when given and the store is the database. */
  put(bytes: Uint8Array, within?: Db): Promise<string>;
  get(key: string): Promise<Buffer | undefined>;
  /** The bytes in pieces, without holding the whole file; undefined when no such file. */
  stream(key: string): Promise<AsyncIterable<Uint8Array> | undefined>;
  delete(key: string): Promise<void>;
  /** Every key kept, with when it was written (epoch ms). */
  list(): AsyncIterable<{ key: string; written: number }>;
}

const KEY = /^[0-9a-f]{64}$/;

export function fileKey(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Files in a folder, two levels deep by the key's first characters: <root>/ab/cd/<key>. */
export class DiskFileStore implements FileStore {
  constructor(private readonly root: string) {}

  private path(key: string): string {
    if (!KEY.test(key)) throw new Error(`not a file key: ${key.slice(0, 80)}`);
    return join(this.root, key.slice(0, 2), key.slice(2, 4), key);
  }

  async put(bytes: Uint8Array): Promise<string> {
    const key = fileKey(bytes);
    const path = this.path(key);
    try {
      await stat(path);
      return key;
    } catch {
      // not kept yet
    }
    await mkdir(join(this.root, key.slice(0, 2), key.slice(2, 4)), { recursive: true });
    // Written whole under another name, then renamed: a reader never sees half a file.
    const partial = `${path}.${randomUUID()}.part`;
    await writeFile(partial, bytes, { flush: true });
    await rename(partial, path);
    return key;
  }

  async get(key: string): Promise<Buffer | undefined> {
    if (!KEY.test(key)) return undefined;
    try {
      return await readFile(this.path(key));
    } catch {
      return undefined;
    }
  }

  async stream(key: string): Promise<AsyncIterable<Uint8Array> | undefined> {
    if (!KEY.test(key)) return undefined;
    const path = this.path(key);
    if (!(await stat(path).catch(() => undefined))) return undefined;
    return createReadStream(path);
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async *list(): AsyncIterable<{ key: string; written: number }> {
    const dirs = async (path: string) => {
      try {
        return await readdir(path);
      } catch {
        return [];
      }
    };
    for (const a of await dirs(this.root))
      for (const b of await dirs(join(this.root, a)))
        for (const name of await dirs(join(this.root, a, b))) {
          if (!KEY.test(name)) continue;
          const info = await stat(join(this.root, a, b, name)).catch(() => undefined);
          if (info) yield { key: name, written: info.mtimeMs };
        }
  }
}

/** The database store's tables: a file's key, size and parts, and the parts' bytes. */
export const FILE_TABLES = { file: 'system_file', part: 'system_file_part' } as const;
/** A part's size: a file is read and written a quarter of a megabyte at a time. */
const PART_BYTES = 256 * 1024;

/** Creates the database store's tables when missing (PostgreSQL only; SQLite keeps files on disk). */
export async function ensureFileTables(database: Database): Promise<void> {
  if (database.dialect !== 'postgres') return;
  const { db } = database;
  await db.schema
    .createTable(FILE_TABLES.file)
    .ifNotExists()
    .addColumn('Clave', 'text', (c) => c.primaryKey())
    .addColumn('Tamano', 'bigint', (c) => c.notNull())
    .addColumn('Partes', 'integer', (c) => c.notNull())
    .addColumn('CreadoEn', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable(FILE_TABLES.part)
    .ifNotExists()
    .addColumn('Clave', 'text', (c) =>
      c.notNull().references(`${FILE_TABLES.file}.Clave`).onDelete('cascade'),
    )
    .addColumn('Parte', 'integer', (c) => c.notNull())
    .addColumn('Datos', 'bytea', (c) => c.notNull())
    .addPrimaryKeyConstraint(`${FILE_TABLES.part}_pk`, ['Clave', 'Parte'])
    .execute();
}

/**
 * Files in PostgreSQL, content-addressed like the disk store, in parts of 256 KB: written in the
 * caller's transaction when one is given (the file commits, or not, with the row that names it),
 * read a part at a time. Two writers of the same bytes meet on the key's primary key: the second
 * waits for the first and keeps nothing twice.
 */
export class PostgresFileStore implements FileStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  async put(bytes: Uint8Array, within?: Db): Promise<string> {
    const key = fileKey(bytes);
    const write = async (trx: Db) => {
      const created = await trx
        .insertInto(FILE_TABLES.file)
        .values({
          Clave: key,
          Tamano: bytes.length,
          Partes: Math.ceil(bytes.length / PART_BYTES),
          CreadoEn: this.now(),
        })
        .onConflict((oc) => oc.column('Clave').doNothing())
        .executeTakeFirst();
      if (Number(created.numInsertedOrUpdatedRows ?? 0) === 0) return;
      for (let part = 0; part * PART_BYTES < bytes.length; part++)
        await trx
          .insertInto(FILE_TABLES.part)
          .values({
            Clave: key,
            Parte: part,
            Datos: Buffer.from(
              bytes.buffer,
              bytes.byteOffset + part * PART_BYTES,
              Math.min(PART_BYTES, bytes.length - part * PART_BYTES),
            ),
          })
          .execute();
    };
    if (within) await write(within);
    else await this.db.transaction().execute(write);
    return key;
  }

  /** How many parts a kept file has; undefined when there is no such file. */
  private async partsOf(key: string): Promise<{ Partes: number } | undefined> {
    if (!KEY.test(key)) return undefined;
    return (await this.db
      .selectFrom(FILE_TABLES.file)
      .select('Partes')
      .where('Clave', '=', key)
      .executeTakeFirst()) as { Partes: number } | undefined;
  }

  async stream(key: string): Promise<AsyncIterable<Uint8Array> | undefined> {
    const found = await this.partsOf(key);
    if (!found) return undefined;
    const db = this.db;
    return (async function* () {
      for (let part = 0; part < Number(found.Partes); part++) {
        const row = (await db
          .selectFrom(FILE_TABLES.part)
          .select('Datos')
          .where('Clave', '=', key)
          .where('Parte', '=', part)
          .executeTakeFirst()) as { Datos: Buffer } | undefined;
        if (!row) throw new Error(`file ${key} is missing its part ${part}`);
        yield row.Datos;
      }
    })();
  }

  async get(key: string): Promise<Buffer | undefined> {
    const parts = await this.stream(key);
    if (!parts) return undefined;
    const chunks: Uint8Array[] = [];
    for await (const chunk of parts) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  async delete(key: string): Promise<void> {
    await this.db.deleteFrom(FILE_TABLES.file).where('Clave', '=', key).execute();
  }

  async *list(): AsyncIterable<{ key: string; written: number }> {
    let after = '';
    for (;;) {
      const rows = (await this.db
        .selectFrom(FILE_TABLES.file)
        .select(['Clave', 'CreadoEn'])
        .where('Clave', '>', after)
        .orderBy('Clave')
        .limit(1000)
        .execute()) as Array<{ Clave: string; CreadoEn: number | string }>;
      for (const row of rows) yield { key: row.Clave, written: Number(row.CreadoEn) };
      if (rows.length < 1000) return;
      after = rows[rows.length - 1]?.Clave as string;
    }
  }
}

/** The store a database keeps its files in: PostgreSQL's own tables, or a folder beside SQLite's file. */
export function fileStoreFor(database: Database, folder: string): FileStore {
  return database.dialect === 'postgres' ? new PostgresFileStore(database.db) : new DiskFileStore(folder);
}

/**
 * Removes the files no record names. A file younger than `graceMs` is left alone: its row may
 * still be on its way to a commit. `referenced` answers which of the given keys rows name.
 */
export async function sweepOrphans(
  store: FileStore,
  referenced: (keys: string[]) => Promise<Set<string>>,
  { graceMs = 3_600_000, now = Date.now(), batch = 500 } = {},
): Promise<{ kept: number; removed: number }> {
  let kept = 0;
  let removed = 0;
  let pending: string[] = [];
  const flush = async () => {
    const named = await referenced(pending);
    for (const key of pending) {
      if (named.has(key)) kept++;
      else {
        await store.delete(key);
        removed++;
      }
    }
    pending = [];
  };
  for await (const { key, written } of store.list()) {
    if (now - written < graceMs) {
      kept++;
      continue;
    }
    pending.push(key);
    if (pending.length >= batch) await flush();
  }
  if (pending.length) await flush();
  return { kept, removed };
}
