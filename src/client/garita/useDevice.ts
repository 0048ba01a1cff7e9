import { useCallback, useEffect, useRef, useState } from 'react';
import { sendBoardings } from './bus.js';
import type { Problem } from './controls.js';
import type { ReaderData } from './dining.js';
import { type IndexedList, indexList } from './offline.js';
import { type Enrolled, type Mode, store } from './store.js';
import { refreshList, refreshReader, type SyncProblem, sendMarks, sendMeals } from './sync.js';
import type { Language } from './texts.js';

/** How often the app looks for a network to send markings waiting. */
const SYNC_MS = 20_000;
/** How often it asks for the list's changes while online (at once on reconnecting). */
const LIST_EVERY_MS = 5 * 60_000;

/**
 * What this device holds and keeps in step with the server: its enrolment, its control point's
 * list, the rooms it reads for, its mode and room, what waits to be sent, the network and the
 * last problem; read from the device's store once (`onLoaded` is told the enrolment and the
 * language kept), then synchronised every SYNC_MS while online and at once on reconnecting.
 */
export function useDevice(onLoaded: (held: Enrolled | undefined, language: Language | undefined) => void) {
  const [loaded, setLoaded] = useState(false);
  const [device, setDevice] = useState<Enrolled>();
  const [indexed, setIndexed] = useState<IndexedList>();
  const [pending, setPending] = useState(0);
  const [refused, setRefused] = useState(0);
  const [online, setOnline] = useState(navigator.onLine);
  const [problem, setProblem] = useState<Problem>();
  const [reader, setReader] = useState<ReaderData>();
  const [mode, setMode] = useState<Mode>('gate');
  const [roomId, setRoomId] = useState<number>();
  const [now, setNow] = useState(() => new Date());
  const syncing = useRef(false);
  const again = useRef<'list' | 'marks' | false>(false);
  const listAt = useRef(0);

  // What this device holds: its enrolment, its list, its language, its markings waiting (once).
  // biome-ignore lint/correctness/useExhaustiveDependencies: read from the store once, when the app opens
  useEffect(() => {
    (async () => {
      const [held, list, kept, count, aside, readerData, keptMode, keptRoom] = await Promise.all([
        store.enrolled(),
        store.list(),
        store.language(),
        store.pendingCount(),
        store.refusedCount(),
        store.setting<ReaderData>('reader'),
        store.setting<Mode>('mode'),
        store.setting<number>('room'),
      ]);
      setDevice(held);
      onLoaded(held, kept);
      setReader(readerData);
      if (keptMode) setMode(keptMode);
      setRoomId(keptRoom);
      if (list) setIndexed(indexList(list));
      setPending(count);
      setRefused(aside);
      setLoaded(true);
    })();
  }, []);

  /**
   * Asks for the list's changes (when due, or `refresh`) and sends the markings waiting. One at a
   * time: a call while one runs makes it go round once more, so no marking waits for the next tick.
   */
  const sync = useCallback(async (current: Enrolled | undefined, refresh = false) => {
    if (!current) return;
    if (syncing.current) {
      again.current = refresh ? 'list' : again.current || 'marks';
      return;
    }
    syncing.current = true;
    try {
      let due = refresh;
      do {
        due = due || again.current === 'list';
        again.current = false;
        let listProblem: SyncProblem | undefined;
        if (due || Date.now() - listAt.current >= LIST_EVERY_MS) {
          // The rooms it reads for (a dining room's reader), and its control point's list when it has one.
          const rooms = await refreshReader(current);
          if (rooms.data) setReader(rooms.data);
          const refreshed = current.controlPoints.length ? await refreshList(current) : {};
          listProblem = rooms.problem ?? refreshed.problem;
          if (refreshed.list) setIndexed(indexList(refreshed.list));
          if (!listProblem) listAt.current = Date.now();
        }
        due = false;
        const sent = await sendMarks(current);
        const served = await sendMeals(current);
        const boarded = await sendBoardings(current);
        setPending(await store.pendingCount());
        setRefused(await store.refusedCount());
        const problems = [listProblem, sent.problem, served.problem, boarded.problem];
        setProblem(
          problems.find((p): p is Exclude<SyncProblem, 'network'> => p !== undefined && p !== 'network'),
        );
        // A link that dropped while the calls were under way (their answers came before it did)
        // is off all the same: the browser's word wins over calls that happened to get through.
        setOnline(navigator.onLine && !problems.includes('network'));
      } while (again.current !== false);
    } finally {
      syncing.current = false;
    }
  }, []);

  useEffect(() => {
    if (!device) return;
    sync(device, true);
    const wake = () => {
      setOnline(navigator.onLine);
      if (navigator.onLine) sync(device, true);
    };
    window.addEventListener('online', wake);
    window.addEventListener('offline', wake);
    const timer = window.setInterval(() => {
      setNow(new Date());
      if (navigator.onLine) sync(device);
    }, SYNC_MS);
    return () => {
      window.removeEventListener('online', wake);
      window.removeEventListener('offline', wake);
      window.clearInterval(timer);
    };
  }, [device, sync]);

  /**
   * Serves `next` (or, with none, nothing: back to the enrolment screen): kept as this device's
   * enrolment, with no list until its point's is asked for; another enrolment asks again for the
   * rooms it reads for, its mode and its counts.
   */
  const serve = useCallback(
    async (next: Enrolled | undefined) => {
      await store.setEnrolled(next);
      await store.setList(undefined);
      setIndexed(undefined);
      if (next?.key !== device?.key) {
        for (const key of ['reader', 'mode', 'room', 'served'] as const)
          await store.setSetting(key, undefined);
        await store.setManifest(undefined);
        setReader(undefined);
        setMode(next?.controlPoints.length ? 'gate' : 'dining');
        setRoomId(undefined);
      }
      setDevice(next);
    },
    [device],
  );
  /** The mode (gate or dining) and the dining room the guard chose, kept on the device. */
  const keepMode = async (next: Mode) => {
    setMode(next);
    await store.setSetting('mode', next);
  };
  const keepRoom = async (IdComedor: number) => {
    setRoomId(IdComedor);
    await store.setSetting('room', IdComedor);
  };

  return {
    loaded,
    device,
    serve,
    keepMode,
    keepRoom,
    indexed,
    pending,
    setPending,
    refused,
    online,
    setOnline,
    problem,
    setProblem,
    reader,
    mode,
    roomId,
    now,
    setNow,
    sync,
  };
}
