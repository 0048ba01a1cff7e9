import type { Direction } from '../../shared/access/decision.js';
import { decideOffline, doorFor, type IndexedList, type Reading } from './offline.js';
import type { Shown } from './parts.js';
import { type Enrolled, store } from './store.js';
import { publicKeyOf } from './sync.js';

/**
 * A passage at the gate, decided here from the signed list with no network: the answer as the
 * guard sees it, and the marking kept to be sent when the decision makes one (marked).
 */
export async function passGate(
  device: Enrolled,
  indexed: IndexedList,
  reading: Reading,
  direction: Direction,
  at: Date,
  driver?: Reading,
): Promise<{ shown: Shown; marked: boolean }> {
  const answer = await decideOffline(indexed, reading, direction, at, await publicKeyOf(device), driver);
  const door = doorFor(indexed.list, direction);
  const shown: Shown = { ...answer, direction, door: door?.Descripcion ?? '', at };
  if (!answer.marking || !door) return { shown, marked: false };
  await store.addMark({
    IdMarca: crypto.randomUUID(),
    IdPuerta: door.IdPuerta,
    Funcion: direction,
    FechaHora: at.toISOString(),
    Resultado: answer.allow ? 'P' : 'D',
    ...answer.marking,
  });
  return { shown, marked: true };
}
