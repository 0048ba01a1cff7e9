import { createHmac, randomBytes } from 'node:crypto';
import type { Database, Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import { Leases } from '../../jobs/leases.js';
import type { Registry } from '../../registry.js';
import type { Transport } from '../../services/https-post.js';
import type { Sealer } from '../../services/sealer.js';
import { WEBHOOK_SECRET_TABLE } from './tables.js';

/** The relay's name in the lease table: one process delivers a client's events at a time. */
export const WEBHOOK_JOB = 'WEBHOOKS';
/** How long a delivery is tried from its event (or from a resend) before it is marked failed. */
export const RETRY_HOURS = 24;
const HOUR_MS = 3_600_000;
const FIRST_WAIT_MS = 30_000;
/** The longest wait between two tries. */
const LONGEST_WAIT_MS = HOUR_MS;
/** Deliveries tried in one pass; a round passes again while there is more due. */
const BATCH = 50;
const PASSES = 20;

/** The events an endpoint asks for, by the flag that names each. */
export const EVENT_FLAGS = {
  granted: 'Otorgada',
  ended: 'Terminada',
  suspended: 'Suspendida',
  reinstated: 'Reactivada',
  moved: 'Trasladada',
  extended: 'Ampliada',
} as const;

/** The wait after the n-th failed try: 30 s, 1 min, 2 min, … at most an hour. */
export function backoffMs(attempts: number): number {
  return Math.min(FIRST_WAIT_MS * 2 ** Math.max(0, attempts - 1), LONGEST_WAIT_MS);
}

/**
 * The signature header of a delivery, as Stripe signs its webhooks: `t=<unix seconds>,v1=<hex>`,
 * the HMAC-SHA256 under the endpoint's secret of the timestamp, a dot and the body exactly as sent.
 */
export function signature(secret: string, body: string, at: number): string {
  const t = Math.floor(at / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/** A delivery due, with its event and the accreditation it concerns as they stand now. */
interface Due {
  IdEntrega: number;
  IdDestino: number;
  IdEvento: number;
  IdAcreditacion: number;
  Evento: string;
  Intentos: number;
  VenceReintento: string;
  Fecha: string;
  Datos: string | null;
  IdEntidad: string;
  IdDivision: number;
  IdCompania: number;
  IdPersona: number | null;
  IdVehiculo: number | null;
  IdContrato: number | null;
  FechaFin: string;
  Estado: string;
}

/** An endpoint as a round sends to it: its address and its secret, opened. */
type Endpoint = { url: string; secret: string };

export interface RoundResult {
  queued: number;
  delivered: number;
  retried: number;
  failed: number;
}

/**
 * Tells other systems what happened to the client's accreditations: reads accreditation's outbox
 * (its events, written in the transaction that changed the accreditation), makes one delivery per
 * endpoint that asks for the event (unique per endpoint and event, so a second pass or another
 * process adds nothing), and sends the due ones in the events' order per accreditation, signed,
 * retried with a growing wait for 24 hours, then failed. A client's round runs under its lease, and
 * each delivery's outcome is written under the lease's fence: one process sends a given event.
 */
export class WebhookRelay {
  private readonly leases: Leases;

  constructor(
    private readonly database: Database,
    private readonly registry: Registry,
    private readonly sealer: Sealer,
    private readonly transport: Transport,
    private readonly now: () => number = Date.now,
    holder?: string,
  ) {
    this.leases = new Leases(database.db, registry, holder, now);
  }

  private table(name: string): string {
    return this.registry.require(name).table;
  }

  private iso(ms = this.now()): string {
    return new Date(ms).toISOString();
  }

  private running: Promise<unknown> = Promise.resolve();

  /**
   * One round over every client with an active endpoint, after the round under way in this process
   * if any (two rounds of one process would hold the same lease at once).
   */
  round(): Promise<RoundResult> {
    const next = this.running.then(() => this.roundOnce());
    this.running = next.catch(() => undefined);
    return next;
  }

  private async roundOnce(): Promise<RoundResult> {
    const total: RoundResult = { queued: 0, delivered: 0, retried: 0, failed: 0 };
    const clients = (await this.database.db
      .selectFrom(this.table('webhook-endpoint'))
      .select('IdCliente')
      .distinct()
      .where('Activo', '=', 'S')
      .execute()) as Array<{ IdCliente: number }>;
    for (const { IdCliente } of clients) {
      const done = await this.leases.hold(IdCliente, WEBHOOK_JOB, (signal) =>
        this.roundOf(Number(IdCliente), signal),
      );
      if (done) for (const key of Object.keys(total) as Array<keyof RoundResult>) total[key] += done[key];
    }
    return total;
  }

  private async roundOf(client: number, signal: AbortSignal): Promise<RoundResult> {
    const result: RoundResult = { queued: await this.fanOut(client), delivered: 0, retried: 0, failed: 0 };
    // Each endpoint read and its secret opened once a round, however many deliveries go to it.
    const endpoints = new Map<number, Promise<Endpoint>>();
    const endpointOf = (id: number) => {
      let endpoint = endpoints.get(id);
      if (!endpoint) {
        endpoint = this.endpointOf(id);
        endpoint.catch(() => undefined);
        endpoints.set(id, endpoint);
      }
      return endpoint;
    };
    for (let pass = 0; pass < PASSES && !signal.aborted; pass++) {
      const due = await this.due(client);
      if (!due.length) break;
      for (const delivery of due) {
        if (signal.aborted) break;
        result[await this.send(client, delivery, endpointOf)]++;
      }
    }
    return result;
  }

  /** Makes the deliveries of the client's recent events for each active endpoint with a secret that asks for them. */
  async fanOut(client: number): Promise<number> {
    const db = this.database.db;
    const endpoints = (await db
      .selectFrom(`${this.table('webhook-endpoint')} as w`)
      .innerJoin(`${WEBHOOK_SECRET_TABLE} as s`, 's.IdDestino', 'w.IdDestino')
      .selectAll('w')
      .where('w.IdCliente', '=', client)
      .where('w.Activo', '=', 'S')
      .where('w.Desde', 'is not', null)
      .execute()) as Array<Record<string, unknown>>;
    const since = this.iso(this.now() - RETRY_HOURS * HOUR_MS);
    let queued = 0;
    for (const endpoint of endpoints) {
      const wanted = Object.entries(EVENT_FLAGS)
        .filter(([, flag]) => endpoint[flag] === 'S')
        .map(([event]) => event);
      if (!wanted.length) continue;
      const from = new Date(endpoint.Desde as string).toISOString();
      const events = (await db
        .selectFrom(`${this.table('accreditation-event')} as e`)
        .select(['e.IdEvento', 'e.IdAcreditacion', 'e.Tipo', 'e.Fecha'])
        .where('e.IdCliente', '=', client)
        .where('e.Tipo', 'in', wanted)
        .where('e.Fecha', '>=', from > since ? from : since)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom(`${this.table('webhook-delivery')} as d`)
                .select('d.IdEntrega')
                .whereRef('d.IdEvento', '=', 'e.IdEvento')
                .where('d.IdDestino', '=', endpoint.IdDestino as number),
            ),
          ),
        )
        .orderBy('e.IdEvento')
        .execute()) as Array<{ IdEvento: number; IdAcreditacion: number; Tipo: string; Fecha: unknown }>;
      for (let i = 0; i < events.length; i += 200) {
        const rows = events.slice(i, i + 200).map((e) => this.deliveryRow(client, endpoint, e));
        const inserted = await db
          .insertInto(this.table('webhook-delivery'))
          .values(rows)
          .onConflict((oc) => oc.columns(['IdDestino', 'IdEvento']).doNothing())
          .executeTakeFirst();
        queued += Number(inserted.numInsertedOrUpdatedRows ?? 0);
      }
    }
    return queued;
  }

  private deliveryRow(
    client: number,
    endpoint: Record<string, unknown>,
    event: { IdEvento: number; IdAcreditacion: number; Tipo: string; Fecha: unknown },
  ) {
    const at = new Date(event.Fecha as string).getTime();
    return {
      IdCliente: client,
      IdDestino: endpoint.IdDestino as number,
      IdEvento: Number(event.IdEvento),
      IdAcreditacion: Number(event.IdAcreditacion),
      Evento: event.Tipo,
      Estado: 'P',
      Intentos: 0,
      FechaEvento: this.iso(at),
      ProximoIntento: this.iso(),
      VenceReintento: this.iso(at + RETRY_HOURS * HOUR_MS),
      IdUsuarioCreacion: 'SISTEMA',
      FechaCreacion: this.iso(),
    };
  }

  /**
   * The pending deliveries whose time has come and that come first for their accreditation at their
   * endpoint (an earlier event still pending holds the later ones back: they are told in order).
   */
  private async due(client: number): Promise<Due[]> {
    const table = this.table('webhook-delivery');
    return (await this.database.db
      .selectFrom(`${table} as d`)
      .innerJoin(`${this.table('accreditation-event')} as e`, 'e.IdEvento', 'd.IdEvento')
      .innerJoin(`${this.table('accreditation')} as a`, 'a.IdAcreditacion', 'd.IdAcreditacion')
      .select([
        'd.IdEntrega',
        'd.IdDestino',
        'd.IdEvento',
        'd.IdAcreditacion',
        'd.Evento',
        'd.Intentos',
        'd.VenceReintento',
        'e.Fecha',
        'e.Datos',
        'a.IdEntidad',
        'a.IdDivision',
        'a.IdCompania',
        'a.IdPersona',
        'a.IdVehiculo',
        'a.IdContrato',
        'a.FechaFin',
        'a.Estado',
      ])
      .where('d.IdCliente', '=', client)
      .where('d.Estado', '=', 'P')
      .where('d.ProximoIntento', '<=', this.iso())
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom(`${table} as p`)
              .select('p.IdEntrega')
              .whereRef('p.IdDestino', '=', 'd.IdDestino')
              .whereRef('p.IdAcreditacion', '=', 'd.IdAcreditacion')
              .where('p.Estado', '=', 'P')
              .whereRef('p.IdEvento', '<', 'd.IdEvento'),
          ),
        ),
      )
      .orderBy('d.IdEvento')
      .limit(BATCH)
      .execute()) as Due[];
  }

  /** Sends one delivery and records the outcome (under the lease's fence, only if still as read). */
  private async send(
    client: number,
    delivery: Due,
    endpointOf: (id: number) => Promise<Endpoint>,
  ): Promise<'delivered' | 'retried' | 'failed'> {
    const sentAt = this.now();
    const attempt = Number(delivery.Intentos) + 1;
    let outcome: { status: number | null; text: string };
    try {
      const { url, secret } = await endpointOf(delivery.IdDestino);
      const body = bodyOf(client, delivery, attempt);
      const answer = await this.transport(url, body, {
        'content-type': 'application/json',
        'user-agent': 'Acreditacion-Webhooks/1',
        'x-acreditacion-evento': delivery.Evento,
        'x-acreditacion-entrega': String(delivery.IdEntrega),
        'x-acreditacion-firma': signature(secret, body, sentAt),
      });
      outcome = { status: answer.status, text: answer.body };
    } catch (error) {
      outcome = { status: null, text: (error as Error).message };
    }
    const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    const next = sentAt + backoffMs(attempt);
    const state = ok ? 'E' : next > new Date(delivery.VenceReintento).getTime() ? 'F' : 'P';
    await this.database.db.transaction().execute(async (trx) => {
      await this.leases.fence(client, WEBHOOK_JOB, trx);
      await trx
        .updateTable(this.table('webhook-delivery'))
        .set({
          Estado: state,
          Intentos: attempt,
          UltimoCodigo: outcome.status,
          UltimaRespuesta: outcome.text.slice(0, 500) || null,
          ProximoIntento: state === 'P' ? this.iso(next) : null,
          FechaEntrega: ok ? this.iso(sentAt) : null,
          IdUsuarioModificacion: 'SISTEMA',
          FechaModificacion: this.iso(),
        })
        .where('IdEntrega', '=', delivery.IdEntrega)
        .where('Estado', '=', 'P')
        .where('Intentos', '=', delivery.Intentos)
        .execute();
    });
    return ok ? 'delivered' : state === 'F' ? 'failed' : 'retried';
  }

  private async endpointOf(id: number): Promise<Endpoint> {
    const row = (await this.database.db
      .selectFrom(`${this.table('webhook-endpoint')} as w`)
      .leftJoin(`${WEBHOOK_SECRET_TABLE} as s`, 's.IdDestino', 'w.IdDestino')
      .select(['w.Url', 's.Secreto'])
      .where('w.IdDestino', '=', id)
      .executeTakeFirstOrThrow()) as { Url: string; Secreto: string | null };
    const secret = row.Secreto ? this.sealer.open('webhook', String(id), row.Secreto) : undefined;
    if (!secret) throw new Error('the endpoint has no secret this server can read');
    return { url: row.Url, secret };
  }

  /**
   * A new secret for the endpoint: kept sealed, answered this once. The first one starts the
   * endpoint's events (from now on: none from before it could check a signature).
   */
  async newSecret(db: Db, endpointId: number, userId: string): Promise<string> {
    const secret = `whsec_${randomBytes(32).toString('base64url')}`;
    const table = this.table('webhook-endpoint');
    const sealed = this.sealer.seal('webhook', String(endpointId), secret);
    await db
      .insertInto(WEBHOOK_SECRET_TABLE)
      .values({ IdDestino: endpointId, Secreto: sealed })
      .onConflict((oc) => oc.column('IdDestino').doUpdateSet({ Secreto: sealed }))
      .execute();
    await db
      .updateTable(table)
      .set((eb) => ({
        Desde: eb.fn.coalesce('Desde', eb.val(this.iso())),
        IdUsuarioModificacion: userId,
        FechaModificacion: this.iso(),
      }))
      .where('IdDestino', '=', endpointId)
      .execute();
    return secret;
  }

  /** Sends a failed or delivered delivery again: pending at once, tried for another 24 hours. */
  async resend(db: Db, delivery: { IdEntrega: number; Estado: string }, userId: string): Promise<void> {
    if (delivery.Estado === 'P') throw new ApiError('CONFLICT', { messageKey: 'webhooks.errors.pending' });
    await db
      .updateTable(this.table('webhook-delivery'))
      .set({
        Estado: 'P',
        Intentos: 0,
        ProximoIntento: this.iso(),
        VenceReintento: this.iso(this.now() + RETRY_HOURS * HOUR_MS),
        FechaEntrega: null,
        IdUsuarioModificacion: userId,
        FechaModificacion: this.iso(),
      })
      .where('IdEntrega', '=', delivery.IdEntrega)
      .where('Estado', '=', delivery.Estado)
      .execute();
  }
}

/** The JSON an endpoint receives: the event, and the accreditation it concerns as it stands now. */
function bodyOf(client: number, d: Due, attempt: number): string {
  return JSON.stringify({
    id: Number(d.IdEvento),
    type: `accreditation.${d.Evento}`,
    client,
    occurredAt: new Date(d.Fecha).toISOString(),
    accreditation: {
      IdAcreditacion: Number(d.IdAcreditacion),
      IdEntidad: d.IdEntidad,
      IdDivision: d.IdDivision,
      IdCompania: d.IdCompania,
      IdPersona: d.IdPersona,
      IdVehiculo: d.IdVehiculo,
      IdContrato: d.IdContrato,
      FechaFin: d.FechaFin,
      Estado: d.Estado,
    },
    data: parseData(d.Datos),
    delivery: Number(d.IdEntrega),
    attempt,
  });
}

function parseData(text: string | null | undefined): unknown {
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return {};
  }
}
