import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Direction } from '../../shared/access/decision.js';
import { BusPanel } from './BusPanel.js';
import { Controls, ReaderInput, StatusLine } from './controls.js';
import type { ReaderRoom } from './dining.js';
import { passGate } from './gate.js';
import { serveMeal } from './meals.js';
import { type AllowList, cameraReading, doorFor, needsDriver, type Reading, readingOf } from './offline.js';
import {
  EnrolScreen,
  GateVerdict,
  LanguageButton,
  type MealShown,
  MealVerdict,
  type Shown,
} from './parts.js';
import { RecentReads } from './recent.js';
import { type Enrolled, type Mode, store } from './store.js';
import { enrol, publicKeyOf } from './sync.js';
import { initialLanguage, type Language, textsOf } from './texts.js';
import { useBusDoor } from './useBusDoor.js';
import { useDevice } from './useDevice.js';

/** The direction a device starts in: its equipment's own (exits at an exit gate, else entries). */
const directionOf = (enrolled: Enrolled): Direction => (enrolled.equipment.Funcion === 'S' ? 'S' : 'E');

/**
 * The gate app (/garita): enrolled once as a device of a control point, it keeps the point's signed
 * allow-list, decides each badge or document read with no network, and sends the markings when it can.
 */
export default function GateApp() {
  const [language, setLanguage] = useState<Language>(initialLanguage);
  const t = useMemo(() => textsOf(language), [language]);
  const [enrolMessage, setEnrolMessage] = useState('');
  const [direction, setDirection] = useState<Direction>('E');
  const [camera, setCamera] = useState(false);
  const [shown, setShown] = useState<Shown>();
  /** A vehicle read whose driver the gate waits for (its type needs an internal licence). */
  const awaiting = useRef<{ key: string; reading: Reading; name: string } | undefined>(undefined);
  const [driverWanted, setDriverWanted] = useState<string>();
  const [meal, setMeal] = useState<MealShown>();
  // The camera's repeat window, at the gate and at a dining room.
  const gateReads = useRef(new RecentReads<Shown>());
  const mealReads = useRef(new RecentReads<MealShown>());
  const forgetReads = () => {
    gateReads.current.clear();
    mealReads.current.clear();
  };
  const held = useDevice((device, kept) => {
    if (device) setDirection(directionOf(device));
    if (kept && !new URLSearchParams(window.location.search).get('lang')) setLanguage(kept);
  });
  const { device, indexed, reader, problem, setProblem, setPending, setNow, sync } = held;
  const marked = useCallback(async () => {
    setPending(await store.pendingCount());
    if (navigator.onLine && device) sync(device);
  }, [device, setPending, sync]);
  const bus = useBusDoor(device, marked);

  useEffect(() => {
    document.documentElement.lang = language;
    document.title = t('gateApp.title');
  }, [language, t]);

  /** Serves another enrolment (or none): kept by the device, with no answer on screen. */
  const { serve: keep } = held;
  const serve = useCallback(
    async (next: Enrolled | undefined) => {
      await keep(next);
      setShown(undefined);
      setMeal(undefined);
    },
    [keep],
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
    if (!held.loaded) return;
    const params = new URLSearchParams(window.location.search);
    const code = params.get('enrolar');
    if (!code) return;
    params.delete('enrolar');
    const rest = params.toString();
    window.history.replaceState(null, '', `${window.location.pathname}${rest ? `?${rest}` : ''}`);
    enrolWith(code);
  }, [held.loaded, enrolWith]);

  const judge = useCallback(
    async (text: string, fromCamera: boolean) => {
      if (!device || !indexed) return;
      // What the camera reads is cut and named as the equipment's document or plate reader's
      // configuration says (offline.ts cameraReading); what the guard types is a document or a plate.
      const reading = readingOf(text, fromCamera ? cameraReading(indexed.list.lectura) : undefined);
      if (!reading) return;
      const at = new Date();
      const key = `${direction}|${text.trim()}`;
      // A vehicle whose type needs its driver's internal licence waits for the driver's badge or document.
      const vehicle = awaiting.current;
      if (vehicle?.key === key) return;
      const before = vehicle ? undefined : gateReads.current.repeat(key, at.getTime(), fromCamera);
      if (before) {
        // Still being decided (the camera reads several times a second), or decided a moment ago.
        if (before.shown) setShown(before.shown);
        return;
      }
      if (!vehicle) {
        const name = await needsDriver(indexed, reading, direction, await publicKeyOf(device));
        if (name) {
          awaiting.current = { key, reading, name };
          setDriverWanted(name);
          setShown(undefined);
          return;
        }
      }
      awaiting.current = undefined;
      setDriverWanted(undefined);
      const { shown: result, marked } = vehicle
        ? await passGate(device, indexed, vehicle.reading, direction, at, reading)
        : await passGate(device, indexed, reading, direction, at);
      gateReads.current.decided(vehicle?.key ?? key, at.getTime(), result);
      setShown(result);
      setNow(at);
      if (!marked) return;
      setPending(await store.pendingCount());
      if (navigator.onLine) sync(device);
    },
    [device, indexed, direction, sync, setNow, setPending],
  );

  const rooms = reader?.rooms ?? [];
  const room: ReaderRoom | undefined = rooms.find((r) => r.IdComedor === held.roomId) ?? rooms[0];
  // A device with no control point but a room is a dining reader only; with both, the guard chooses.
  // Any device may serve at the door of a bus.
  const serving: Mode =
    held.mode === 'bus'
      ? 'bus'
      : device && !device.controlPoints.length
        ? 'dining'
        : rooms.length
          ? held.mode
          : 'gate';

  /** A meal, asked to the server while there is a network, else judged here (meals.ts). */
  const { setOnline } = held;
  const judgeMeal = useCallback(
    async (text: string, fromCamera: boolean) => {
      if (!device || !room || !reader) return;
      const reading = readingOf(text);
      if (!reading) return;
      const at = new Date();
      const key = `M|${room.IdComedor}|${text.trim()}`;
      const before = mealReads.current.repeat(key, at.getTime(), fromCamera);
      if (before) {
        if (before.shown) setMeal(before.shown);
        return;
      }
      const served = await serveMeal(device, room, reader, reading, at, language);
      if (served.keyRefused) setProblem('keyRefused');
      if (served.online) setOnline(true);
      if (served.pending !== undefined) setPending(served.pending);
      const result: MealShown = { ...served.answer, room: room.Descripcion, at };
      mealReads.current.decided(key, at.getTime(), result);
      setMeal(result);
      setNow(at);
    },
    [device, room, reader, language, setProblem, setPending, setOnline, setNow],
  );
  const read = (text: string, fromCamera: boolean) =>
    serving === 'bus'
      ? bus.judge(text, fromCamera)
      : serving === 'dining'
        ? judgeMeal(text, fromCamera)
        : judge(text, fromCamera);

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
    forgetReads();
    bus.clear();
    await held.keepMode(next);
  };
  const chooseRoom = async (IdComedor: number) => {
    forgetReads();
    setMeal(undefined);
    await held.keepRoom(IdComedor);
  };
  const toggleCamera = () => {
    forgetReads();
    bus.clear();
    setCamera((on) => !on);
    if (problem === 'camera') setProblem(undefined);
  };

  const languageButton = <LanguageButton t={t} language={language} onSwitch={switchLanguage} />;
  if (!held.loaded) return <main className="gate" />;
  if (!device)
    return (
      <EnrolScreen
        t={t}
        languageButton={languageButton}
        message={enrolMessage}
        cameraFailed={problem === 'camera'}
        onCode={enrolWith}
        onCameraError={() => setProblem('camera')}
      />
    );

  const list: AllowList | undefined = indexed?.list;
  const door = list && doorFor(list, direction);
  const point = device.controlPoints.find((p) => p.IdPuntoControl === device.IdPuntoControl);
  const ready = serving === 'bus' ? Boolean(bus.held) : serving === 'dining' ? Boolean(room) : Boolean(list);
  const heading =
    serving === 'bus'
      ? t('gateApp.bus.title')
      : serving === 'dining'
        ? room?.Descripcion
        : point?.Descripcion;
  return (
    <main className="gate">
      <header className="bar">
        <h1>{heading ?? t('gateApp.title')}</h1>
        <span className={`net ${held.online ? 'on' : 'off'}`} data-testid="network">
          {t(held.online ? 'gateApp.online' : 'gateApp.offline')}
        </span>
        {languageButton}
      </header>
      <StatusLine
        t={t}
        serving={serving}
        list={list}
        now={held.now}
        hasRoom={Boolean(room)}
        pending={held.pending}
        refused={held.refused}
        problem={problem}
        onReenrol={forget}
      />
      <Controls
        t={t}
        device={device}
        serving={serving}
        rooms={rooms}
        room={room}
        direction={direction}
        door={door?.Descripcion}
        onMode={chooseMode}
        onRoom={chooseRoom}
        onPoint={choosePoint}
        onDirection={setDirection}
      />
      {serving === 'dining' && meal && <MealVerdict meal={meal} t={t} language={language} room={room} />}
      {serving === 'gate' && driverWanted && (
        <section className="verdict wait" role="status" data-testid="driver-wanted">
          <p>{t('gateApp.driverWanted', { vehicle: driverWanted })}</p>
          <button
            type="button"
            onClick={() => {
              awaiting.current = undefined;
              setDriverWanted(undefined);
            }}
          >
            {t('gateApp.driverCancel')}
          </button>
        </section>
      )}
      {serving === 'gate' && shown && <GateVerdict shown={shown} t={t} language={language} list={list} />}
      {serving === 'bus' && (
        <BusPanel
          t={t}
          device={device}
          held={bus.held}
          shown={bus.shown}
          onTake={bus.take}
          onException={bus.except}
        />
      )}
      <ReaderInput
        t={t}
        ready={ready}
        camera={camera}
        documentLabel={
          serving === 'bus'
            ? 'gateApp.bus.card'
            : serving === 'dining'
              ? 'gateApp.dining.document'
              : 'gateApp.document'
        }
        onToggleCamera={toggleCamera}
        onRead={read}
        onCameraError={() => setProblem('camera')}
      />
      <footer className="device">{t('gateApp.device', { equipment: device.equipment.Descripcion })}</footer>
    </main>
  );
}
