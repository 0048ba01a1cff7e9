import { useState } from 'react';
import type { Direction } from '../../shared/access/decision.js';
import Scanner from '../components/Scanner.js';
import type { Translate } from '../i18n/translate.js';
import type { ReaderRoom } from './dining.js';
import { type AllowList, listAgeHours, listFreshness } from './offline.js';
import type { Enrolled, Mode } from './store.js';
import type { SyncProblem } from './sync.js';

/** What a sync round can report to the guard (a network it did not reach is said by the bar), or the camera's failure. */
export type Problem = Exclude<SyncProblem, 'network'> | 'camera';

/** What the device holds (its list's version and age, or its dining room), what waits to be sent, and what went wrong. */
export function StatusLine({
  t,
  serving,
  list,
  now,
  hasRoom,
  pending,
  refused,
  problem,
  onReenrol,
}: {
  t: Translate;
  serving: Mode;
  list?: AllowList;
  /** The time the list's age is told at. */
  now: Date;
  hasRoom: boolean;
  pending: number;
  refused: number;
  problem?: Problem;
  onReenrol: () => void;
}) {
  const freshness = list ? listFreshness(list, now) : undefined;
  const age = list ? listAgeHours(list, now) : 0;
  const ageText =
    age < 1
      ? t('gateApp.ageMinutes', { n: Math.max(0, Math.floor(age * 60)) })
      : t('gateApp.ageHours', { n: Math.floor(age) });
  return (
    <>
      <section className="status">
        {serving === 'gate' && (
          <span data-testid="list-age">
            {list ? t('gateApp.listVersion', { version: list.version, age: ageText }) : t('gateApp.noList')}
          </span>
        )}
        {serving === 'dining' && (
          <span data-testid="reader-rooms">
            {hasRoom ? t('gateApp.dining.reader') : t('gateApp.dining.noRoom')}
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
            <button type="button" className="secondary inline" onClick={onReenrol}>
              {t('gateApp.reenrol')}
            </button>
          )}
        </p>
      )}
    </>
  );
}

/** What the guard chooses: gate or dining, the room, the control point, and the direction at the gate. */
export function Controls({
  t,
  device,
  serving,
  rooms,
  room,
  direction,
  door,
  onMode,
  onRoom,
  onPoint,
  onDirection,
}: {
  t: Translate;
  device: Enrolled;
  serving: Mode;
  rooms: ReaderRoom[];
  room?: ReaderRoom;
  direction: Direction;
  door?: string;
  onMode: (mode: Mode) => void;
  onRoom: (room: number) => void;
  onPoint: (point: number) => void;
  onDirection: (direction: Direction) => void;
}) {
  // What this device may serve: its control point's doors, its dining rooms, and any bus's door.
  const modes = [
    ...(device.controlPoints.length ? (['gate'] as const) : []),
    ...(rooms.length ? (['dining'] as const) : []),
    'bus' as const,
  ];
  return (
    <>
      {modes.length > 1 && (
        <fieldset className="direction">
          <legend>{t('gateApp.dining.mode')}</legend>
          {modes.map((m) => (
            <button
              key={m}
              type="button"
              aria-pressed={serving === m}
              className={serving === m ? 'chosen' : ''}
              onClick={() => onMode(m)}
            >
              {t(`gateApp.dining.modes.${m}`)}
            </button>
          ))}
        </fieldset>
      )}
      {serving === 'dining' && rooms.length > 1 && (
        <label className="point">
          {t('gateApp.dining.room')}
          <select value={room?.IdComedor} onChange={(e) => onRoom(Number(e.target.value))}>
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
          <select value={device.IdPuntoControl} onChange={(e) => onPoint(Number(e.target.value))}>
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
              onClick={() => onDirection(d)}
            >
              {t(d === 'E' ? 'gateApp.entry' : 'gateApp.exit')}
            </button>
          ))}
          {door && <span className="door">{door}</span>}
        </fieldset>
      )}
    </>
  );
}

/** How a badge or document is read: the camera (on or off), or typed and checked. */
export function ReaderInput({
  t,
  ready,
  camera,
  documentLabel,
  onToggleCamera,
  onRead,
  onCameraError,
}: {
  t: Translate;
  ready: boolean;
  camera: boolean;
  /** What the typed field asks for (a document at the gate, a badge or document at a dining room). */
  documentLabel: string;
  onToggleCamera: () => void;
  onRead: (text: string, fromCamera: boolean) => void;
  onCameraError: () => void;
}) {
  const [typed, setTyped] = useState('');
  return (
    <>
      <section className="reader">
        {camera && ready && (
          <Scanner
            label={t('gateApp.camera')}
            onRead={(text) => onRead(text, true)}
            onError={onCameraError}
          />
        )}
        <button type="button" className="secondary" onClick={onToggleCamera}>
          {t(camera ? 'gateApp.cameraStop' : 'gateApp.cameraStart')}
        </button>
      </section>

      <form
        className="typed"
        onSubmit={(event) => {
          event.preventDefault();
          onRead(typed, false);
          setTyped('');
        }}
      >
        <label htmlFor="document">{t(documentLabel)}</label>
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
    </>
  );
}
