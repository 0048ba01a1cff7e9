import { useState } from 'react';
import type { Translate } from '../i18n/translate.js';
import type { BusShown, BusTrip, HeldManifest } from './bus.js';
import { busTrips } from './bus.js';
import { Verdict } from './parts.js';
import type { Enrolled } from './store.js';
import type { SyncProblem } from './sync.js';

/** The day's trips (asked while there is a network) and the manifest to take for one. */
function TripPicker({
  t,
  device,
  onTake,
}: {
  t: Translate;
  device: Enrolled;
  onTake: (tripId: number) => Promise<SyncProblem | undefined>;
}) {
  const [trips, setTrips] = useState<BusTrip[]>();
  const [chosen, setChosen] = useState<number>();
  const [problem, setProblem] = useState<SyncProblem>();
  const list = async () => {
    const answer = await busTrips(device);
    setProblem(answer.problem);
    if (answer.trips) {
      setTrips(answer.trips);
      setChosen(
        answer.trips.find((v) => v.Estado === 'P' || v.Estado === 'E')?.IdViaje ?? answer.trips[0]?.IdViaje,
      );
    }
  };
  return (
    <section className="panel bus-trips">
      <button type="button" className="secondary" onClick={list}>
        {t('gateApp.bus.listTrips')}
      </button>
      {trips && !trips.length && <p>{t('gateApp.bus.noTrips')}</p>}
      {trips && trips.length > 0 && (
        <label className="point">
          {t('gateApp.bus.trip')}
          <select value={chosen} onChange={(e) => setChosen(Number(e.target.value))} data-testid="bus-trip">
            {trips.map((v) => (
              <option key={v.IdViaje} value={v.IdViaje}>
                {`${v.Hora} · ${v.RutaCodigo} · ${v.Placa}`}
              </option>
            ))}
          </select>
        </label>
      )}
      {chosen !== undefined && (
        <button type="button" onClick={async () => setProblem(await onTake(chosen))} data-testid="bus-take">
          {t('gateApp.bus.take')}
        </button>
      )}
      {problem && (
        <p className="warning" role="alert">
          {t(problem === 'network' ? 'gateApp.bus.needsNetwork' : `gateApp.problems.${problem}`)}
        </p>
      )}
    </section>
  );
}

/** The manifest held: the trip, its seats, booked and boarded here. */
function ManifestLine({ t, held }: { t: Translate; held: HeldManifest }) {
  const m = held.manifest;
  return (
    <section className="status" data-testid="bus-manifest" data-boarded={held.boarded.length}>
      <span>{`${m.Hora} · ${m.Ruta}`}</span>
      <span>
        {t('gateApp.bus.counts', {
          booked: m.pasajeros.length,
          boarded: held.boarded.length,
          seats: m.Asientos,
        })}
      </span>
    </section>
  );
}

/** The answer at the door: boards or not, who, the seat, why; an exception asked for someone not booked. */
function BusVerdict({
  t,
  shown,
  onException,
}: {
  t: Translate;
  shown: BusShown;
  onException: (reason: string) => void;
}) {
  const [reason, setReason] = useState('');
  const p = shown.passenger;
  return (
    <>
      <Verdict
        allow={shown.allow}
        reason={shown.reason}
        word={t(shown.allow ? 'gateApp.bus.boards' : 'gateApp.bus.refused')}
        name={p?.Nombre}
      >
        <span className="reason">{t(shown.messageKey)}</span>
        {p?.Asiento !== undefined && (
          <span className="where">{t('gateApp.bus.seat', { seat: p.Asiento })}</span>
        )}
        {p?.Compania && <span className="where">{p.Compania}</span>}
      </Verdict>
      {shown.reason === 'NOT_BOOKED' && (shown.free ?? 0) > 0 && (
        <form
          className="typed"
          onSubmit={(event) => {
            event.preventDefault();
            if (reason.trim().length >= 3) onException(reason.trim());
            setReason('');
          }}
        >
          <label htmlFor="bus-exception">{t('gateApp.bus.exceptionReason', { free: shown.free ?? 0 })}</label>
          <div className="row">
            <input
              id="bus-exception"
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              minLength={3}
            />
            <button type="submit" disabled={reason.trim().length < 3}>
              {t('gateApp.bus.exception')}
            </button>
          </div>
        </form>
      )}
    </>
  );
}

/** The bus mode's part of the screen: the trip's manifest (or the picker to take one) and the last answer. */
export function BusPanel({
  t,
  device,
  held,
  shown,
  onTake,
  onException,
}: {
  t: Translate;
  device: Enrolled;
  held?: HeldManifest;
  shown?: BusShown;
  onTake: (tripId: number) => Promise<SyncProblem | undefined>;
  onException: (reason: string) => void;
}) {
  return (
    <>
      <TripPicker t={t} device={device} onTake={onTake} />
      {held ? <ManifestLine t={t} held={held} /> : <p className="warning">{t('gateApp.bus.noManifest')}</p>}
      {shown && <BusVerdict t={t} shown={shown} onException={onException} />}
    </>
  );
}
