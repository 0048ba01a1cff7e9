import { useCallback, useEffect, useRef, useState } from 'react';
import { type BusShown, boardAtDoor, type HeldManifest, takeManifest } from './bus.js';
import { readingOf } from './offline.js';
import { RecentReads } from './recent.js';
import { type Enrolled, store } from './store.js';
import type { SyncProblem } from './sync.js';

/**
 * The door of a bus: the manifest this device holds (read once from its store), the last answer,
 * and the reads decided with no network; a read waits to be sent (`onMarked`).
 */
export function useBusDoor(device: Enrolled | undefined, onMarked: () => void) {
  const [held, setHeld] = useState<HeldManifest>();
  const [shown, setShown] = useState<BusShown>();
  const reads = useRef(new RecentReads<BusShown>());

  useEffect(() => {
    store.manifest().then(setHeld);
  }, []);

  /** Takes a trip's manifest from the server (a network is needed once). */
  const take = useCallback(
    async (tripId: number): Promise<SyncProblem | undefined> => {
      if (!device) return undefined;
      const { held: next, problem } = await takeManifest(device, tripId);
      if (next) {
        setHeld(next);
        setShown(undefined);
        reads.current.clear();
      }
      return problem;
    },
    [device],
  );

  /** A badge or card number read at the door (the camera reads a badge held still many times: one counts). */
  const judge = useCallback(
    async (text: string, fromCamera: boolean, exception?: string) => {
      if (!device || !held) return;
      const reading = readingOf(text);
      if (!reading) return;
      const at = new Date();
      const key = text.trim();
      const before = exception ? undefined : reads.current.repeat(key, at.getTime(), fromCamera);
      if (before) {
        if (before.shown) setShown(before.shown);
        return;
      }
      const done = await boardAtDoor(device, held, reading, at, exception);
      reads.current.decided(key, at.getTime(), done.shown);
      setHeld(done.held);
      setShown(done.shown);
      onMarked();
    },
    [device, held, onMarked],
  );

  /** Boards the last person read, not booked, as an exception with the guard's reason. */
  const except = useCallback(
    async (reason: string) => {
      if (shown?.card) await judge(shown.card, false, reason);
    },
    [shown, judge],
  );

  return { held, shown, take, judge, except, clear: () => reads.current.clear() };
}
