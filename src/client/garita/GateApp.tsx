import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Direction } from '../../shared/access/decision.js';
import { verifyToken } from '../../shared/badge-token.js';
import {
  decideMealOffline,
  type MealAnswer,
  presentedOf,
  prunedCounts,
  type ReaderData,
  type ReaderRoom,
  servedKey,
} from './dining.js';
import {
  type AllowList,
  decideOffline,
  doorFor,
  type GateAnswer,
  type IndexedList,
  indexList,
  listAgeHours,
  listFreshness,
  readingOf,
} from './offline.js';
import Scanner from './Scanner.js';
import { type Enrolled, type Mode, store } from './store.js';
import {
  askMeal,
  enrol,
  publicKeyOf,
  refreshList,
  refreshReader,
  type SyncProblem,
  sendMarks,
  sendMeals,
} from './sync.js';
import { initialLanguage, type Language, textsOf } from './texts.js';

/** A code read again within this time shows its answer again and marks nothing (a badge held still). */
const REPEAT_MS = 60_000;
/** How often the app looks for a network to send markings waiting. */
const SYNC_MS = 20_000;
/** How often it asks for the list's changes while online (at once on reconnecting). */
const LIST_EVERY_MS = 5 * 60_000;

interface Shown extends GateAnswer {
  direction: Direction;
  door: string;
  at: Date;
}

interface MealShown extends MealAnswer {
  room: string;
  at: Date;
}

const enrolmentCodeOf = (text: string): string | undefined => {
  const value = text.trim();
  try {
    const code = new URL(value).searchParams.get('enrolar');
    if (code) return code;
  } catch {
    // not an address: the code itself
  }
  return /^[A-Za-z0-9_-]{16,64}$/.test(value) ? value : undefined;
};

/** The direction a device starts in: its equipment's own (exits at an exit gate, else entries). */
const directionOf = (enrolled: Enrolled): Direction => (enrolled.equipment.Funcion === 'S' ? 'S' : 'E');

/** What a sync round can report to the guard: a network it did not reach is said by the bar instead. */
type Problem = Exclude<SyncProblem, 'network'>;

/**
 * The gate app (/garita): enrolled once as a device of a control point, it keeps the point's signed
 * allow-list, decides each badge or document read with no network, and sends the markings when it can.
 */
export default function GateApp() {
  const [language, setLanguage] = useState<Language>(initialLanguage);
  const t = useMemo(() => textsOf(language), [language]);
  const [loaded, setLoaded] = useState(false);
  const [device, setDevice] = useState<Enrolled>();
  const [indexed, setIndexed] = useState<IndexedList>();
  const [pending, setPending] = useState(0);
  const [refused, setRefused] = useState(0);
  const [online, setOnline] = useState(navigator.onLine);
  const [problem, setProblem] = useState<Problem | 'camera'>();
  const [enrolMessage, setEnrolMessage] = useState('');
  const [direction, setDirection] = useState<Direction>('E');
  const [camera, setCamera] = useState(false);
  const [typed, setTyped] = useState('');
  const [shown, setShown] = useState<Shown>();
  const [reader, setReader] = useState<ReaderData>();
  const [mode, setMode] = useState<Mode>('gate');
  const [roomId, setRoomId] = useState<number>();
  const [meal, setMeal] = useState<MealShown>();
  const [now, setNow] = useState(() => new Date());
  const recent = useRef(new Map<string, { at: number; answer?: Shown; meal?: MealShown }>());
  const syncing = useRef(false);
  const again = useRef<'list' | 'marks' | false>(false);
  const listAt = useRef(0);

  useEffect(() => {
    document.documentElement.lang = language;
    document.title = t('gateApp.title');
  }, [language, t]);

  // What this device holds: its enrolment, its list, its language, its markings waiting.
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
      if (held) setDirection(directionOf(held));
      setReader(readerData);
      if (keptMode) setMode(keptMode);
      setRoomId(keptRoom);
      if (list) setIndexed(indexList(list));
      if (kept && !new URLSearchParams(window.location.search).get('lang')) setLanguage(kept);
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
        setPending(await store.pendingCount());
        setRefused(await store.refusedCount());
        const problems = [listProblem, sent.problem, served.problem];
        setProblem(problems.find((p): p is Problem => p !== undefined && p !== 'network'));
        setOnline(!problems.includes('network'));
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
   * enrolment, with no list until its point's is asked for and no answer on screen.
   */
  const serve = useCallback(
    async (next: Enrolled | undefined) => {
      await store.setEnrolled(next);
      await store.setList(undefined);
      setIndexed(undefined);
      setShown(undefined);
      setMeal(undefined);
      if (next?.key !== device?.key) {
        // Another enrolment: the rooms it reads for, its mode and its counts are asked for again.
        for (const key of ['reader', 'mode', 'room', 'served'] as const)
          await store.setSetting(key, undefined);
        setReader(undefined);
        setMode(next?.controlPoints.length ? 'gate' : 'dining');
        setRoomId(undefined);
      }
      setDevice(next);
    },
    [device],
  );

  const enrolWith = useCallback(
    async (code: string) => {
      setEnrolMessage(t('gateApp.enrolling'));
      const answer = await enrol(code, language);
      if ('message' in answer) {
        setEnrolMessage(answer.message || t('gateApp.offline'));
        return;
      }
      await serve(answer);
      setEnrolMessage('');
      setDirection(directionOf(answer));
    },
    [language, t, serve],
  );

  // An enrolment QR opened with the phone's camera app lands here with its code.
  useEffect(() => {
    if (!loaded) return;
    const params = new URLSearchParams(window.location.search);
    const code = params.get('enrolar');
    if (!code) return;
    params.delete('enrolar');
    const rest = params.toString();
    window.history.replaceState(null, '', `${window.location.pathname}${rest ? `?${rest}` : ''}`);
    enrolWith(code);
  }, [loaded, enrolWith]);

  const judge = useCallback(
    async (text: string, fromCamera: boolean) => {
      if (!device || !indexed) return;
      const reading = readingOf(text);
      if (!reading) return;
      const at = new Date();
      const key = `${direction}|${text.trim()}`;
      const before = recent.current.get(key);
      if (fromCamera && before && at.getTime() - before.at < REPEAT_MS) {
        // Still being decided (the camera reads several times a second), or decided a moment ago.
        if (before.answer) setShown(before.answer);
        return;
      }
      // Readings older than the repeat window no longer count: they go as new ones come.
      for (const [seen, entry] of recent.current)
        if (at.getTime() - entry.at >= REPEAT_MS) recent.current.delete(seen);
      recent.current.set(key, { at: at.getTime() });
      const answer = await decideOffline(indexed, reading, direction, at, await publicKeyOf(device));
      const door = doorFor(indexed.list, direction);
      const result: Shown = { ...answer, direction, door: door?.Descripcion ?? '', at };
      recent.current.set(key, { at: at.getTime(), answer: result });
      setShown(result);
      setNow(at);
      if (answer.marking && door) {
        await store.addMark({
          IdMarca: crypto.randomUUID(),
          IdPuerta: door.IdPuerta,
          Funcion: direction,
          FechaHora: at.toISOString(),
          Resultado: answer.allow ? 'P' : 'D',
          ...answer.marking,
        });
        setPending(await store.pendingCount());
        if (navigator.onLine) sync(device);
      }
    },
    [device, indexed, direction, sync],
  );

  const rooms = reader?.rooms ?? [];
  const room: ReaderRoom | undefined = rooms.find((r) => r.IdComedor === roomId) ?? rooms[0];
  // A device with no control point but a room is a dining reader only; with both, the guard chooses.
  const serving: Mode = device && !device.controlPoints.length ? 'dining' : rooms.length ? mode : 'gate';

  /**
   * A meal: asked to the server while there is a network (it writes the consumption), else judged here
   * from the badge's token and kept to be sent. Every presentation gets an answer and is recorded.
   */
  const judgeMeal = useCallback(
    async (text: string, fromCamera: boolean) => {
      if (!device || !room || !reader) return;
      const reading = readingOf(text);
      if (!reading) return;
      const at = new Date();
      const key = `M|${room.IdComedor}|${text.trim()}`;
      const before = recent.current.get(key);
      if (fromCamera && before && at.getTime() - before.at < REPEAT_MS) {
        if (before.meal) setMeal(before.meal);
        return;
      }
      for (const [seen, entry] of recent.current)
        if (at.getTime() - entry.at >= REPEAT_MS) recent.current.delete(seen);
      recent.current.set(key, { at: at.getTime() });
      const presentation = {
        IdMarca: crypto.randomUUID(),
        IdComedor: room.IdComedor,
        FechaHora: at.toISOString(),
        ...presentedOf(reading),
      };
      const publicKey = await publicKeyOf(device);
      const counts = (await store.setting<Record<string, number>>('served')) ?? {};
      let answer = navigator.onLine ? await askMeal(device, presentation, language) : undefined;
      if (answer === 'keyRefused') {
        setProblem('keyRefused');
        answer = undefined;
      }
      let counted: string | undefined;
      if (answer) {
        // The server's count of the sitting, so the reader goes on counting right if the network drops.
        if (answer.allow && answer.service && answer.used && reading.kind === 'token') {
          const card = await verifyToken(reading.token, publicKey);
          if (card.ok) {
            counts[servedKey(card.claims.Numero, answer.service.IdServicio, answer.service.Fecha)] =
              answer.used.used;
            await store.setSetting('served', prunedCounts(counts, answer.service.Fecha));
          }
        }
        setOnline(true);
      } else {
        const judged = await decideMealOffline(reader, room, reading, at, publicKey, counts);
        answer = judged.answer;
        counted = judged.counted;
        await store.addMeal({ ...presentation, Resultado: answer.allow ? 'P' : 'D' });
        if (counted && answer.service) {
          counts[counted] = (counts[counted] ?? 0) + 1;
          await store.setSetting('served', prunedCounts(counts, answer.service.Fecha));
        }
        setPending(await store.pendingCount());
      }
      const result: MealShown = { ...answer, room: room.Descripcion, at };
      recent.current.set(key, { at: at.getTime(), meal: result });
      setMeal(result);
      setNow(at);
    },
    [device, room, reader, language],
  );
  const read = (text: string, fromCamera: boolean) =>
    serving === 'dining' ? judgeMeal(text, fromCamera) : judge(text, fromCamera);

  /** A key the server refuses (revoked, rotated, equipment switched off): back to the enrolment screen. */
  const forget = async () => {
    await serve(undefined);
    setProblem(undefined);
  };
  /** Another of the equipment's control points: its own list, asked for at once. */
  const choosePoint = async (IdPuntoControl: number) => {
    if (!device) return;
    await serve({ ...device, IdPuntoControl });
  };

  const switchLanguage = async () => {
    const next = language === 'es' ? 'en' : 'es';
    setLanguage(next);
    await store.setLanguage(next);
  };
  const chooseMode = async (next: Mode) => {
    recent.current.clear();
    setMode(next);
    await store.setSetting('mode', next);
  };
  const chooseRoom = async (IdComedor: number) => {
    recent.current.clear();
    setMeal(undefined);
    setRoomId(IdComedor);
    await store.setSetting('room', IdComedor);
  };
  const toggleCamera = () => {
    recent.current.clear();
    setCamera((on) => !on);
    if (problem === 'camera') setProblem(undefined);
  };

  const languageButton = (
    // Its name starts with what it shows (EN or ES), so a voice command of what one sees reaches it.
    <button
      type="button"
      className="lang"
      onClick={switchLanguage}
      aria-label={`${language === 'es' ? 'EN' : 'ES'} · ${t('gateApp.otherLanguage')}`}
    >
      {language === 'es' ? 'EN' : 'ES'}
    </button>
  );

  if (!loaded) return <main className="gate" />;

  if (!device)
    return (
      <main className="gate">
        <header className="bar">
          <h1>{t('gateApp.title')}</h1>
          {languageButton}
        </header>
        <section className="panel">
          <h2>{t('gateApp.enrolTitle')}</h2>
          <p>{t('gateApp.enrolHelp')}</p>
          <Scanner
            label={t('gateApp.camera')}
            onRead={(text) => {
              const code = enrolmentCodeOf(text);
              if (code) enrolWith(code);
            }}
            onError={() => setProblem('camera')}
          />
          <form
            className="typed"
            onSubmit={(event) => {
              event.preventDefault();
              const code = enrolmentCodeOf(typed);
              if (code) enrolWith(code);
              setTyped('');
            }}
          >
            <label htmlFor="enrol-code">{t('gateApp.enrolCode')}</label>
            <div className="row">
              <input
                id="enrol-code"
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                autoComplete="off"
              />
              <button type="submit">{t('gateApp.enrolButton')}</button>
            </div>
          </form>
          {enrolMessage && (
            <p className="notice" role="status">
              {enrolMessage}
            </p>
          )}
          {problem === 'camera' && <p className="notice">{t('gateApp.cameraFailed')}</p>}
        </section>
      </main>
    );

  const list: AllowList | undefined = indexed?.list;
  const freshness = list ? listFreshness(list, now) : undefined;
  const age = list ? listAgeHours(list, now) : 0;
  const ageText =
    age < 1
      ? t('gateApp.ageMinutes', { n: Math.max(0, Math.floor(age * 60)) })
      : t('gateApp.ageHours', { n: Math.floor(age) });
  const door = list && doorFor(list, direction);
  const point = device.controlPoints.find((p) => p.IdPuntoControl === device.IdPuntoControl);
  const ready = serving === 'dining' ? Boolean(room) : Boolean(list);

  return (
    <main className="gate">
      <header className="bar">
        <h1>{(serving === 'dining' ? room?.Descripcion : point?.Descripcion) ?? t('gateApp.title')}</h1>
        <span className={`net ${online ? 'on' : 'off'}`} data-testid="network">
          {t(online ? 'gateApp.online' : 'gateApp.offline')}
        </span>
        {languageButton}
      </header>

      <section className="status">
        {serving === 'gate' ? (
          <span data-testid="list-age">
            {list ? t('gateApp.listVersion', { version: list.version, age: ageText }) : t('gateApp.noList')}
          </span>
        ) : (
          <span data-testid="reader-rooms">
            {room ? t('gateApp.dining.reader') : t('gateApp.dining.noRoom')}
          </span>
        )}
        <span data-testid="pending" data-count={pending}>
          {t('gateApp.pending', { count: pending })}
        </span>
        {refused > 0 && (
          <span data-testid="refused" data-count={refused}>
            {t('gateApp.refused', { count: refused })}
          </span>
        )}
      </section>
      {serving === 'gate' && freshness === 'old' && (
        <p className="warning" role="status">
          {t('gateApp.listOld', { hours: list?.avisoHoras ?? 0 })}
        </p>
      )}
      {serving === 'gate' && freshness === 'expired' && (
        <p className="warning severe" role="alert">
          {t('gateApp.listExpired', { hours: list?.limiteHoras ?? 0 })}
        </p>
      )}
      {problem && (
        <p className="warning" role="alert">
          {t(`gateApp.problems.${problem}`)}
          {problem === 'keyRefused' && (
            <button type="button" className="secondary inline" onClick={forget}>
              {t('gateApp.reenrol')}
            </button>
          )}
        </p>
      )}
      {device.controlPoints.length > 0 && rooms.length > 0 && (
        <fieldset className="direction">
          <legend>{t('gateApp.dining.mode')}</legend>
          {(['gate', 'dining'] as const).map((m) => (
            <button
              key={m}
              type="button"
              aria-pressed={serving === m}
              className={serving === m ? 'chosen' : ''}
              onClick={() => chooseMode(m)}
            >
              {t(`gateApp.dining.modes.${m}`)}
            </button>
          ))}
        </fieldset>
      )}
      {serving === 'dining' && rooms.length > 1 && (
        <label className="point">
          {t('gateApp.dining.room')}
          <select value={room?.IdComedor} onChange={(e) => chooseRoom(Number(e.target.value))}>
            {rooms.map((r) => (
              <option key={r.IdComedor} value={r.IdComedor}>
                {r.Descripcion}
              </option>
            ))}
          </select>
        </label>
      )}
      {serving === 'gate' && device.controlPoints.length > 1 && (
        <label className="point">
          {t('gateApp.controlPoint')}
          <select value={device.IdPuntoControl} onChange={(e) => choosePoint(Number(e.target.value))}>
            {device.controlPoints.map((p) => (
              <option key={p.IdPuntoControl} value={p.IdPuntoControl}>
                {p.Descripcion}
              </option>
            ))}
          </select>
        </label>
      )}

      {serving === 'gate' && (
        <fieldset className="direction">
          <legend>{t('gateApp.direction')}</legend>
          {(['E', 'S'] as const).map((d) => (
            <button
              key={d}
              type="button"
              aria-pressed={direction === d}
              className={direction === d ? 'chosen' : ''}
              onClick={() => setDirection(d)}
            >
              {t(d === 'E' ? 'gateApp.entry' : 'gateApp.exit')}
            </button>
          ))}
          {door && <span className="door">{door.Descripcion}</span>}
        </fieldset>
      )}

      {serving === 'dining' && meal && (
        <output
          className={`verdict ${meal.allow ? 'allow' : 'deny'}`}
          data-testid="verdict"
          data-allow={meal.allow}
          data-reason={meal.reason}
          data-offline={meal.offline ?? false}
          data-at={meal.at.getTime()}
        >
          <strong className="word">
            {t(meal.allow ? 'gateApp.dining.served' : 'gateApp.dining.notServed')}
          </strong>
          {meal.name && <span className="name">{meal.name}</span>}
          {meal.company && <span className="where">{meal.company}</span>}
          <span className="reason">{meal.message ?? t(meal.messageKey, meal.params)}</span>
          {meal.allow && meal.used && (
            <span className="reason">
              {t('gateApp.dining.used', { used: meal.used.used, max: meal.used.max })}
            </span>
          )}
          <span className="where">
            {[meal.room, meal.service?.Descripcion].filter(Boolean).join(' · ')} ·{' '}
            {meal.at.toLocaleTimeString(language === 'es' ? 'es-PE' : 'en-GB', {
              hour: '2-digit',
              minute: '2-digit',
              hourCycle: 'h23',
              ...(room && { timeZone: room.zonaHoraria }),
            })}
            {meal.offline && ` · ${t('gateApp.dining.decidedOffline')}`}
          </span>
        </output>
      )}
      {serving === 'gate' && shown && (
        <output
          className={`verdict ${shown.allow ? 'allow' : 'deny'}`}
          data-testid="verdict"
          data-allow={shown.allow}
          data-reason={shown.reason}
        >
          <strong className="word">{t(shown.allow ? 'gateApp.allowed' : 'gateApp.denied')}</strong>
          {shown.name && <span className="name">{shown.name}</span>}
          <span className="reason">{t(shown.messageKey, shown.params)}</span>
          {shown.lenientExit && <span className="reason">{t('gateApp.lenientExit')}</span>}
          <span className="where">
            {t(shown.direction === 'E' ? 'gateApp.entry' : 'gateApp.exit')}
            {shown.door && ` · ${shown.door}`} ·{' '}
            {shown.at.toLocaleTimeString(language === 'es' ? 'es-PE' : 'en-GB', {
              hour: '2-digit',
              minute: '2-digit',
              hourCycle: 'h23',
              ...(list && { timeZone: list.zonaHoraria }),
            })}
          </span>
        </output>
      )}

      <section className="reader">
        {camera && ready && (
          <Scanner
            label={t('gateApp.camera')}
            onRead={(text) => read(text, true)}
            onError={() => setProblem('camera')}
          />
        )}
        <button type="button" className="secondary" onClick={toggleCamera}>
          {t(camera ? 'gateApp.cameraStop' : 'gateApp.cameraStart')}
        </button>
      </section>

      <form
        className="typed"
        onSubmit={(event) => {
          event.preventDefault();
          read(typed, false);
          setTyped('');
        }}
      >
        <label htmlFor="document">
          {t(serving === 'dining' ? 'gateApp.dining.document' : 'gateApp.document')}
        </label>
        <div className="row">
          <input
            id="document"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            inputMode="text"
            autoComplete="off"
            disabled={!ready}
          />
          <button type="submit" disabled={!ready}>
            {t('gateApp.check')}
          </button>
        </div>
      </form>
      <footer className="device">{t('gateApp.device', { equipment: device.equipment.Descripcion })}</footer>
    </main>
  );
}
