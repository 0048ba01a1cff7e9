import { sql } from 'kysely';
import {
  type Decision,
  type Direction,
  decide,
  type Holder,
  markingClock,
  type Presented,
  type ReasonCode,
  reasonMessageKey,
  type SiteAccess,
} from '../../../shared/access/decision.js';
import { type Creator, type Db, isPostgres } from '../../db/connection.js';
import { GroupCommit } from '../../db/group-commit.js';
import { ttlCache } from '../../db/ttl-cache.js';
import { t } from '../../i18n.js';
import type { Device } from '../../services/site/device-keys.js';
import {
  type Loaded,
  type LoadedDoor,
  loadDoor,
  loadDoors,
  loadDriver,
  loadHolder,
  loadHolders,
  loadSite,
  type QualificationSource,
} from '../../services/site/loader.js';
import { ACCESS_TABLES, markedDays, markedDaysUpsert, noteMarkedDays } from '../../services/site/tables.js';

/** One presentation at a door, as a device reports it. */
export interface Presentation {
  door: LoadedDoor;
  timeZone: string;
  presented: Presented;
  /** With a vehicle, its driver's card number or document, when the device read one. */
  driver?: string;
  /** Given by the device, else from the door or the equipment, else inferred from the holder's presence. */
  direction?: Direction;
  /** The corrected instant. */
  at: Date;
  deviceAt?: Date;
  deviceMarkId?: string;
  doubtful: boolean;
  online: boolean;
  /** What an offline device already did (P let through, D refused); recorded over the server's view. */
  deviceResult?: 'P' | 'D';
}

export interface Recorded {
  /** The server's view of the presentation; `result` may differ when an offline device decided. */
  decision: Decision;
  direction: Direction;
  /** What the stored marking says happened: P let through, D refused. */
  result: 'P' | 'D';
  /** Undefined when the device had sent this marking already (same equipment and device id). */
  IdMarcacion?: number;
  duplicate: boolean;
}

const holderKey = (holder: Holder) =>
  holder.kind === 'person' ? `P:${holder.person.IdPersona}` : `V:${holder.vehicle.IdVehiculo}`;

const MARKING_TYPE = { credential: 'C', document: 'T', plate: 'V' } as const;

/**
 * The door's site data (door, time zone) or undefined when the door is not the device's division,
 * kept as the division's access configuration is (SITE_CACHE_MS): a decision does not read it.
 */
export function doorCache(db: Db, now: () => number = Date.now) {
  const load = ttlCache((doorId: number) => loadDoor(db, doorId), SITE_CACHE_MS, now);
  return async (device: Device, doorId: number) => {
    const found = await load(doorId);
    if (found?.door.IdCliente !== device.IdCliente || found.door.IdDivision !== device.IdDivision) return;
    return found;
  };
}

/** Several doors in one statement: the device's doors among them (its division's), by id. */
export async function doorsOfDevice(db: Db, device: Device, doorIds: number[]) {
  const found = await loadDoors(db, doorIds);
  for (const [id, { door }] of found)
    if (door.IdCliente !== device.IdCliente || door.IdDivision !== device.IdDivision) found.delete(id);
  return found;
}

/**
 * Decides one presentation and writes its marking and the holder's presence in one transaction,
 * so the answer is given only once it is durable. `abort` is asked just before the commit: a
 * decision whose caller gave up (the reader's budget ran out) is rolled back.
 */
export async function decideAndRecord(
  db: Db,
  device: Device,
  p: Presentation,
  abort: () => boolean,
  siteOf: (clientId: number, divisionId: number) => Promise<SiteAccess>,
  qualifications: readonly QualificationSource[],
  writer: DecisionWriter,
): Promise<Recorded> {
  const { door } = p;
  const [loaded, site, driver] = await Promise.all([
    loadHolder(db, door.IdCliente, door.IdDivision, p.presented, qualifications),
    siteOf(door.IdCliente, door.IdDivision),
    p.driver ? loadDriver(db, door.IdCliente, p.driver) : undefined,
  ]);
  return writer.record({ device, p, loaded: driver ? { ...loaded, driver } : loaded, site, abort });
}

/** A decision ready to be written: the presentation, what was read for it, and whether its caller still waits. */
export interface Pending {
  device: Device;
  p: Presentation;
  loaded: Loaded;
  site: SiteAccess;
  abort: () => boolean;
}

type RecordOne = typeof recordIn;

/** The gate's group commit: decisions written together, each answered once its transaction committed. */
export class DecisionWriter extends GroupCommit<Pending, Recorded> {
  constructor(db: Db, lanes = 1, maxBatch = 100, recordOne: RecordOne = recordIn) {
    super(
      db,
      (trx, job) => recordOne(trx, job.device, job.p, job.loaded, job.site),
      lanes,
      maxBatch,
      // The holders' rows (presence, marked days) taken in one order by every transaction.
      (a, b) =>
        (a.p.door?.IdDivision ?? 0) - (b.p.door?.IdDivision ?? 0) ||
        holderOrder(a.loaded.holder, b.loaded.holder),
    );
  }
}

/** Holders in the order their rows are locked: people before vehicles, each by key. */
function holderOrder(a: Holder | undefined, b: Holder | undefined): number {
  const rank = (h: Holder | undefined): [number, number] =>
    !h ? [0, 0] : h.kind === 'person' ? [1, h.person.IdPersona] : [2, h.vehicle.IdVehiculo];
  const [x, y] = [rank(a), rank(b)];
  return x[0] - y[0] || x[1] - y[1];
}

/** Presence keys ("P:12", "V:3") in the same order as `holderOrder`. */
function titularOrder(a: string, b: string): number {
  return a[0] === b[0] ? Number(a.slice(2)) - Number(b.slice(2)) : a[0] < b[0] ? -1 : 1;
}

/** What a holder's last allowed marking says: the zone and whether it was an entry. */
type Last = { IdZona: unknown; Funcion: unknown } | undefined;

/** A marking decided and ready to be written, with the presence it moves (if any). */
interface Planned {
  decision: Decision;
  direction: Direction;
  values: Record<string, unknown>;
  move?: { holder: string; zone: number; state: Direction; instant: number };
}

/** The direction the device, the door or the equipment says; undefined when it must be inferred. */
function givenDirection(device: Device, p: Presentation): Direction | undefined {
  return (
    p.direction ??
    (p.door.Sentido !== 'A' ? p.door.Sentido : device.Funcion !== 'A' ? device.Funcion : undefined)
  );
}

/**
 * Decides one presentation given the holder's last allowed marking before it (for a direction the
 * device did not say), and builds its marking row and the presence it moves. Pure.
 */
function plan(
  device: Device,
  p: Presentation,
  { credential, holder, driver }: Loaded,
  site: SiteAccess,
  last: Last,
): Planned {
  const { door } = p;
  let direction = givenDirection(device, p);
  // In when the holder's last allowed marking in this division was not an entry into this door's zone.
  if (!direction) direction = last?.Funcion === 'E' && Number(last.IdZona) === door.IdZona ? 'S' : 'E';
  const decision = decide({
    door,
    direction,
    at: p.at,
    timeZone: p.timeZone,
    presented: p.presented,
    credential,
    holder,
    driver,
    site,
  });
  const local = markingClock(p.at, p.timeZone);
  const result = p.deviceResult ?? (decision.allow ? 'P' : 'D');
  const code =
    p.presented.kind === 'credential'
      ? p.presented.Numero
      : p.presented.kind === 'document'
        ? p.presented.Documento
        : p.presented.Placa;
  const values = {
    IdCliente: door.IdCliente,
    IdDivision: door.IdDivision,
    IdPersona: holder?.kind === 'person' ? holder.person.IdPersona : null,
    IdVehiculo: holder?.kind === 'vehicle' ? holder.vehicle.IdVehiculo : null,
    Placa: p.presented.kind === 'plate' ? p.presented.Placa.slice(0, 10) : null,
    Fecha: local.date,
    Hora: local.time,
    Resultado: result,
    Motivo: decision.reason.startsWith('ALLOWED')
      ? null
      : t('es', decision.messageKey, decision.params).toUpperCase().slice(0, 200),
    IdZona: door.IdZona,
    IdPuerta: door.IdPuerta,
    IdEquipo: device.IdEquipo,
    Origen: 'E',
    Funcion: direction,
    TipoMarcacion: MARKING_TYPE[p.presented.kind],
    Automatico: 'S',
    EnLinea: p.online ? 'S' : 'N',
    Observacion: holder ? null : code.slice(0, 500),
    IdMarcaDispositivo: p.deviceMarkId ?? null,
    FechaHoraDispositivo: p.deviceAt?.toISOString() ?? null,
    FechaHora: p.at.toISOString(),
    HoraDudosa: p.doubtful ? 'S' : 'N',
    CodigoMotivo: decision.reason,
    IdUsuarioCreacion: `EQUIPO:${device.IdEquipo}`,
    FechaCreacion: new Date().toISOString(),
  };
  // Presence follows what actually happened at the gate, newest instant first; a doubtful time
  // would pin a holder in place, so it moves nothing.
  if (!holder || result !== 'P' || p.doubtful) return { decision, direction, values };
  // Leaving a zone inside another (the camp inside the mine) is being back in the outer one.
  const outer = direction === 'S' ? site.zones.find((z) => z.IdZona === door.IdZona)?.IdZonaPadre : undefined;
  return {
    decision,
    direction,
    values,
    move: {
      holder: holderKey(holder),
      zone: outer ?? door.IdZona,
      state: outer != null ? 'E' : direction,
      instant: p.at.getTime(),
    },
  };
}

/** Presence rows moved per statement. */
const PRESENCE_UPSERT = 100;

type PresenceRow = Record<string, unknown> & { IdDivision: number; Titular: string };

/** The presence rows the planned markings move, in the order of their keys (so two transactions never wait on each other's rows the other way round). */
function presenceRows(
  rows: Array<{ planned: Planned; IdMarcacion: unknown; door: LoadedDoor }>,
): PresenceRow[] {
  return rows
    .flatMap(({ planned: { move, values }, IdMarcacion, door }) =>
      move
        ? [
            {
              IdDivision: door.IdDivision,
              Titular: move.holder,
              IdCliente: door.IdCliente,
              IdPersona: values.IdPersona as number | null,
              IdVehiculo: values.IdVehiculo as number | null,
              IdZona: move.zone,
              IdPuerta: door.IdPuerta,
              Funcion: move.state,
              Instante: move.instant,
              IdMarcacion,
            },
          ]
        : [],
    )
    .sort((a, b) => a.IdDivision - b.IdDivision || titularOrder(a.Titular, b.Titular));
}

/** The upsert of presence rows, the newest instant winning, on a database or in a `with`. */
function presenceUpsert(qc: Creator, values: PresenceRow[]) {
  return qc
    .insertInto(ACCESS_TABLES.presence)
    .values(values)
    .onConflict((oc) =>
      oc
        .columns(['IdDivision', 'Titular'])
        .doUpdateSet((eb) => ({
          IdZona: eb.ref('excluded.IdZona'),
          IdPuerta: eb.ref('excluded.IdPuerta'),
          Funcion: eb.ref('excluded.Funcion'),
          Instante: eb.ref('excluded.Instante'),
          IdMarcacion: eb.ref('excluded.IdMarcacion'),
        }))
        .where((eb) => eb(`${ACCESS_TABLES.presence}.Instante`, '<=', eb.ref('excluded.Instante'))),
    );
}

/**
 * The presence rows a marking (or a batch's newest marking per holder, one per holder) moves, newest
 * instant winning: a few multi-row upserts.
 */
async function movePresence(
  trx: Db,
  rows: Array<{ planned: Planned; IdMarcacion: number; door: LoadedDoor }>,
): Promise<void> {
  const values = presenceRows(rows);
  for (let i = 0; i < values.length; i += PRESENCE_UPSERT)
    await presenceUpsert(trx, values.slice(i, i + PRESENCE_UPSERT)).execute();
}

/**
 * One online decision's marking, the presence it moves and the day it marks, in one statement
 * (PostgreSQL: the inserts as parts of one `with`): one round trip. The presence takes the
 * marking's new key from the marking's insert.
 */
async function writeAtOnce(trx: Db, planned: Planned, door: LoadedDoor): Promise<number> {
  let query = trx.with('m', (qc) =>
    qc.insertInto(ACCESS_TABLES.marking).values(planned.values).returning('IdMarcacion'),
  );
  const [presence] = presenceRows([{ planned, IdMarcacion: null, door }]);
  if (presence)
    query = query.with('p', (qc) =>
      presenceUpsert(qc, [
        { ...presence, IdMarcacion: sql`(select ${sql.ref('IdMarcacion')} from ${sql.table('m')})` },
      ]),
    );
  const days = markedDays([planned.values]);
  if (days.length) query = query.with('d', (qc) => markedDaysUpsert(qc, days));
  const row = await query.selectFrom('m').select('IdMarcacion').executeTakeFirstOrThrow();
  return Number(row.IdMarcacion);
}

/** A holder's last allowed, trustworthy marking, as stored. */
type Stored = { IdZona: unknown; Funcion: unknown; FechaHora: unknown } | undefined;

/** What `lastMarkingsBefore` is asked: a holder, a door's division and an instant. */
interface LastAsk {
  door: LoadedDoor;
  holder: Holder;
  at: Date;
}

/** Asks of `lastMarkingsBefore` per statement. */
const LAST_PER_STATEMENT = 100;

/**
 * For each ask, the holder's last allowed, trustworthy marking in the door's division before `at`,
 * from the markings: each ask its own query (the newest such marking of the holder), a hundred of
 * them in one statement (`union all`), each row labelled with its ask.
 */
async function lastMarkingsBefore(trx: Db, asks: LastAsk[]): Promise<Stored[]> {
  const out: Stored[] = new Array(asks.length).fill(undefined);
  const one = ({ door, holder, at }: LastAsk, k: number) =>
    trx
      .selectFrom(
        trx
          .selectFrom(ACCESS_TABLES.marking)
          .select([sql<number>`${sql.lit(k)}`.as('Pregunta'), 'IdZona', 'Funcion', 'FechaHora'])
          .where('IdCliente', '=', door.IdCliente)
          .where('IdDivision', '=', door.IdDivision)
          .where(
            holder.kind === 'person' ? 'IdPersona' : 'IdVehiculo',
            '=',
            holder.kind === 'person' ? holder.person.IdPersona : holder.vehicle.IdVehiculo,
          )
          .where('Resultado', '=', 'P')
          .where('HoraDudosa', '=', 'N')
          .where('FechaHora', '<', at.toISOString())
          .orderBy('FechaHora', 'desc')
          .limit(1)
          .as(`p${k}`),
      )
      .selectAll();
  for (let i = 0; i < asks.length; i += LAST_PER_STATEMENT) {
    const chunk = asks.slice(i, i + LAST_PER_STATEMENT);
    let query = one(chunk[0], 0);
    for (let k = 1; k < chunk.length; k++) query = query.unionAll(one(chunk[k], k));
    for (const { Pregunta, ...row } of await query.execute())
      out[i + Number(Pregunta)] = row as NonNullable<Stored>;
  }
  return out;
}

/**
 * The holder's last allowed marking before a presentation, for its direction: the presence row
 * when the presentation is newer than it; for an older one (a batch arriving late), the markings
 * stored before it (`stored`, asked only then), or `own`, the newest of the caller's batch not
 * written yet, whichever is later.
 */
async function lastBefore(
  p: Presentation,
  current: { IdZona: unknown; Funcion: unknown; Instante: number } | undefined,
  stored: () => Promise<Stored>,
  own?: { IdZona: unknown; Funcion: unknown; at: number },
): Promise<Last> {
  if (!current) return undefined;
  const at = p.at.getTime();
  if (current.Instante <= at) return current;
  const before = await stored();
  const ownIsLater =
    own && own.at < at && (!before || new Date(before.FechaHora as string | Date).getTime() < own.at);
  return ownIsLater ? own : before;
}

/** Decides and writes one marking (and the presence it moves) inside the caller's transaction. */
export async function recordIn(
  trx: Db,
  device: Device,
  p: Presentation,
  loaded: Loaded,
  site: SiteAccess,
): Promise<Recorded> {
  const { door } = p;
  const { holder } = loaded;
  let last: Last;
  if (!givenDirection(device, p) && holder) {
    const current = await trx
      .selectFrom(ACCESS_TABLES.presence)
      .select(['IdZona', 'Funcion', 'Instante'])
      .where('IdDivision', '=', door.IdDivision)
      .where('Titular', '=', holderKey(holder))
      .executeTakeFirst();
    last = await lastBefore(
      p,
      current && { ...current, Instante: Number(current.Instante) },
      async () => (await lastMarkingsBefore(trx, [{ door, holder, at: p.at }]))[0],
    );
  }
  const planned = plan(device, p, loaded, site, last);
  // Online, without a mark of the device's own, a marking cannot be sent twice: one statement.
  const IdMarcacion =
    !p.deviceMarkId && isPostgres(trx)
      ? await writeAtOnce(trx, planned, door)
      : await writeApart(trx, planned, door);
  const outcome = {
    decision: planned.decision,
    direction: planned.direction,
    result: planned.values.Resultado as 'P' | 'D',
  };
  return IdMarcacion === undefined
    ? { ...outcome, duplicate: true }
    : { ...outcome, IdMarcacion, duplicate: false };
}

/**
 * The marking, then the presence it moves and the day it marks, each in a statement of its own;
 * nothing but undefined when the device had sent this marking already.
 */
async function writeApart(trx: Db, planned: Planned, door: LoadedDoor): Promise<number | undefined> {
  const inserted = await trx
    .insertInto(ACCESS_TABLES.marking)
    .values(planned.values)
    .onConflict((oc) => oc.columns(['IdEquipo', 'IdMarcaDispositivo']).doNothing())
    .returning('IdMarcacion')
    .executeTakeFirst();
  if (!inserted) return undefined;
  const IdMarcacion = Number(inserted.IdMarcacion);
  await movePresence(trx, [{ planned, IdMarcacion, door }]);
  await noteMarkedDays(trx, [planned.values]);
  return IdMarcacion;
}

/** Markings written per insert statement in a batch. */
const BATCH_INSERT = 100;

/**
 * A device's buffered markings, oldest first, decided and written inside the caller's transaction
 * in few statements: the markings it had sent already, what each presented and its holder's rows
 * (`loadHolders`), and its holders' presence are read once for the whole batch; each marking's
 * direction follows the presence as the batch moves it (the stored markings are asked, all at once,
 * only for those older than their holder's presence), the new markings go in multi-row inserts, and
 * each holder's presence is moved once, by its newest marking. The same outcome as `recordIn` one
 * by one.
 */
export async function recordBatch(
  trx: Db,
  device: Device,
  prepared: Presentation[],
  siteOf: (p: Presentation) => SiteAccess,
  qualifications: readonly QualificationSource[],
): Promise<Recorded[]> {
  const ids = prepared.map((p) => p.deviceMarkId).filter((id): id is string => id !== undefined);
  // The markings this device had sent already, as they were stored: a resent one is answered with them.
  const sent = new Map<string, Omit<Recorded, 'decision'> & { reason: ReasonCode }>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await trx
      .selectFrom(ACCESS_TABLES.marking)
      .select(['IdMarcaDispositivo', 'IdMarcacion', 'Resultado', 'Funcion', 'CodigoMotivo'])
      .where('IdEquipo', '=', device.IdEquipo)
      .where('IdMarcaDispositivo', 'in', ids.slice(i, i + 500))
      .execute();
    for (const row of rows)
      sent.set(String(row.IdMarcaDispositivo), {
        IdMarcacion: Number(row.IdMarcacion),
        result: row.Resultado as 'P' | 'D',
        direction: row.Funcion as Direction,
        reason: row.CodigoMotivo as ReasonCode,
        duplicate: true,
      });
  }

  const loaded = await loadHolders(
    trx,
    prepared.map((p) => ({
      clientId: p.door.IdCliente,
      divisionId: p.door.IdDivision,
      presented: p.presented,
    })),
    qualifications,
  );
  // The drivers read with vehicles (few in a batch), each with their internal licences.
  for (const [i, p] of prepared.entries())
    if (p.driver) loaded[i] = { ...loaded[i], driver: await loadDriver(trx, p.door.IdCliente, p.driver) };
  // The presence of every holder of the batch, by division and holder.
  const presence = new Map<string, { IdZona: unknown; Funcion: unknown; Instante: number }>();
  const keys = new Map<number, Set<string>>();
  prepared.forEach((p, i) => {
    const holder = loaded[i].holder;
    if (!holder) return;
    const set = keys.get(p.door.IdDivision) ?? new Set<string>();
    set.add(holderKey(holder));
    keys.set(p.door.IdDivision, set);
  });
  for (const [division, set] of keys) {
    const list = [...set];
    for (let i = 0; i < list.length; i += 500) {
      const rows = await trx
        .selectFrom(ACCESS_TABLES.presence)
        .select(['Titular', 'IdZona', 'Funcion', 'Instante'])
        .where('IdDivision', '=', division)
        .where('Titular', 'in', list.slice(i, i + 500))
        .execute();
      for (const row of rows)
        presence.set(`${division}:${row.Titular}`, { ...row, Instante: Number(row.Instante) });
    }
  }
  // The stored markings before those older than their holder's presence, asked at once. The batch,
  // oldest first, only moves a presence to an instant no later than the marking at hand, so these
  // are the markings `lastBefore` will ask about; and nothing is written before they are used.
  const older: Array<LastAsk & { index: number }> = [];
  for (const [index, p] of prepared.entries()) {
    const { holder } = loaded[index];
    if (!holder || givenDirection(device, p) || (p.deviceMarkId !== undefined && sent.has(p.deviceMarkId)))
      continue;
    const current = presence.get(`${p.door.IdDivision}:${holderKey(holder)}`);
    if (current && current.Instante > p.at.getTime()) older.push({ door: p.door, holder, at: p.at, index });
  }
  const storedBefore = new Map<number, Stored>();
  (await lastMarkingsBefore(trx, older)).forEach((stored, k) => {
    storedBefore.set(older[k].index, stored);
  });
  const out: Recorded[] = [];
  const planned: Array<{ planned: Planned; door: LoadedDoor; index: number }> = [];
  // Each holder's newest allowed, trustworthy marking of this batch so far (not written yet).
  const ownLast = new Map<string, { IdZona: unknown; Funcion: unknown; at: number }>();
  for (const [index, p] of prepared.entries()) {
    const { holder } = loaded[index];
    const site = siteOf(p);
    // (The caller refuses a batch that repeats a device id, so a marking is never its batch's duplicate.)
    const stored = p.deviceMarkId !== undefined ? sent.get(p.deviceMarkId) : undefined;
    if (stored) {
      const { decision } = plan(device, p, loaded[index], site, undefined);
      const { reason, ...kept } = stored;
      // The server's view as it was when stored (today's may differ: a credential since expired).
      const then: Decision =
        decision.reason === reason
          ? decision
          : { allow: reason.startsWith('ALLOWED'), reason, messageKey: reasonMessageKey(reason) };
      out.push({ ...kept, decision: then });
      continue;
    }
    let last: Last;
    const key = holder ? `${p.door.IdDivision}:${holderKey(holder)}` : '';
    if (!givenDirection(device, p) && holder)
      last = await lastBefore(
        p,
        presence.get(key),
        async () =>
          storedBefore.has(index)
            ? storedBefore.get(index)
            : (await lastMarkingsBefore(trx, [{ door: p.door, holder, at: p.at }]))[0],
        ownLast.get(key),
      );
    const one = plan(device, p, loaded[index], site, last);
    if (holder && one.values.Resultado === 'P' && !p.doubtful)
      ownLast.set(key, { IdZona: one.values.IdZona, Funcion: one.values.Funcion, at: p.at.getTime() });
    planned.push({ planned: one, door: p.door, index });
    out.push({
      decision: one.decision,
      direction: one.direction,
      result: one.values.Resultado as 'P' | 'D',
      duplicate: false,
    });
    const move = one.move;
    const current = presence.get(key);
    if (move && (!current || current.Instante <= move.instant))
      presence.set(key, { IdZona: move.zone, Funcion: move.state, Instante: move.instant });
  }
  // The new markings, a hundred per statement, in order; their ids in the same order.
  const rowsWritten: Array<{ planned: Planned; IdMarcacion: number; door: LoadedDoor }> = [];
  for (let i = 0; i < planned.length; i += BATCH_INSERT) {
    const chunk = planned.slice(i, i + BATCH_INSERT);
    const rows = await trx
      .insertInto(ACCESS_TABLES.marking)
      .values(chunk.map((c) => c.planned.values))
      // Another call of the same device may have written one meanwhile: it stays a duplicate.
      .onConflict((oc) => oc.columns(['IdEquipo', 'IdMarcaDispositivo']).doNothing())
      .returning(['IdMarcacion', 'IdMarcaDispositivo'])
      .execute();
    const byMark = new Map(rows.map((r) => [String(r.IdMarcaDispositivo), Number(r.IdMarcacion)]));
    for (const c of chunk) {
      const IdMarcacion = byMark.get(String(c.planned.values.IdMarcaDispositivo));
      if (IdMarcacion === undefined) {
        out[c.index].duplicate = true;
        continue;
      }
      out[c.index].IdMarcacion = IdMarcacion;
      rowsWritten.push({ planned: c.planned, IdMarcacion, door: c.door });
    }
  }
  // Each holder's presence moved once, by its newest marking of the batch.
  const newest = new Map<string, (typeof rowsWritten)[number]>();
  for (const w of rowsWritten) {
    const move = w.planned.move;
    if (!move) continue;
    const key = `${w.door.IdDivision}:${move.holder}`;
    const kept = newest.get(key);
    if (!kept || (kept.planned.move as NonNullable<Planned['move']>).instant <= move.instant)
      newest.set(key, w);
  }
  await movePresence(trx, [...newest.values()]);
  await noteMarkedDays(
    trx,
    rowsWritten.map((w) => w.planned.values),
  );
  return out;
}

const writers = new WeakMap<Db, DecisionWriter>();

/** The decisions' writer of a database: one per database in a process, so that all its gates share the commits. */
export function decisionWriterOf(db: Db, lanes = 1): DecisionWriter {
  let writer = writers.get(db);
  if (!writer) {
    writer = new DecisionWriter(db, lanes);
    writers.set(db, writer);
  }
  return writer;
}

/** How long a division's access configuration is reused by the gate calls of one server process. */
export const SITE_CACHE_MS = 2_000;

/**
 * The division's access configuration (profiles, groups, schedules, zones, the qualifications its
 * doors require) kept for SITE_CACHE_MS: it changes seldom and is half of a decision's reads. A change
 * in the console reaches the gates within two seconds; a failed load is not kept.
 */
export function siteCache(
  db: Db,
  qualifications: readonly QualificationSource[],
  now: () => number = Date.now,
) {
  return ttlCache(
    (clientId: number, divisionId: number) => loadSite(db, clientId, divisionId, qualifications),
    SITE_CACHE_MS,
    now,
  );
}
