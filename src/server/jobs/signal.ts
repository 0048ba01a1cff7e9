/**
 * A wake-up call inside one server: what writes fires it once its transaction has committed, what
 * derives from those writes listens and looks for work at once instead of at its next poll. A
 * listener that throws is the listener's own fault: the others are still called. Other processes
 * on the same database find the work at their poll.
 */
export class Signal {
  private readonly listeners = new Set<() => void>();

  /** Calls `listener` on each fire; answers how to stop. */
  on(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  fire(): void {
    for (const listener of this.listeners)
      try {
        listener();
      } catch {
        // the listener's own fault; the others still hear
      }
  }
}
