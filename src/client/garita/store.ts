import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import type { Language } from '../../shared/constants.js';
import type { BoardingReason, SignedManifest } from '../../shared/transport.js';
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

/** The manifest this door holds, as signed, and whom it boarded. */
export interface HeldManifest {
  payload: string;
  signature: string;
  manifest: SignedManifest;
  boarded: number[];
}

/** A reading at the door waiting to be sent (POST /api/transporte/bus/viajes/:id/abordajes). */
export interface PendingBoarding {
  IdMarca: string;
  IdViaje: number;
  Credencial: string;
  FechaHora: string;
  Resultado: 'P' | 'D';
  Motivo: BoardingReason;
  Excepcion?: string;
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
  refused: {
    key: string;
    value:
      | RefusedMark
      | (PendingMeal & { Motivo: string })
      | (Omit<PendingBoarding, 'Motivo'> & { Motivo: string });
  };
  meals: { key: string; value: PendingMeal; indexes: { byTime: string } };
  boardings: { key: string; value: PendingBoarding; indexes: { byTime: string } };
}

/** What the device serves: a control point's doors, a dining room's reader, or the door of a bus. */
export type Mode = 'gate' | 'dining' | 'bus';

let opened: Promise<IDBPDatabase<GateDb>> | undefined;
const db = () => {
  opened ??= openDB<GateDb>('garita', 4, {
    upgrade(database, from) {
      if (from < 1) {
        database.createObjectStore('settings');
        database.createObjectStore('marks', { keyPath: 'IdMarca' }).createIndex('byTime', 'FechaHora');
      }
      if (from < 2) database.createObjectStore('refused', { keyPath: 'IdMarca' });
      if (from < 3)
        database.createObjectStore('meals', { keyPath: 'IdMarca' }).createIndex('byTime', 'FechaHora');
      if (from < 4)
        database.createObjectStore('boardings', { keyPath: 'IdMarca' }).createIndex('byTime', 'FechaHora');
    },
  });
  return opened;
};

type Waiting = 'marks' | 'meals' | 'boardings';

/** Moves a waiting marking or meal aside, with the server's reason, so the others can go. */
async function setAside(from: Waiting, id: string, reason: string) {
  const tx = (await db()).transaction([from, 'refused'], 'readwrite');
  const item = await tx.objectStore(from).get(id);
  if (item) {
    await tx.objectStore('refused').put({ ...item, Motivo: reason });
    await tx.objectStore(from).delete(id);
  }
  await tx.done;
}

/** Forgets waiting markings or meals the server has. */
async function forget(from: Waiting, ids: string[]) {
  const tx = (await db()).transaction(from, 'readwrite');
  await Promise.all([...ids.map((id) => tx.store.delete(id)), tx.done]);
}

export const store = {
  refuseMark: (id: string, reason: string) => setAside('marks', id, reason),
  refuseMeal: (id: string, reason: string) => setAside('meals', id, reason),
  removeMarks: (ids: string[]) => forget('marks', ids),
  removeMeals: (ids: string[]) => forget('meals', ids),
  refuseBoarding: (id: string, reason: string) => setAside('boardings', id, reason),
  removeBoardings: (ids: string[]) => forget('boardings', ids),
  async addBoarding(boarding: PendingBoarding) {
    await (await db()).put('boardings', boarding);
  },
  async boardings(limit: number) {
    return (await db()).getAllFromIndex('boardings', 'byTime', undefined, limit);
  },
  /** The trip's manifest this door holds (bus mode), with whom it boarded. */
  async manifest() {
    return (await (await db()).get('settings', 'bus')) as HeldManifest | undefined;
  },
  async setManifest(held: HeldManifest | undefined) {
    const database = await db();
    if (held) await database.put('settings', held, 'bus');
    else await database.delete('settings', 'bus');
  },
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
  /** Markings and meals waiting to be sent. */
  async pendingCount() {
    const database = await db();
    return (
      (await database.count('marks')) + (await database.count('meals')) + (await database.count('boardings'))
    );
  },
  async addMark(mark: PendingMark) {
    await (await db()).put('marks', mark);
  },
  async marks(limit: number) {
    return (await db()).getAllFromIndex('marks', 'byTime', undefined, limit);
  },
  async refusedCount() {
    return (await db()).count('refused');
  },
};
