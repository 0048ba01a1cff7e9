import { verifyingKey } from '../../shared/badge-token.js';
import type { MealAnswer, PendingMeal, ReaderData } from './dining.js';
import { type AllowList, applyPayload, type Payload, payloadGenuine } from './offline.js';
import { type Enrolled, store } from './store.js';

/** Why talking to the server failed: no network, the key refused (enrol again), a list not genuine. */
export type SyncProblem = 'network' | 'keyRefused' | 'signature' | 'server';

const BATCH = 500;

const deviceFetch = (device: Enrolled, url: string, init: RequestInit = {}) =>
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

/** Sends the markings waiting, oldest first, and forgets each once the server has it. */
export async function sendMarks(device: Enrolled): Promise<{ sent: number; problem?: SyncProblem }> {
  let sent = 0;
  try {
    for (;;) {
      const marks = await store.marks(BATCH);
      if (!marks.length) return { sent };
      const response = await deviceFetch(device, '/api/acceso/marcaciones', {
        method: 'POST',
        body: JSON.stringify({ Marcas: marks }),
      });
      if (response.status === 401) return { sent, problem: 'keyRefused' };
      if (response.status === 400) {
        // A marking the server can never take (its door left the division, a time it cannot read):
        // set aside with the server's reason, never lost, so the ones after it still go.
        const refusal = (await response.json().catch(() => ({}))) as {
          message?: string;
          params?: { item?: string | number };
        };
        const item = marks[Number(refusal.params?.item)];
        if (!item) return { sent, problem: 'server' };
        await store.refuseMark(item.IdMarca, refusal.message ?? '');
        continue;
      }
      if (!response.ok) return { sent, problem: 'server' };
      const { result } = (await response.json()) as { result: { markings: Array<{ IdMarca: string }> } };
      await store.removeMarks(result.markings.map((m) => m.IdMarca));
      sent += result.markings.length;
    }
  } catch {
    return { sent, problem: 'network' };
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

/** Sends the meals judged offline, oldest first, and forgets each once the server has it. */
export async function sendMeals(device: Enrolled): Promise<{ sent: number; problem?: SyncProblem }> {
  let sent = 0;
  try {
    for (;;) {
      const meals = await store.meals(BATCH);
      if (!meals.length) return { sent };
      const response = await deviceFetch(device, '/api/comedor/marcaciones', {
        method: 'POST',
        body: JSON.stringify({ Marcas: meals }),
      });
      if (response.status === 401) return { sent, problem: 'keyRefused' };
      if (response.status === 400) {
        // One the server can never take (its room no longer this reader's): set aside with the reason.
        const refusal = (await response.json().catch(() => ({}))) as {
          message?: string;
          params?: { item?: string | number };
        };
        const item = meals[Number(refusal.params?.item)];
        if (!item) return { sent, problem: 'server' };
        await store.refuseMeal(item.IdMarca, refusal.message ?? '');
        continue;
      }
      if (!response.ok) return { sent, problem: 'server' };
      const { result } = (await response.json()) as { result: { consumos: Array<{ IdMarca: string }> } };
      await store.removeMeals(result.consumos.map((m) => m.IdMarca));
      sent += result.consumos.length;
    }
  } catch {
    return { sent, problem: 'network' };
  }
}
