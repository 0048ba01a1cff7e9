import { requestNumber } from '../../../shared/accreditation.js';
import { addDays } from '../../../shared/dates.js';
import type { Notifier } from '../../auth/notifier.js';
import type { Database, Db } from '../../db/connection.js';
import type { AccreditationEvents } from '../../events.js';
import { holderName, Leases } from '../../jobs/leases.js';
import type { Registry } from '../../registry.js';
import { clientToday } from '../../site.js';
import { escalateOverdue } from './corrections.js';
import { recordEvent } from './events.js';
import { activeUsers } from './notices.js';

/** The column a kept requirement value names its holder by: a worker, a vehicle or a company (E). */
type HolderColumn = 'IdPersona' | 'IdVehiculo' | 'IdCompania';

/** The job's name in the lease table. */
export const EXPIRY_JOB = 'VENCIMIENTOS';
/** How long a runner holds the lease before another may take it over (a crashed runner's). */
const LEASE_MS = 15 * 60_000;

/**
 * The holder's kept requirement values of mandatory requirements that expired before `today`
 * (a value is valid through its expiry date).
 */
async function expiredMandatory(
  db: Db,
  registry: Registry,
  column: HolderColumn,
  holder: number,
  client: number,
  today: string,
): Promise<number> {
  const rows = await db
    .selectFrom(`${registry.require('accredited-requirement').table} as k`)
    .innerJoin(`${registry.require('requirement').table} as q`, 'q.IdRequisito', 'k.IdRequisito')
    .select('k.IdRequisitoAcreditado')
    .where(`k.${column}`, '=', holder)
    .where('k.IdCliente', '=', client)
    .where('q.Obligatorio', '=', 'S')
    .where('k.FechaVencimiento', '<', today)
    .execute();
  return rows.length;
}

/**
 * After a renewal: the holder's accreditations suspended for an expired mandatory requirement are
 * active again when no expired mandatory requirement is left (in the caller's transaction).
 */
export async function reinstate(
  db: Db,
  registry: Registry,
  column: HolderColumn,
  holder: number,
  client: number,
  today: string,
  /** The instant of the renewal's approval, as stored. */
  at: string,
  /** The features told of each reinstatement. */
  events: AccreditationEvents,
): Promise<void> {
  if (await expiredMandatory(db, registry, column, holder, client, today)) return;
  const table = registry.require('accreditation').table;
  const suspended = (await db
    .selectFrom(table)
    .select('IdAcreditacion')
    .where(column, '=', holder)
    .where('IdCliente', '=', client)
    .where('Estado', '=', 'S')
    // Every accreditation of a company's people names the company too: its own is the E one.
    .$if(column === 'IdCompania', (qb) => qb.where('IdEntidad', '=', 'E'))
    .execute()) as Array<{ IdAcreditacion: number }>;
  if (!suspended.length) return;
  const ids = suspended.map((r) => Number(r.IdAcreditacion));
  await db.updateTable(table).set({ Estado: 'A' }).where('IdAcreditacion', 'in', ids).execute();
  for (const id of ids)
    await recordEvent(
      db,
      registry,
      {
        IdCliente: client,
        IdAcreditacion: id,
        Tipo: 'reinstated',
        Datos: { renovacion: true },
        at,
        userId: 'SISTEMA',
      },
      events,
    );
}

/**
 * The notice threshold an item has crossed on `today`: 0 once expired (a value is valid through
 * its expiry date), else its type's notice days once within them, else none. Only the most
 * advanced one, so a run after downtime does not send a stale "expires soon".
 */
export function thresholdOf(expiry: string, noticeDays: number | null, today: string): number | undefined {
  const days = Math.max(0, Number(noticeDays ?? 0));
  if (expiry < today) return 0;
  return days > 0 && addDays(expiry, -days) <= today ? days : undefined;
}

interface Item {
  IdRequisitoAcreditado: number;
  IdPersona: number | null;
  IdVehiculo: number | null;
  IdCompania: number | null;
  IdEntidad: string;
  IdRequisito: number;
  Requisito: string;
  Obligatorio: string;
  FechaVencimiento: string;
  Dias: number | null;
}

export interface ExpiryRun {
  /** Clients whose day this runner processed (0: another runner holds them, or they are done today). */
  clients: number;
  notices: number;
  suspended: number;
  reinstated: number;
  /** Observed requests whose correction deadline lapsed, told to their next approvers. */
  escalated: number;
}

/**
 * The daily expiry check (spec section 3, requirement types' DiasNotificarVencimiento). Per client,
 * a runner first takes the client's lease in the database (one conditional UPDATE: free, expired
 * or already its own, and the day not done yet), so with several server processes on one database
 * exactly one runs each day, and a crashed runner's lease lapses. Then, in one transaction:
 * - each kept requirement value of a holder still accredited (active or suspended) that expires
 *   within its type's notice days is noticed once (threshold = those days), and once more when it
 *   has expired (threshold 0); a notice row unique per item, expiry and threshold records it, in
 *   the same transaction as the mail's outbox row, so it is sent once;
 * - an accreditation whose holder has an expired mandatory requirement is suspended (S), and a
 *   suspended one with none left is active again.
 * - the observed lines whose correction deadline lapsed are escalated to the next approvers
 *   (corrections.ts).
 * The conditions are "on or after" the threshold, so a run after downtime catches up on every
 * threshold crossed in the gap (the most advanced one per item).
 */
export class ExpiryJob {
  constructor(
    private readonly database: Database,
    private readonly registry: Registry,
    private readonly notifier: Notifier,
    /** The features told of each suspension and reinstatement (the app's). */
    private readonly events: AccreditationEvents,
    private readonly now: () => number = Date.now,
    /** This runner's name in the lease (a process id and a random part). */
    readonly runner: string = holderName(),
  ) {
    this.leases = new Leases(database.db, registry, runner, now, LEASE_MS);
  }

  private readonly leases: Leases;

  private table(name: string): string {
    return this.registry.require(name).table;
  }

  /** The client's day at its sites (the first division's country). */
  private today(client: number): Promise<string> {
    return clientToday(this.database.db, this.registry, client, this.now());
  }

  /** Runs the check for every client whose lease this runner takes. */
  async runOnce(): Promise<ExpiryRun> {
    const out: ExpiryRun = { clients: 0, notices: 0, suspended: 0, reinstated: 0, escalated: 0 };
    const days = await this.leases.eachClientDay(
      EXPIRY_JOB,
      (client) => this.today(client),
      (trx, client, today) => this.check(trx, client, today),
    );
    for (const done of days) {
      out.clients++;
      out.notices += done.notices;
      out.suspended += done.suspended;
      out.reinstated += done.reinstated;
      out.escalated += done.escalated;
    }
    return out;
  }

  private async check(trx: Db, client: number, today: string) {
    const k = this.table('accredited-requirement');
    const a = this.table('accreditation');
    const types = (await trx
      .selectFrom(this.table('requirement-type'))
      .select((eb) => eb.fn.max('DiasNotificarVencimiento').as('most'))
      .where('IdCliente', '=', client)
      .executeTakeFirst()) as { most: number | string | null } | undefined;
    const horizon = addDays(today, Math.max(0, Number(types?.most ?? 0)));
    const items = (await trx
      .selectFrom(`${k} as k`)
      .innerJoin(`${this.table('requirement')} as q`, 'q.IdRequisito', 'k.IdRequisito')
      .leftJoin(`${this.table('requirement-type')} as ty`, 'ty.IdTipoRequisito', 'q.IdTipoRequisito')
      .select([
        'k.IdRequisitoAcreditado',
        'k.IdPersona',
        'k.IdVehiculo',
        'k.IdCompania',
        'k.IdEntidad',
        'k.IdRequisito',
        'q.Requisito',
        'q.Obligatorio',
        'k.FechaVencimiento',
        'ty.DiasNotificarVencimiento as Dias',
      ])
      .where('k.IdCliente', '=', client)
      .where('k.FechaVencimiento', 'is not', null)
      .where('k.FechaVencimiento', '<=', horizon)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom(`${a} as a`)
            .select('a.IdAcreditacion')
            .where('a.Estado', 'in', ['A', 'S'])
            .where((eb) =>
              eb.or([
                eb.and([eb('k.IdPersona', 'is not', null), eb('a.IdPersona', '=', eb.ref('k.IdPersona'))]),
                eb.and([eb('k.IdVehiculo', 'is not', null), eb('a.IdVehiculo', '=', eb.ref('k.IdVehiculo'))]),
                eb.and([
                  eb('k.IdCompania', 'is not', null),
                  eb('a.IdEntidad', '=', 'E'),
                  eb('a.IdCompania', '=', eb.ref('k.IdCompania')),
                ]),
              ]),
            ),
        ),
      )
      .orderBy('k.IdRequisitoAcreditado')
      .execute()) as Item[];
    let notices = 0;
    const at = new Date(this.now()).toISOString();
    for (const item of items) {
      // The most advanced threshold crossed: expired (0), else within the notice days.
      const threshold = thresholdOf(item.FechaVencimiento, item.Dias, today);
      if (threshold === undefined) continue;
      const recorded = await trx
        .insertInto(this.table('expiry-notice'))
        .values({
          IdCliente: client,
          IdRequisitoAcreditado: item.IdRequisitoAcreditado,
          FechaVencimiento: item.FechaVencimiento,
          Umbral: threshold,
          Fecha: at,
          IdUsuarioCreacion: 'SISTEMA',
          FechaCreacion: at,
        })
        .onConflict((oc) => oc.columns(['IdRequisitoAcreditado', 'FechaVencimiento', 'Umbral']).doNothing())
        .returning('IdAvisoVencimiento')
        .executeTakeFirst();
      if (!recorded) continue;
      notices++;
      await this.mail(trx, client, item, threshold === 0);
    }
    notices += await this.licences(trx, client, today, Math.max(0, Number(types?.most ?? 0)), at);
    // Suspension follows the expired mandatory requirements; a suspension with none left lifts.
    let suspended = 0;
    let reinstated = 0;
    for (const column of ['IdPersona', 'IdVehiculo', 'IdCompania'] as const) {
      const accredited = (await trx
        .selectFrom(a)
        .select(['IdAcreditacion', column, 'Estado'])
        .where('IdCliente', '=', client)
        .where('Estado', 'in', ['A', 'S'])
        .where(column, 'is not', null)
        .$if(column === 'IdCompania', (qb) => qb.where('IdEntidad', '=', 'E'))
        .execute()) as Array<Record<string, number | string>>;
      const expiredHolders = new Set(
        (
          (await trx
            .selectFrom(`${k} as k`)
            .innerJoin(`${this.table('requirement')} as q`, 'q.IdRequisito', 'k.IdRequisito')
            .select(`k.${column} as holder`)
            .where('k.IdCliente', '=', client)
            .where(`k.${column}`, 'is not', null)
            .where('q.Obligatorio', '=', 'S')
            .where('k.FechaVencimiento', '<', today)
            .execute()) as Array<{ holder: number }>
        ).map((r) => r.holder),
      );
      for (const row of accredited) {
        const should = expiredHolders.has(row[column] as number) ? 'S' : 'A';
        if (row.Estado === should) continue;
        await trx
          .updateTable(a)
          .set({ Estado: should, IdUsuarioModificacion: 'SISTEMA', FechaModificacion: at })
          .where('IdAcreditacion', '=', row.IdAcreditacion as number)
          .execute();
        await recordEvent(
          trx,
          this.registry,
          {
            IdCliente: client,
            IdAcreditacion: Number(row.IdAcreditacion),
            Tipo: should === 'S' ? 'suspended' : 'reinstated',
            at,
            userId: 'SISTEMA',
          },
          this.events,
        );
        if (should === 'S') suspended++;
        else reinstated++;
      }
    }
    const escalated = await escalateOverdue(trx, this.registry, this.notifier, client, today, at);
    return { notices, suspended, reinstated, escalated };
  }

  /**
   * Who is told of a holder's expiry: the requesters of its accreditations in force and the
   * authorisers of their divisions; and the originating request's number.
   */
  private async recipients(trx: Db, client: number, column: HolderColumn, holder: number) {
    const accreditations = (await trx
      .selectFrom(`${this.table('accreditation')} as a`)
      .innerJoin(`${this.table('request')} as r`, 'r.IdSolicitud', 'a.IdSolicitud')
      .select(['a.IdDivision', 'a.IdEntidad', 'r.IdUsuarioCreacion', 'r.IdSolicitud'])
      .where(`a.${column}`, '=', holder)
      .where('a.IdCliente', '=', client)
      .where('a.Estado', 'in', ['A', 'S'])
      .$if(column === 'IdCompania', (qb) => qb.where('a.IdEntidad', '=', 'E'))
      .execute()) as Array<{
      IdDivision: number;
      IdEntidad: string;
      IdUsuarioCreacion: string;
      IdSolicitud: number;
    }>;
    const users = new Set(accreditations.map((r) => r.IdUsuarioCreacion));
    for (const r of accreditations) {
      const approvers = (await trx
        .selectFrom(this.table('approver'))
        .select('IdUsuario')
        .where('IdDivision', '=', r.IdDivision)
        .where('IdEntidad', '=', r.IdEntidad)
        .where('Activo', '=', 'S')
        .execute()) as Array<{ IdUsuario: string }>;
      for (const a of approvers) users.add(a.IdUsuario);
    }
    const origin = accreditations[0] ? requestNumber(accreditations[0].IdSolicitud) : '';
    return { users: users.size ? await activeUsers(trx, this.registry, [...users]) : [], origin };
  }

  /** A notice in both languages to each recipient with a mail, in the job's transaction. */
  private async send(
    trx: Db,
    client: number,
    recipients: Array<{ IdUsuario: string; Correo: string | null }>,
    subject: string[],
    text: string[],
  ): Promise<void> {
    for (const user of recipients) {
      if (!user.Correo) continue;
      await this.notifier.send(
        {
          clientId: client,
          userId: user.IdUsuario,
          channel: 'C',
          to: user.Correo,
          subject: `${subject[0]} / ${subject[1]}`,
          text: `${text[0]}\n\n${text[1]}`,
        },
        trx,
      );
    }
  }

  /** The notice of one item to the contractor's requester and the authorisers of its divisions. */
  private async mail(trx: Db, client: number, item: Item, expired: boolean): Promise<void> {
    const column: HolderColumn = item.IdPersona ? 'IdPersona' : item.IdVehiculo ? 'IdVehiculo' : 'IdCompania';
    const holder = (item.IdPersona ?? item.IdVehiculo ?? item.IdCompania) as number;
    const { users: recipients, origin } = await this.recipients(trx, client, column, holder);
    if (!recipients.length) return;
    const name = item.IdPersona
      ? ((await trx
          .selectFrom(this.table('person'))
          .select(['Apellido', 'Nombre', 'Documento'])
          .where('IdPersona', '=', holder)
          .executeTakeFirst()) as { Apellido: string; Nombre: string; Documento: string } | undefined)
      : undefined;
    const plate = item.IdVehiculo
      ? ((await trx
          .selectFrom(this.table('vehicle'))
          .select('Placa')
          .where('IdVehiculo', '=', holder)
          .executeTakeFirst()) as { Placa: string } | undefined)
      : undefined;
    const company =
      column === 'IdCompania'
        ? ((await trx
            .selectFrom(this.table('company'))
            .select(['Compania', 'Documento'])
            .where('IdCompania', '=', holder)
            .executeTakeFirst()) as { Compania: string; Documento: string } | undefined)
        : undefined;
    const who = name
      ? `${name.Apellido} ${name.Nombre} (${name.Documento})`
      : company
        ? `${company.Compania} (${company.Documento})`
        : (plate?.Placa ?? String(holder));
    const date = item.FechaVencimiento;
    const subject = expired
      ? [`Requisito vencido: ${item.Requisito}`, `Requirement expired: ${item.Requisito}`]
      : [`Requisito por vencer: ${item.Requisito}`, `Requirement expiring: ${item.Requisito}`];
    const mandatory = item.Obligatorio === 'S';
    const text = expired
      ? [
          `El requisito ${item.Requisito} de ${who} venció el ${date}.${mandatory ? ' Su acreditación queda suspendida hasta que se renueve.' : ''} Solicitud de origen ${origin}.`,
          `Requirement ${item.Requisito} of ${who} expired on ${date}.${mandatory ? ' The accreditation is suspended until it is renewed.' : ''} Originating request ${origin}.`,
        ]
      : [
          `El requisito ${item.Requisito} de ${who} vence el ${date}: solicite su actualización. Solicitud de origen ${origin}.`,
          `Requirement ${item.Requisito} of ${who} expires on ${date}: request its update. Originating request ${origin}.`,
        ];
    await this.send(trx, client, recipients, subject, text);
  }

  /**
   * The internal driving licences of accredited people falling due (with the requirements' notices):
   * within `days` of their expiry, and once expired; a notice row per licence, expiry and threshold.
   */
  private async licences(trx: Db, client: number, today: string, days: number, at: string): Promise<number> {
    const rows = (await trx
      .selectFrom(`${this.table('internal-licence')} as l`)
      .innerJoin(`${this.table('person')} as p`, 'p.IdPersona', 'l.IdPersona')
      .innerJoin(`${this.table('vehicle-type')} as t`, 't.IdTipoVehiculo', 'l.IdTipoVehiculo')
      .select([
        'l.IdLicenciaInterna',
        'l.IdPersona',
        'l.NumeroLicencia',
        'l.FechaVencimiento',
        't.Descripcion as Tipo',
        'p.Apellido',
        'p.Nombre',
        'p.Documento',
      ])
      .where('l.IdCliente', '=', client)
      .where('l.Activo', '=', 'S')
      .where('l.FechaVencimiento', '<=', addDays(today, days))
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom(`${this.table('accreditation')} as a`)
            .select('a.IdAcreditacion')
            .whereRef('a.IdPersona', '=', 'l.IdPersona')
            .where('a.Estado', 'in', ['A', 'S']),
        ),
      )
      .orderBy('l.IdLicenciaInterna')
      .execute()) as Array<Record<string, string | number>>;
    let sent = 0;
    for (const r of rows) {
      const expiry = String(r.FechaVencimiento).slice(0, 10);
      const threshold = thresholdOf(expiry, days, today);
      if (threshold === undefined) continue;
      const recorded = await trx
        .insertInto(this.table('licence-notice'))
        .values({
          IdCliente: client,
          IdLicenciaInterna: r.IdLicenciaInterna,
          FechaVencimiento: expiry,
          Umbral: threshold,
          Fecha: at,
          IdUsuarioCreacion: 'SISTEMA',
          FechaCreacion: at,
        })
        .onConflict((oc) => oc.columns(['IdLicenciaInterna', 'FechaVencimiento', 'Umbral']).doNothing())
        .returning('IdAvisoLicencia')
        .executeTakeFirst();
      if (!recorded) continue;
      sent++;
      const { users } = await this.recipients(trx, client, 'IdPersona', Number(r.IdPersona));
      const licence = `${r.NumeroLicencia} (${r.Tipo})`;
      const who = `${r.Apellido} ${r.Nombre} (${r.Documento})`;
      await this.send(
        trx,
        client,
        users,
        threshold === 0
          ? [`Licencia interna vencida: ${licence}`, `Internal licence expired: ${licence}`]
          : [`Licencia interna por vencer: ${licence}`, `Internal licence expiring: ${licence}`],
        threshold === 0
          ? [
              `La licencia interna ${licence} de ${who} venció el ${expiry}: no puede ingresar conduciendo un vehículo de ese tipo.`,
              `Internal licence ${licence} of ${who} expired on ${expiry}: they cannot drive a vehicle of that type in.`,
            ]
          : [
              `La licencia interna ${licence} de ${who} vence el ${expiry}: solicite su renovación.`,
              `Internal licence ${licence} of ${who} expires on ${expiry}: have it renewed.`,
            ],
      );
    }
    return sent;
  }
}
