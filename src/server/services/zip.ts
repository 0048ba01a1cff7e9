/**
 * A zip on disk, opened by its central directory: the entries' names and sizes without inflating
 * anything, then each entry inflated on its own and never beyond the size it declares. Used for
 * uploaded workbooks and for the zip of a bulk upload's attachments.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline, Readable, Transform } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { ApiError } from '../errors.js';

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  /** Where the entry's data starts in the file. */
  start: number;
  /** Encrypted with a password (general purpose flag, bit 0). */
  encrypted: boolean;
}

/** The errors a zip's reader raises, in the words of its caller. */
export interface ZipRefusals {
  corrupt: () => ApiError;
  tooLarge: () => ApiError;
}

/** The first bytes of a file: a zip starts with PK\3\4. */
export async function headOf(path: string, length = 8): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(length);
    const { bytesRead } = await handle.read(head, 0, length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export const isZip = (head: Buffer) => head.length >= 4 && head.readUInt32LE(0) === 0x04034b50;

/**
 * The zip's entries, from its central directory. A zip bomb is refused before anything is
 * inflated: the uncompressed sizes must add up to at most `limit` bytes (an entry too large for
 * 32 bits counts as too large), no entry may inflate beyond the size it declares, and no two
 * entries may share their bytes (many names pointing at one large entry would inflate it once
 * per name): a zip whose entries overlap is refused as damaged, as no zip tool writes one.
 */
export async function zipEntries(
  path: string,
  limit: number,
  refuse: ZipRefusals,
): Promise<Map<string, ZipEntry>> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const tailLength = Math.min(size, 65_557);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
    let end = -1;
    for (let i = tailLength - 22; i >= 0; i--)
      if (tail.readUInt32LE(i) === 0x06054b50) {
        end = i;
        break;
      }
    if (end < 0) throw refuse.corrupt();
    const count = tail.readUInt16LE(end + 10);
    const directorySize = tail.readUInt32LE(end + 12);
    const directoryOffset = tail.readUInt32LE(end + 16);
    if (directoryOffset + directorySize > size) throw refuse.corrupt();
    const directory = Buffer.alloc(directorySize);
    await handle.read(directory, 0, directorySize, directoryOffset);
    const entries = new Map<string, ZipEntry>();
    const local = Buffer.alloc(30);
    let total = 0;
    let at = 0;
    const spans: Array<[number, number]> = [];
    for (let n = 0; n < count; n++) {
      if (at + 46 > directory.length || directory.readUInt32LE(at) !== 0x02014b50) throw refuse.corrupt();
      const uncompressed = directory.readUInt32LE(at + 24);
      total += uncompressed === 0xffffffff ? Number.POSITIVE_INFINITY : uncompressed;
      if (total > limit) throw refuse.tooLarge();
      const nameLength = directory.readUInt16LE(at + 28);
      const offset = directory.readUInt32LE(at + 42);
      const name = directory.toString('utf8', at + 46, at + 46 + nameLength);
      const { bytesRead } = await handle.read(local, 0, 30, offset);
      if (bytesRead < 30 || local.readUInt32LE(0) !== 0x04034b50) throw refuse.corrupt();
      const entry: ZipEntry = {
        name,
        method: directory.readUInt16LE(at + 10),
        compressedSize: directory.readUInt32LE(at + 20),
        size: uncompressed,
        start: offset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28),
        encrypted: (directory.readUInt16LE(at + 8) & 1) === 1,
      };
      if (entry.start + entry.compressedSize > size) throw refuse.corrupt();
      spans.push([offset, entry.start + entry.compressedSize]);
      entries.set(name.replace(/^\/+/, ''), entry);
      at += 46 + nameLength + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
    }
    spans.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) if (spans[i][0] < spans[i - 1][1]) throw refuse.corrupt();
    return entries;
  } finally {
    await handle.close();
  }
}

/** A pass-through stream that fails with `tooLarge()` once more than `limit` bytes went through it. */
export function byteLimit(limit: number, tooLarge: () => Error): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > limit ? tooLarge() : null, chunk);
    },
  });
}

/** An entry's inflated bytes as a stream that fails if they outgrow the size the directory declares. */
export function entryStream(path: string, entry: ZipEntry, refuse: ZipRefusals): Readable {
  if (entry.encrypted || (entry.method !== 0 && entry.method !== 8)) throw refuse.corrupt();
  if (entry.compressedSize === 0) return Readable.from([]);
  const within = byteLimit(entry.size, refuse.tooLarge);
  const raw = createReadStream(path, { start: entry.start, end: entry.start + entry.compressedSize - 1 });
  const done = () => {};
  return entry.method === 8 ? pipeline(raw, createInflateRaw(), within, done) : pipeline(raw, within, done);
}

/** An entry's inflated bytes (at most the size it declares; more is refused as too large). */
export async function entryBytes(path: string, entry: ZipEntry, refuse: ZipRefusals): Promise<Buffer> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of entryStream(path, entry, refuse)) chunks.push(chunk as Buffer);
  } catch (error) {
    throw error instanceof ApiError ? error : refuse.corrupt();
  }
  return Buffer.concat(chunks);
}
