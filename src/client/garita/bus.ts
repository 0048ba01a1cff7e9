/**
 * The gate app at the door of a bus (bus mode): the guard or the driver picks one of the day's trips
 * while there is a network, the app keeps the trip's signed manifest, and each badge is then decided
 * here with no network by the shared rule (decideBoarding); the readings wait on the device and are
 * sent once each (their IdMarca) when a network comes back.
 */
import { TOKEN_PREFIX, verifyToken } from '../../shared/badge-token.js';
import {
  type Boarding,
  type BoardingReason,
  decideBoarding,
  type SignedManifest,
} from '../../shared/transport.js';
import type { Reading } from './offline.js';
import { payloadGenuine } from './offline.js';
import { type Enrolled, type HeldManifest, type PendingBoarding, store } from './store.js';

export type { HeldManifest, PendingBoarding };

import { deviceFetch, publicKeyOf, type SyncProblem } from './sync.js';

/** A trip of the day as the device lists it. */
export interface BusTrip {
  IdViaje: number;
  Ruta: string;
  RutaCodigo: string;
  Fecha: string;
  Hora: string;
  Placa: string;
  Estado: string;
  Asientos: number;
  Reservados: number;
}

/** What the door shows after a reading. */
export interface BusShown extends Boarding {
  at: Date;
  /** The credential read, for an exception asked right after. */
  card?: string;
}

/** The division's trips of the site's today (the server's calendar, not the phone's), or the problem. */
export async function busTrips(device: Enrolled): Promise<{ trips?: BusTrip[]; problem?: SyncProblem }> {
  try {
    const response = await deviceFetch(device, '/api/transporte/bus/viajes');
    if (response.status === 401) return { problem: 'keyRefused' };
    if (!response.ok) return { problem: 'server' };
    return { trips: ((await response.json()) as { result: BusTrip[] }).result };
  } catch {
    return { problem: 'network' };
  }
}

/** Asks for a trip's signed manifest, checks its signature and keeps it (with whom this door boarded, if the same trip). */
export async function takeManifest(
  device: Enrolled,
  tripId: number,
): Promise<{ held?: HeldManifest; problem?: SyncProblem }> {
  try {
    const response = await deviceFetch(device, `/api/transporte/bus/viajes/${tripId}/manifiesto`);
    if (response.status === 401) return { problem: 'keyRefused' };
    if (!response.ok) return { problem: 'server' };
    const { result } = (await response.json()) as { result: { payload: string; signature: string } };
    if (!(await payloadGenuine(result.payload, result.signature, await publicKeyOf(device))))
      return { problem: 'signature' };
    const manifest = JSON.parse(result.payload) as SignedManifest;
    const before = await store.manifest();
    const boarded = before?.manifest.IdViaje === tripId ? before.boarded : [];
    const held = { ...result, manifest, boarded };
    await store.setManifest(held);
    return { held };
  } catch {
    return { problem: 'network' };
  }
}

/**
 * A badge read at the door, decided from the held manifest with no network: a genuine token's card
 * (or a card number typed), the shared decision, the reading kept to be sent and, when it boards,
 * the person counted as boarded on this door. `exception` boards an accredited person not booked.
 */
export async function boardAtDoor(
  device: Enrolled,
  held: HeldManifest,
  reading: Reading,
  at: Date,
  exception?: string,
): Promise<{ shown: BusShown; held: HeldManifest }> {
  let card: string;
  let titular: string | undefined;
  if (reading.kind === 'token') {
    if (!reading.token.startsWith(`${TOKEN_PREFIX}.`)) return { shown: refusedHere('UNKNOWN', at), held };
    const verified = await verifyToken(reading.token, await publicKeyOf(device));
    if (!verified.ok) return { shown: refusedHere('UNKNOWN', at), held };
    if (verified.claims.IdCliente !== held.manifest.IdCliente)
      return { shown: refusedHere('OTHER_CLIENT', at), held };
    card = verified.claims.Numero;
    titular = verified.claims.Titular;
  } else card = reading.kind === 'card' ? reading.Numero : reading.Documento;
  const read = {
    Numero: card,
    IdCliente: held.manifest.IdCliente,
    IdDivision: held.manifest.IdDivision,
    Titular: titular,
  };
  const decision = decideBoarding(
    held.manifest,
    read,
    at,
    new Set(held.boarded),
    exception ? { reason: exception } : undefined,
  );
  await store.addBoarding({
    IdMarca: crypto.randomUUID(),
    IdViaje: held.manifest.IdViaje,
    Credencial: card,
    FechaHora: at.toISOString(),
    Resultado: decision.allow ? 'P' : 'D',
    Motivo: decision.reason,
    ...(exception && decision.allow && { Excepcion: exception }),
  });
  const person = decision.passenger?.IdPersona;
  const next = decision.allow && person ? { ...held, boarded: [...held.boarded, person] } : held;
  if (next !== held) await store.setManifest(next);
  return { shown: { ...decision, at, card }, held: next };
}

const refusedHere = (reason: BoardingReason, at: Date): BusShown => ({
  allow: false,
  reason,
  messageKey: `transport.boarding.${reason}`,
  at,
});

/** Sends the readings waiting, a trip at a time, and forgets each the server has (a repeat is answered as such). */
export async function sendBoardings(device: Enrolled): Promise<{ sent: number; problem?: SyncProblem }> {
  let sent = 0;
  try {
    const waiting = await store.boardings(500);
    const trips = new Map<number, PendingBoarding[]>();
    for (const b of waiting) trips.set(b.IdViaje, [...(trips.get(b.IdViaje) ?? []), b]);
    for (const [trip, items] of trips) {
      const marcas = items.map(({ IdViaje: _trip, ...mark }) => mark);
      const response = await deviceFetch(device, `/api/transporte/bus/viajes/${trip}/abordajes`, {
        method: 'POST',
        body: JSON.stringify({ marcas }),
      });
      if (response.status === 401) return { sent, problem: 'keyRefused' };
      if (response.status === 400 || response.status === 404 || response.status === 409) {
        const refusal = (await response.json().catch(() => ({}))) as { message?: string };
        for (const item of items) await store.refuseBoarding(item.IdMarca, refusal.message ?? '');
        continue;
      }
      if (!response.ok) return { sent, problem: 'server' };
      await store.removeBoardings(items.map((i) => i.IdMarca));
      sent += items.length;
    }
    return { sent };
  } catch {
    return { sent, problem: 'network' };
  }
}
