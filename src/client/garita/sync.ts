import { verifyingKey } from '../../shared/badge-token.js';
import type { MealAnswer, PendingMeal, ReaderData } from './dining.js';
import { type AllowList, applyPayload, type Payload, payloadGenuine } from './offline.js';
import { type Enrolled, store } from './store.js';

/** Why talking to the server failed: no network, the key refused (enrol again), a list not genuine. */
export type SyncProblem = 'network' | 'keyRefused' | 'signature' | 'server';

const BATCH = 500;

export const deviceFetch = (device: Enrolled, url: string, init: RequestInit = {}) =>
  fetch(url, {
    ...init,
    cache: 'no-store',
    headers: { ...init.headers, authorization: `Device ${device.key}`, 'content-type': 'application/json' },
  });

let keyCache: { pem: string; key: Promise<CryptoKey> } | undefined;
export function publicKeyOf(device: Enrolled): Promise<CryptoKey> {
  if (keyCache?.pem !== device.publicKey)
    keyCache = { pem: device.publicKey, key: verifyingKey(device.publicKey) };
  return keyCache.key;
}

/** The exchange of an enrolment code (the QR's) for this device's key. */
export async function enrol(code: string, language: string): Promise<Enrolled | { message: string }> {
  let response: Response;
  try {
    response = await fetch('/api/acceso/enrolar', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': language },
      body: JSON.stringify({ codigo: code }),
    });
  } catch {
    return { message: '' };
  }
  const body = (await response.json().catch(() => ({}))) as {
    result?: Omit<Enrolled, 'IdPuntoControl'>;
    message?: string;
  };
  if (!response.ok || !body.result) return { message: body.message ?? '' };
  const { controlPoints } = body.result;
  return { ...body.result, IdPuntoControl: controlPoints[0]?.IdPuntoControl ?? 0 };
}

/**
 * Asks for the list's changes since the version held (the whole list when none is held or the
 * changes do not follow it), checks the signature, merges and keeps it. A list whose signature fails
 * is not kept: the one held goes on deciding.
 */
export async function refreshList(device: Enrolled): Promise<{ list?: AllowList; problem?: SyncProblem }> {
  const held = await store.list();
  const usable = held?.puntoControl === device.IdPuntoControl ? held : undefined;
  const ask = async (version?: number) => {
    const query = `puntoControl=${device.IdPuntoControl}${version ? `&version=${version}` : ''}`;
    const response = await deviceFetch(device, `/api/acceso/listapermitidos?${query}`);
    if (response.status === 401) return 'keyRefused' as const;
    if (!response.ok) return 'server' as const;
    const { result } = (await response.json()) as { result: { payload: string; signature: string } };
    if (!(await payloadGenuine(result.payload, result.signature, await publicKeyOf(device))))
      return 'signature' as const;
    return JSON.parse(result.payload) as Payload;
  };
  try {
    let answer = await ask(usable?.version);
    if (typeof answer === 'string') return { problem: answer };
    let list = applyPayload(usable, answer);
    if (!list) {
      answer = await ask();
      if (typeof answer === 'string') return { problem: answer };
      list = applyPayload(undefined, answer);
    }
    if (!list) return { problem: 'server' };
    await store.setList(list);
    return { list };
  } catch {
    return { problem: 'network' };
  }
}

/** The rooms this device reads for (none when its equipment is no dining room's reader), kept on the device. */
export async function refreshReader(device: Enrolled): Promise<{ data?: ReaderData; problem?: SyncProblem }> {
  try {
    const response = await deviceFetch(device, '/api/comedor/lector');
    if (response.status === 401) return { problem: 'keyRefused' };
    if (!response.ok) return { problem: 'server' };
    const { result } = (await response.json()) as { result: Pick<ReaderData, 'rooms'> };
    const data: ReaderData = { rooms: result.rooms, fetchedAt: new Date().toISOString() };
    await store.setSetting('reader', data);
    return { data };
  } catch {
    return { problem: 'network' };
  }
}

interface ServerMeal {
  allow: boolean;
  reason: MealAnswer['reason'];
  messageKey: string;
  message: string;
  params?: MealAnswer['params'];
  servicio: MealAnswer['service'] | null;
  consumos: { usados: number; maximo: number } | null;
  persona: { Nombres?: string; Compania?: string } | null;
}

/**
 * Asks the server whether `meal` may eat (the consumption is written there). Undefined when the network
 * or the server did not answer: the reader then judges it offline.
 */
export async function askMeal(
  device: Enrolled,
  meal: Omit<PendingMeal, 'Resultado'>,
  language: string,
): Promise<MealAnswer | 'keyRefused' | undefined> {
  try {
    const response = await deviceFetch(device, '/api/comedor/decidir', {
      method: 'POST',
      headers: { 'accept-language': language },
      body: JSON.stringify(meal),
    });
    if (response.status === 401) return 'keyRefused';
    if (!response.ok) return undefined;
    const { result } = (await response.json()) as { result: ServerMeal };
    return {
      allow: result.allow,
      reason: result.reason,
      messageKey: result.messageKey,
      message: result.message,
      ...(result.params && { params: result.params }),
      ...(result.persona?.Nombres && { name: result.persona.Nombres }),
      ...(result.persona?.Compania && { company: result.persona.Compania }),
      ...(result.servicio && { service: result.servicio }),
      ...(result.consumos && { used: { used: result.consumos.usados, max: result.consumos.maximo } }),
    };
  } catch {
    return undefined;
  }
}

/**
 * Sends what waits on the device, oldest first, a batch at a time, and forgets each once the server
 * has it. One the server can never take (a 400 naming it: its door or room no longer the device's,
 * a time it cannot read) is set aside with the server's reason, never lost, so the ones after it go.
 */
async function sendWaiting<T extends { IdMarca: string }>(
  device: Enrolled,
  url: string,
  waiting: {
    take(limit: number): Promise<T[]>;
    setAside(id: string, reason: string): Promise<void>;
    forget(ids: string[]): Promise<void>;
    /** The ids the server's answer says it has. */
    received(result: unknown): string[];
  },
): Promise<{ sent: number; problem?: SyncProblem }> {
  let sent = 0;
  try {
    for (;;) {
      const items = await waiting.take(BATCH);
      if (!items.length) return { sent };
      const response = await deviceFetch(device, url, {
        method: 'POST',
        body: JSON.stringify({ Marcas: items }),
      });
      if (response.status === 401) return { sent, problem: 'keyRefused' };
      if (response.status === 400) {
        const refusal = (await response.json().catch(() => ({}))) as {
          message?: string;
          params?: { item?: string | number };
        };
        const item = items[Number(refusal.params?.item)];
        if (!item) return { sent, problem: 'server' };
        await waiting.setAside(item.IdMarca, refusal.message ?? '');
        continue;
      }
      if (!response.ok) return { sent, problem: 'server' };
      const { result } = (await response.json()) as { result: unknown };
      const ids = waiting.received(result);
      await waiting.forget(ids);
      sent += ids.length;
    }
  } catch {
    return { sent, problem: 'network' };
  }
}

/** Sends the markings decided offline (`POST /api/acceso/marcaciones`). */
export const sendMarks = (device: Enrolled) =>
  sendWaiting(device, '/api/acceso/marcaciones', {
    take: (limit) => store.marks(limit),
    setAside: (id, reason) => store.refuseMark(id, reason),
    forget: (ids) => store.removeMarks(ids),
    received: (result) => (result as { markings: Array<{ IdMarca: string }> }).markings.map((m) => m.IdMarca),
  });

/** Sends the meals judged offline (`POST /api/comedor/marcaciones`). */
export const sendMeals = (device: Enrolled) =>
  sendWaiting(device, '/api/comedor/marcaciones', {
    take: (limit) => store.meals(limit),
    setAside: (id, reason) => store.refuseMeal(id, reason),
    forget: (ids) => store.removeMeals(ids),
    received: (result) => (result as { consumos: Array<{ IdMarca: string }> }).consumos.map((m) => m.IdMarca),
  });
