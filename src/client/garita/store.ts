import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import type { Language } from '../../shared/constants.js';
import type { PendingMeal } from './dining.js';
import type { AllowList } from './offline.js';

/** What an enrolment handed this device: its key, equipment, control points and the server's public key. */
export interface Enrolled {
  key: string;
  equipment: { IdEquipo: number; Descripcion: string; Funcion: 'E' | 'S' | 'A' };
  controlPoints: Array<{ IdPuntoControl: number; Descripcion: string }>;
  publicKey: string;
  /** The control point this device serves (the first unless the guard picked another). */
  IdPuntoControl: number;
}

/** A marking decided offline, waiting to be sent (`POST /api/acceso/marcaciones`). */
export interface PendingMark {
  IdMarca: string;
  IdPuerta: number;
  Funcion: 'E' | 'S';
  FechaHora: string;
  Resultado: 'P' | 'D';
  Credencial?: string;
  Documento?: string;
  Placa?: string;
}

/** A marking the server refused as malformed (it can never take it): kept aside with its reason. */
export interface RefusedMark extends PendingMark {
  Motivo: string;
}

interface GateDb extends DBSchema {
  settings: { key: string; value: unknown };
  marks: { key: string; value: PendingMark; indexes: { byTime: string } };
  refused: { key: string; value: RefusedMark | (PendingMeal & { Motivo: string }) };
  meals: { key: string; value: PendingMeal; indexes: { byTime: string } };
}

/** What the device serves: a control point's doors, or a dining room's reader. */
export type Mode = 'gate' | 'dining';

let opened: Promise<IDBPDatabase<GateDb>> | undefined;
const db = () => {
  opened ??= openDB<GateDb>('garita', 3, {
    upgrade(database, from) {
      if (from < 1) {
        database.createObjectStore('settings');
        database.createObjectStore('marks', { keyPath: 'IdMarca' }).createIndex('byTime', 'FechaHora');
      }
      if (from < 2) database.createObjectStore('refused', { keyPath: 'IdMarca' });
      if (from < 3)
        database.createObjectStore('meals', { keyPath: 'IdMarca' }).createIndex('byTime', 'FechaHora');
    },
  });
  return opened;
};

export const store = {
  async enrolled() {
    return (await (await db()).get('settings', 'device')) as Enrolled | undefined;
  },
  async setEnrolled(device: Enrolled | undefined) {
    const database = await db();
    if (device) await database.put('settings', device, 'device');
    else await database.delete('settings', 'device');
  },
  async list() {
    return (await (await db()).get('settings', 'list')) as AllowList | undefined;
  },
  async setList(list: AllowList | undefined) {
    const database = await db();
    if (list) await database.put('settings', list, 'list');
    else await database.delete('settings', 'list');
  },
  async language() {
    return (await (await db()).get('settings', 'language')) as Language | undefined;
  },
  async setLanguage(language: Language) {
    await (await db()).put('settings', language, 'language');
  },
  /** A setting of this device (the reader's rooms, the meals it counted, its mode and room). */
  async setting<T>(key: 'reader' | 'served' | 'mode' | 'room'): Promise<T | undefined> {
    return (await (await db()).get('settings', key)) as T | undefined;
  },
  async setSetting(key: 'reader' | 'served' | 'mode' | 'room', value: unknown) {
    const database = await db();
    if (value === undefined) await database.delete('settings', key);
    else await database.put('settings', value, key);
  },
  async addMeal(meal: PendingMeal) {
    await (await db()).put('meals', meal);
  },
  async meals(limit: number) {
    return (await db()).getAllFromIndex('meals', 'byTime', undefined, limit);
  },
  /** Moves a waiting meal aside, with the server's reason, so the others can go. */
  async refuseMeal(id: string, reason: string) {
    const tx = (await db()).transaction(['meals', 'refused'], 'readwrite');
    const meal = await tx.objectStore('meals').get(id);
    if (meal) {
      await tx.objectStore('refused').put({ ...meal, Motivo: reason });
      await tx.objectStore('meals').delete(id);
    }
    await tx.done;
  },
  async removeMeals(ids: string[]) {
    const tx = (await db()).transaction('meals', 'readwrite');
    await Promise.all([...ids.map((id) => tx.store.delete(id)), tx.done]);
  },
  /** Markings and meals waiting to be sent. */
  async pendingCount() {
    const database = await db();
    return (await database.count('marks')) + (await database.count('meals'));
  },
  async addMark(mark: PendingMark) {
    await (await db()).put('marks', mark);
  },
  async marks(limit: number) {
    return (await db()).getAllFromIndex('marks', 'byTime', undefined, limit);
  },
  /** Moves a waiting marking aside, with the server's reason, so the others can go. */
  async refuseMark(id: string, reason: string) {
    const tx = (await db()).transaction(['marks', 'refused'], 'readwrite');
    const mark = await tx.objectStore('marks').get(id);
    if (mark) {
      await tx.objectStore('refused').put({ ...mark, Motivo: reason });
      await tx.objectStore('marks').delete(id);
    }
    await tx.done;
  },
  async refusedCount() {
    return (await db()).count('refused');
  },
  async removeMarks(ids: string[]) {
    const tx = (await db()).transaction('marks', 'readwrite');
    await Promise.all([...ids.map((id) => tx.store.delete(id)), tx.done]);
  },
};
