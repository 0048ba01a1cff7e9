import { sql } from 'kysely';
import type { DataClass } from '../../../shared/data-classes.js';
import { addMonths } from '../../../shared/dates.js';
import { writeAudit } from '../../crud/audit.js';
import type { AnySelect, Row } from '../../crud/types.js';
import type { Database, Db } from '../../db/connection.js';
import { holderName, Leases } from '../../jobs/leases.js';
import type { PersonalDataSource } from '../../personal-data.js';
import type { Principal } from '../../principal.js';
import type { Entity, Registry } from '../../registry.js';
import { personKey } from '../../services/privacy.js';
import { clientToday } from '../../site.js';

/** The job's name in the lease table. */
export const RETENTION_JOB = 'RETENCION';

/** What a run did (or, dry, would do) with one data class. */
export interface ClassRun {
  /** People whose data of the class were anonymised (or would be). */
  anonymised: number;
  /** People whose time had come but whom something still needs, by reason. */
  kept: Record<string, number>;
}

export interface RetentionRun {
  id: number;
  dryRun: boolean;
  /** People anonymised in at least one class. */
  people: number;
  classes: Partial<Record<DataClass, ClassRun>>;
}

/** The answer when another process is running the client's retention now. */
export class RetentionBusy extends Error {}

/**
 * The retention job (Ley 29733 art. 8, Ley 21.719): per client and data class, the people whose
 * relation ended (every area's `ends`: their last accreditation, visit or cessation) more months
 * ago than the client's rule says have that class of their data anonymised, unless an area still
 * needs them (`holds`: an accreditation in force, an open request, a payroll period not closed, a
 * legal hold). Set-based: the people are chosen by one query per class, recorded in the
 * retention-action table (one row per person and class, unique: a class is anonymised once, by
 * whichever server gets there), and every entity's fields of that class are rewritten for all of
 * them at once, with what the areas keep beyond the schemas (`erase`). A client's daily run holds
 * the client's lease, so with several servers one runs it; all of it is one transaction.
 */
export class RetentionJob {
  private readonly leases: Leases;

  constructor(
    private readonly database: Database,
    private readonly registry: Registry,
    private readonly sources: readonly PersonalDataSource[],
    private readonly now: () => number = Date.now,
    readonly runner: string = holderName(),
  ) {
    this.leases = new Leases(database.db, registry, runner, now);
  }

  private table(name: string): string {
    return this.registry.require(name).table;
  }

  /** The client's day at its sites (the first division's country). */
  private today(client: number): Promise<string> {
    return clientToday(this.database.db, this.registry, client, this.now());
  }

  /** The daily run: every client whose lease this runner takes and whose day is not done yet. */
  runDaily(): Promise<RetentionRun[]> {
    return this.leases.eachClientDay(
      RETENTION_JOB,
      (client) => this.today(client),
      (trx, client, today) => this.apply(trx, client, today, { userId: 'SISTEMA' }, false),
    );
  }

  /**
   * A run asked for by a user: dry (nothing changes but the run's own record) or real, holding the
   * client's lease (RetentionBusy when another process holds it).
   */
  async runNow(principal: Principal, dryRun: boolean): Promise<RetentionRun> {
    const client = principal.clientId as number;
    const today = await this.today(client);
    if (!dryRun && !(await this.leases.take(client, RETENTION_JOB))) throw new RetentionBusy();
    return this.database.db.transaction().execute(async (trx) => {
      const run = await this.apply(trx, client, today, principal, dryRun);
      if (!dryRun) await this.leases.release(client, RETENTION_JOB, { db: trx });
      return run;
    });
  }

  private async apply(
    trx: Db,
    client: number,
    today: string,
    principal: Principal,
    dryRun: boolean,
  ): Promise<RetentionRun> {
    const runs = this.registry.require('retention-run');
    const at = new Date(this.now()).toISOString();
    const { IdEjecucionConservacion: id } = (await trx
      .insertInto(runs.table)
      .values({
        IdCliente: client,
        Fecha: at,
        IdUsuario: principal.userId,
        Simulacion: dryRun ? 'S' : 'N',
        Personas: 0,
        IdUsuarioCreacion: principal.userId,
        FechaCreacion: at,
      })
      .returning('IdEjecucionConservacion')
      .executeTakeFirstOrThrow()) as { IdEjecucionConservacion: number };
    const rules = (await trx
      .selectFrom(this.table('retention-rule'))
      .select(['ClaseDato', 'Meses'])
      .where('IdCliente', '=', client)
      .where('Activo', '=', 'S')
      .orderBy('ClaseDato')
      .execute()) as Array<{ ClaseDato: DataClass; Meses: number }>;
    const classes: RetentionRun['classes'] = {};
    for (const { ClaseDato: dataClass, Meses: months } of rules)
      classes[dataClass] = await this.applyClass(trx, client, today, dataClass, months, id, dryRun);
    // A dry run's people: those of the class with most (a run anonymises at least as many).
    const people = dryRun
      ? Math.max(0, ...Object.values(classes).map((c) => c.anonymised))
      : await this.anonymisedIn(trx, id);
    const detail = { today, classes };
    const row = (await trx
      .updateTable(runs.table)
      .set({ Personas: people, Detalle: JSON.stringify(detail) })
      .where('IdEjecucionConservacion', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()) as Row;
    await writeAudit(
      trx,
      this.registry,
      runs,
      'C',
      { ...principal, clientId: client },
      id,
      undefined,
      row,
      true,
    );
    return { id, dryRun, people, classes };
  }

  /**
   * The people of the client whose relation ended before `cutoff` by every area's records (their
   * cessation, last accreditation, last visit); none when no area says when relations end.
   */
  private ended(trx: Db, client: number, cutoff: string): AnySelect | undefined {
    const ends = this.sources.flatMap((s) => (s.ends ? [s.ends(trx, client)] : []));
    if (!ends.length) return undefined;
    return trx
      .selectFrom(ends.reduce((all, more) => all.unionAll(more)).as('e'))
      .select('e.IdPersona')
      .groupBy('e.IdPersona')
      .having((eb) => eb.fn.max('e.Fin'), '<', cutoff);
  }

  /** Who the areas still need (an accreditation in force, a legal hold…), by reason. */
  private holds(trx: Db, client: number, today: string): Array<{ reason: string; people: AnySelect }> {
    return this.sources.flatMap((s) =>
      (s.holds ?? []).map((h) => ({ reason: h.reason, people: h.people(trx, client, today) })),
    );
  }

  private async applyClass(
    trx: Db,
    client: number,
    today: string,
    dataClass: DataClass,
    months: number,
    run: number,
    dryRun: boolean,
  ): Promise<ClassRun> {
    const actions = this.table('retention-action');
    const holds = this.holds(trx, client, today);
    // Due: ended long enough ago, and this class of theirs not anonymised yet.
    const ended = this.ended(trx, client, addMonths(today, -months));
    if (!ended) return { anonymised: 0, kept: {} };
    const due = ended.where(
      'e.IdPersona',
      'not in',
      trx.selectFrom(actions).select('IdPersona').where('ClaseDato', '=', dataClass),
    );
    const kept: Record<string, number> = {};
    for (const { reason, people } of holds) {
      const n = await count(
        trx,
        trx.selectFrom(due.as('d')).select('d.IdPersona').where('d.IdPersona', 'in', people),
      );
      if (n) kept[reason] = n;
    }
    let free = trx.selectFrom(due.as('d')).select('d.IdPersona');
    for (const { people } of holds) free = free.where('d.IdPersona', 'not in', people);
    if (dryRun) return { anonymised: await count(trx, free), kept };
    const at = new Date(this.now()).toISOString();
    const inserted = await trx
      .insertInto(actions)
      .columns([
        'IdCliente',
        'IdPersona',
        'ClaseDato',
        'Fecha',
        'IdEjecucionConservacion',
        'IdUsuarioCreacion',
        'FechaCreacion',
      ])
      .expression(
        trx
          .selectFrom(free.as('f'))
          .select([
            sql.lit(client).as('IdCliente'),
            'f.IdPersona',
            sql.lit(dataClass).as('ClaseDato'),
            sql.lit(at).as('Fecha'),
            sql.lit(run).as('IdEjecucionConservacion'),
            sql.lit('SISTEMA').as('IdUsuarioCreacion'),
            sql.lit(at).as('FechaCreacion'),
          ])
          .where('f.IdPersona', 'is not', null),
      )
      .onConflict((oc) => oc.columns(['IdPersona', 'ClaseDato']).doNothing())
      .executeTakeFirst();
    const people = trx
      .selectFrom(actions)
      .select('IdPersona')
      .where('IdEjecucionConservacion', '=', run)
      .where('ClaseDato', '=', dataClass);
    for (const entity of this.registry.entities) await this.anonymise(trx, client, entity, dataClass, people);
    for (const source of this.sources) await source.erase?.(trx, client, people, dataClass);
    return { anonymised: Number(inserted.numInsertedOrUpdatedRows ?? 0), kept };
  }

  /**
   * An entity's fields of the class, for these people: emptied, or (a required text) replaced by
   * an anonymous mark, unique where a unique key needs it. A record about the person that is all of
   * the class (a person's extra photos) goes. The person's key and the records' own stay, so counts
   * (markings, attendance) still add up.
   */
  private async anonymise(
    trx: Db,
    client: number,
    entity: Entity,
    dataClass: DataClass,
    people: AnySelect,
  ): Promise<void> {
    const key = personKey(entity);
    if (!key || entity.readOnly) return;
    if (entity.schema['x-dataClass'] === dataClass && key === 'IdPersona') {
      let qb = trx.deleteFrom(entity.table).where(key, 'in', people);
      if (entity.scope.client) qb = qb.where(entity.scope.client, '=', client);
      await qb.execute();
      return;
    }
    const required = new Set(entity.schema.required ?? []);
    const unique = new Set(entity.unique.flat());
    const values: Record<string, unknown> = {};
    for (const [field, fieldClass] of Object.entries(entity.dataClasses)) {
      if (fieldClass !== dataClass || field === key || field === entity.primaryKey) continue;
      const prop = entity.schema.properties[field];
      if (prop['x-ref'] && required.has(field)) continue;
      if (!required.has(field)) values[field] = null;
      else if (prop.type === 'string' && !prop.enum)
        values[field] = unique.has(field) ? sql`${'ANON-'} || ${sql.ref(key)}` : 'ANONIMIZADO';
    }
    if (!Object.keys(values).length) return;
    let qb = trx.updateTable(entity.table).set(values).where(key, 'in', people);
    if (entity.scope.client) qb = qb.where(entity.scope.client, '=', client);
    await qb.execute();
  }

  private async anonymisedIn(trx: Db, run: number): Promise<number> {
    return count(
      trx,
      trx
        .selectFrom(this.table('retention-action'))
        .select('IdPersona')
        .distinct()
        .where('IdEjecucionConservacion', '=', run),
    );
  }
}

async function count(trx: Db, query: AnySelect): Promise<number> {
  const row = (await trx
    .selectFrom(query.as('c'))
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst()) as { n: number | string } | undefined;
  return Number(row?.n ?? 0);
}
