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
import type { Reading } from './offline.js';
import { type Enrolled, store } from './store.js';
import { askMeal, publicKeyOf } from './sync.js';

/** What serving one presentation came to: the answer, and what the app shows of the device besides. */
export interface Served {
  answer: MealAnswer;
  /** The server refused the device's key (revoked, rotated): it must be enrolled again. */
  keyRefused: boolean;
  /** The server answered. */
  online: boolean;
  /** The presentations waiting to be sent, when this one joined them. */
  pending?: number;
}

/**
 * A meal: asked to the server while there is a network (it writes the consumption), else judged
 * here from the badge's token and kept to be sent. Every presentation gets an answer and is
 * recorded; the sitting's counts are kept so the reader goes on counting right offline.
 */
export async function serveMeal(
  device: Enrolled,
  room: ReaderRoom,
  reader: ReaderData,
  reading: Reading,
  at: Date,
  language: string,
): Promise<Served> {
  const presentation = {
    IdMarca: crypto.randomUUID(),
    IdComedor: room.IdComedor,
    FechaHora: at.toISOString(),
    ...presentedOf(reading),
  };
  const publicKey = await publicKeyOf(device);
  const counts = (await store.setting<Record<string, number>>('served')) ?? {};
  const asked = navigator.onLine ? await askMeal(device, presentation, language) : undefined;
  const keyRefused = asked === 'keyRefused';
  if (asked && asked !== 'keyRefused') {
    // The server's count of the sitting, so the reader goes on counting right if the network drops.
    if (asked.allow && asked.service && asked.used && reading.kind === 'token') {
      const card = await verifyToken(reading.token, publicKey);
      if (card.ok) {
        counts[servedKey(card.claims.Numero, asked.service.IdServicio, asked.service.Fecha)] =
          asked.used.used;
        await store.setSetting('served', prunedCounts(counts, asked.service.Fecha));
      }
    }
    return { answer: asked, keyRefused, online: true };
  }
  const { answer, counted } = await decideMealOffline(reader, room, reading, at, publicKey, counts);
  await store.addMeal({ ...presentation, Resultado: answer.allow ? 'P' : 'D' });
  if (counted && answer.service) {
    counts[counted] = (counts[counted] ?? 0) + 1;
    await store.setSetting('served', prunedCounts(counts, answer.service.Fecha));
  }
  return { answer, keyRefused, online: false, pending: await store.pendingCount() };
}
