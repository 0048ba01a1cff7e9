/** A code read again within this time shows its answer again and marks nothing (a badge held still). */
export const REPEAT_MS = 60_000;

/**
 * The codes read lately and what each showed: the camera reads a badge held still several times a
 * second, and each read after the first is a repeat, not a new passage.
 */
export class RecentReads<T> {
  private readonly reads = new Map<string, { at: number; shown?: T }>();

  /**
   * A read of `key` at `at` (ms): from the camera within the window of an earlier read, a repeat,
   * answered with what that one showed (nothing while it is still being decided); otherwise the
   * read is noted, the reads older than the window forgotten, and nothing answered.
   */
  repeat(key: string, at: number, fromCamera: boolean): { shown?: T } | undefined {
    const before = this.reads.get(key);
    if (fromCamera && before && at - before.at < REPEAT_MS) return before;
    for (const [seen, entry] of this.reads) if (at - entry.at >= REPEAT_MS) this.reads.delete(seen);
    this.reads.set(key, { at });
    return undefined;
  }

  /** What the read of `key` at `at` showed, once decided. */
  decided(key: string, at: number, shown: T): void {
    this.reads.set(key, { at, shown });
  }

  clear(): void {
    this.reads.clear();
  }
}
