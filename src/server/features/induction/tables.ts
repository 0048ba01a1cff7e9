import type { Registry } from '../../registry.js';

/** The Inductions module's tables, and those of other areas its queries read, by the registry. */
export function inductionTables(registry: Registry) {
  const t = (name: string) => registry.require(name).table;
  return {
    course: t('course'),
    question: t('course-question'),
    session: t('training-session'),
    booking: t('training-booking'),
    record: t('induction-record'),
    person: t('person'),
    company: t('company'),
    user: t('user'),
    accreditation: t('accreditation'),
    request: t('request'),
    bulkRow: t('bulk-upload-row'),
    credential: t('credential'),
  };
}

export type InductionTables = ReturnType<typeof inductionTables>;

export type Row = Record<string, unknown>;

/** Rows read a chunk of keys at a time (long lists stay within the drivers' parameter limits). */
export async function inChunks<K, T>(keys: readonly K[], read: (chunk: K[]) => Promise<T[]>, size = 500) {
  const out: T[] = [];
  for (let i = 0; i < keys.length; i += size) out.push(...(await read(keys.slice(i, i + size))));
  return out;
}

export const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
export const day = (v: unknown): string => text(v).slice(0, 10);
