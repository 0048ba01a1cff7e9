import type { Db } from '../../db/connection.js';
import { t } from '../../i18n.js';
import {
  type Credential,
  type Decision,
  type Direction,
  decide,
  type Holder,
  markingClock,
  type Presented,
  type SiteAccess,
} from './decision.js';
import type { Device } from './device-keys.js';
import { type LoadedDoor, loadDoor, loadHolder, loadSite } from './loader.js';
import { ACCESS_TABLES } from './tables.js';

/** One presentation at a door, as a device reports it. */
export interface Presentation {
  door: LoadedDoor;
  timeZone: string;
  presented: Presented;
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
  decision: Decision;
  direction: Direction;
  /** Undefined when the device had sent this marking already (same equipment and device id). */
  IdMarcacion?: number;
  duplicate: boolean;
}

const holderKey = (holder: Holder) =>
  holder.kind === 'person' ? `P:${holder.person.IdPersona}` : `V:${holder.vehicle.IdVehiculo}`;

const MARKING_TYPE = { credential: 'C', document: 'T', plate: 'V' } as const;

/** The door's site data (door, time zone) or undefined when the door is not the device's division. */
export async function doorOfDevice(db: Db, device: Device, doorId: number) {
  const found = await loadDoor(db, doorId);
  if (!found || found.door.IdCliente !== device.IdCliente || found.door.IdDivision !== device.IdDivision)
    return undefined;
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
  abort: () => boolean = () => false,
  siteOf: (clientId: number, divisionId: number) => Promise<SiteAccess> = (c, d) => loadSite(db, c, d),
  writer?: DecisionWriter,
): Promise<Recorded> {
  const { door } = p;
  const [loaded, site] = await Promise.all([
    loadHolder(db, door.IdCliente, door.IdDivision, p.presented),
    siteOf(door.IdCliente, door.IdDivision),
  ]);
  if (writer) return writer.record({ device, p, loaded, site, abort });
  return recordAlone(db, { device, p, loaded, site, abort });
}

/** A decision ready to be written: the presentation, what was read for it, and whether its caller still waits. */
export interface Pending {
  device: Device;
  p: Presentation;
  loaded: { credential?: Credential; holder?: Holder };
  site: SiteAccess;
  abort: () => boolean;
}

class Abandoned extends Error {
  constructor() {
    super('decision abandoned: the reader stopped waiting');
  }
}

type RecordOne = typeof recordIn;

/** One decision in its own transaction, rolled back if its caller stopped waiting. */
async function recordAlone(db: Db, job: Pending, recordOne: RecordOne = recordIn): Promise<Recorded> {
  return db.transaction().execute(async (trx) => {
    const recorded = await recordOne(trx, job.device, job.p, job.loaded, job.site);
    if (job.abort()) throw new Abandoned();
    return recorded;
  });
}

/**
 * Group commit for the gate's decisions. A commit waits for the disk (a sync of the log), and one
 * decision per commit holds the gates to the number of syncs the disk does a second. Decisions
 * that arrive while a commit is under way wait for the next transaction and are written in it
 * together, one after the other as they came; each caller is answered only once that transaction
 * has committed, so nothing is acknowledged before it is durable. When the shared transaction fails
 * (one decision's write failed, or a reader stopped waiting before the commit), nothing of it was
 * kept and each of its decisions is written again on its own, so one cannot spoil the others.
 * `lanes` transactions may be open at once (one on SQLite, whose single connection serialises
 * them anyway; a few on PostgreSQL's pool).
 */
export class DecisionWriter {
  private readonly queue: Array<Pending & { resolve: (r: Recorded) => void; reject: (e: unknown) => void }> =
    [];
  private open = 0;
  /** Transactions committed, and the decisions they held. */
  readonly stats = { commits: 0, decisions: 0 };

  constructor(
    private readonly db: Db,
    private readonly lanes = 1,
    private readonly maxBatch = 100,
    private readonly recordOne: RecordOne = recordIn,
  ) {}

  record(job: Pending): Promise<Recorded> {
    return new Promise<Recorded>((resolve, reject) => {
      this.queue.push({ ...job, resolve, reject });
      this.schedule();
    });
  }

  /**
   * A transaction starts on the next turn of the event loop, not at once: the decisions whose
   * requests were read in the same turn join it. (On SQLite the driver is synchronous and a commit
   * holds the event loop, so nothing could join a transaction once it has started.)
   */
  private scheduled = false;
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.drain();
    });
  }

  private drain(): void {
    while (this.open < this.lanes && this.queue.length) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.open++;
      void this.write(batch).finally(() => {
        this.open--;
        this.schedule();
      });
    }
  }

  private async write(batch: typeof this.queue): Promise<void> {
    // A reader that already gave up is not written at all.
    const live = batch.filter((job) => {
      if (!job.abort()) return true;
      job.reject(new Abandoned());
      return false;
    });
    if (!live.length) return;
    if (live.length > 1) {
      try {
        const results = await this.db.transaction().execute(async (trx) => {
          const out: Recorded[] = [];
          for (const job of live)
            out.push(await this.recordOne(trx, job.device, job.p, job.loaded, job.site));
          if (live.some((job) => job.abort())) throw new Abandoned();
          return out;
        });
        this.stats.commits++;
        this.stats.decisions += live.length;
        live.forEach((job, i) => {
          job.resolve(results[i]);
        });
        return;
      } catch {
        // Nothing of the shared transaction was kept: each decision again, on its own.
      }
    }
    for (const job of live) {
      try {
        job.resolve(await recordAlone(this.db, job, this.recordOne));
        this.stats.commits++;
        this.stats.decisions++;
      } catch (error) {
        job.reject(error);
      }
    }
  }
}

/** Decides and writes one marking (and the presence it moves) inside the caller's transaction. */
export async function recordIn(
  trx: Db,
  device: Device,
  p: Presentation,
  { credential, holder }: { credential?: Credential; holder?: Holder },
  site: SiteAccess,
): Promise<Recorded> {
  const { door } = p;
  {
    let direction = p.direction ?? (door.Sentido !== 'A' ? door.Sentido : undefined);
    if (!direction && device.Funcion !== 'A') direction = device.Funcion;
    if (!direction) {
      // In when the holder's last allowed marking before this instant, in this division, was not an
      // entry into this door's zone. The presence row answers for a marking newer than it; an older
      // one (a batch arriving late) asks the markings.
      let last: { IdZona: unknown; Funcion: unknown } | undefined;
      if (holder) {
        const current = await trx
          .selectFrom(ACCESS_TABLES.presence)
          .select(['IdZona', 'Funcion', 'Instante'])
          .where('IdDivision', '=', door.IdDivision)
          .where('Titular', '=', holderKey(holder))
          .executeTakeFirst();
        if (current && Number(current.Instante) <= p.at.getTime()) last = current;
        else if (current) {
          const column = holder.kind === 'person' ? 'IdPersona' : 'IdVehiculo';
          const id = holder.kind === 'person' ? holder.person.IdPersona : holder.vehicle.IdVehiculo;
          last = await trx
            .selectFrom(ACCESS_TABLES.marking)
            .select(['IdZona', 'Funcion'])
            .where('IdCliente', '=', door.IdCliente)
            .where('IdDivision', '=', door.IdDivision)
            .where(column, '=', id)
            .where('Resultado', '=', 'P')
            .where('HoraDudosa', '=', 'N')
            .where('FechaHora', '<', p.at.toISOString())
            .orderBy('FechaHora', 'desc')
            .limit(1)
            .executeTakeFirst();
        }
      }
      direction = last?.Funcion === 'E' && Number(last.IdZona) === door.IdZona ? 'S' : 'E';
    }
    const decision = decide({
      door,
      direction,
      at: p.at,
      timeZone: p.timeZone,
      presented: p.presented,
      credential,
      holder,
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
    const now = new Date().toISOString();
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
      FechaCreacion: now,
    };
    const inserted = await trx
      .insertInto(ACCESS_TABLES.marking)
      .values(values)
      .onConflict((oc) => oc.columns(['IdEquipo', 'IdMarcaDispositivo']).doNothing())
      .returning('IdMarcacion')
      .executeTakeFirst();
    if (!inserted) return { decision, direction, duplicate: true };
    const IdMarcacion = Number(inserted.IdMarcacion);
    // Presence follows what actually happened at the gate, newest instant first; a doubtful time
    // would pin a holder in place, so it moves nothing.
    if (holder && result === 'P' && !p.doubtful) {
      const instant = p.at.getTime();
      // Leaving a zone inside another (the camp inside the mine) is being back in the outer one.
      const outer =
        direction === 'S' ? site.zones.find((z) => z.IdZona === door.IdZona)?.IdZonaPadre : undefined;
      const zone = outer ?? door.IdZona;
      const state = outer != null ? 'E' : direction;
      await trx
        .insertInto(ACCESS_TABLES.presence)
        .values({
          IdDivision: door.IdDivision,
          Titular: holderKey(holder),
          IdCliente: door.IdCliente,
          IdPersona: values.IdPersona,
          IdVehiculo: values.IdVehiculo,
          IdZona: zone,
          IdPuerta: door.IdPuerta,
          Funcion: state,
          Instante: instant,
          IdMarcacion,
        })
        .onConflict((oc) =>
          oc
            .columns(['IdDivision', 'Titular'])
            .doUpdateSet({
              IdZona: zone,
              IdPuerta: door.IdPuerta,
              Funcion: state,
              Instante: instant,
              IdMarcacion,
            })
            .where(`${ACCESS_TABLES.presence}.Instante`, '<=', instant),
        )
        .execute();
    }
    return { decision, direction, IdMarcacion, duplicate: false };
  }
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
 * The division's access configuration (profiles, groups, schedules, zones) kept for SITE_CACHE_MS:
 * it changes seldom and is half of a decision's reads. A change in the console reaches the gates
 * within two seconds; a failed load is not kept.
 */
export function siteCache(db: Db, now: () => number = Date.now) {
  const kept = new Map<string, { until: number; site: Promise<SiteAccess> }>();
  return (clientId: number, divisionId: number): Promise<SiteAccess> => {
    const key = `${clientId}:${divisionId}`;
    const entry = kept.get(key);
    if (entry && entry.until > now()) return entry.site;
    const site = loadSite(db, clientId, divisionId);
    kept.set(key, { until: now() + SITE_CACHE_MS, site });
    site.catch(() => kept.delete(key));
    return site;
  };
}
