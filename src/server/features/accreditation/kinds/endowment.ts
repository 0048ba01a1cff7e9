import { sql } from 'kysely';
import type { Db } from '../../../db/connection.js';
import { inDryRun, keptRead, keptTally } from '../../../db/kept-reads.js';
import { ApiError } from '../../../errors.js';
import type { Principal } from '../../../principal.js';
import { parameter } from '../../../services/parameters.js';
import type { RequestEngine } from '../engine/engine.js';

/** Where people are counted against a cap: the contract's whole endowment, or one unit's of it. */
interface Cap {
  limit: number;
  /** The organisational unit counted, when the contract's endowment is by unit. */
  unit?: number;
}

/**
 * Who a contract holds: its workers (T) accredited, active or suspended (A, S), not yet ended, and
 * those of its open (I, P, O) mobilisations and contract changes (M, C). The count (`others`) and
 * one person's check (`holds`) both read it from here.
 */
const HELD: { entity: string; accredited: string[]; open: string[]; kinds: string[] } = {
  entity: 'T',
  accredited: ['A', 'S'],
  open: ['I', 'P', 'O'],
  kinds: ['M', 'C'],
};

/** What a filing is told of the cap: nothing to say, or exceeded and let through flagged. */
export type EndowmentOutcome = 'N' | 'S';

/**
 * The endowment (staffing) cap of a contract (spec section 3 Contract: by contract, by
 * organisational unit or not at all; section 5 "Contract exceeds current headcount"): the people
 * accredited on the contract (active or suspended, not yet ended) and those of its open
 * mobilisations and contract changes, with the ones a filing adds, stay within the contract's
 * endowment, or within its unit's (contract-unit) when it applies by unit. Exceeding it is refused
 * with the spec's message, or, with the client's parameter DOTACIONEXCEDIDA = F, let through and
 * flagged on the request (ExcedeDotacion) for the authorisers. Counted in the filing's transaction
 * with the contract's row locked on PostgreSQL (SQLite writes one transaction at a time), so two
 * filings at once cannot both take the last place.
 */
export class Endowment {
  constructor(private readonly engine: RequestEngine) {}

  /**
   * The people the contract's approved addenda in force on `today` add to its endowment; read once
   * per `keepingReads` scope.
   */
  private added(trx: Db, contract: number, today: string): Promise<number> {
    return keptRead(`addenda:${contract}:${today}`, () => this.readAdded(trx, contract, today));
  }

  private async readAdded(trx: Db, contract: number, today: string): Promise<number> {
    const row = (await trx
      .selectFrom(this.engine.table('addendum'))
      .select((eb) => eb.fn.sum('DotacionAdicional').as('n'))
      .where('IdContrato', '=', contract)
      .where('Aprobada', '=', 'S')
      .where('Activo', '=', 'S')
      .where('FechaInicio', '<=', today)
      .where('FechaFin', '>=', today)
      .executeTakeFirst()) as { n: number | string | null } | undefined;
    return Number(row?.n ?? 0);
  }

  /**
   * The cap that applies to people of `contract` (in `unit`), if any: a contract-wide one grows by
   * what its addenda in force today add.
   */
  private async capOf(
    trx: Db,
    contract: number,
    unit: number | null | undefined,
    today: string,
  ): Promise<Cap | undefined> {
    const { engine } = this;
    let qb = trx
      .selectFrom(engine.table('contract'))
      .select(['TipoDotacion', 'Dotacion'])
      .where('IdContrato', '=', contract);
    if (engine.database.dialect === 'postgres' && !inDryRun()) qb = qb.forUpdate();
    const row = (await qb.executeTakeFirst()) as
      | { TipoDotacion: string | null; Dotacion: number | null }
      | undefined;
    if (!row || row.TipoDotacion === 'N') return undefined;
    if (row.TipoDotacion === 'U') {
      if (!unit) return undefined;
      const share = (await trx
        .selectFrom(engine.table('contract-unit'))
        .select('Dotacion')
        .where('IdContrato', '=', contract)
        .where('IdUnidadOrganizativa', '=', unit)
        .where('Activo', '=', 'S')
        .executeTakeFirst()) as { Dotacion: number } | undefined;
      return share ? { limit: Number(share.Dotacion), unit } : undefined;
    }
    if (row.Dotacion === null || row.Dotacion === undefined) return undefined;
    return { limit: Number(row.Dotacion) + (await this.added(trx, contract, today)) };
  }

  /**
   * How many people other than `people` the contract (its unit) holds today: accredited and not
   * ended, or asked for; counted by the database (one number, whatever the contract's size).
   */
  private async others(
    trx: Db,
    today: string,
    contract: number,
    cap: Cap,
    people: number[],
    except?: number,
  ) {
    const { engine } = this;
    const accredited = trx
      .selectFrom(`${engine.table('accreditation')} as a`)
      .innerJoin(`${engine.table('request')} as r`, 'r.IdSolicitud', 'a.IdSolicitud')
      .select('a.IdPersona as id')
      .where('a.IdContrato', '=', contract)
      .where('a.IdEntidad', '=', HELD.entity)
      .where('a.Estado', 'in', HELD.accredited)
      .where('a.FechaFin', '>=', today)
      .$if(people.length > 0, (qb) => qb.where('a.IdPersona', 'not in', people))
      .$if(cap.unit !== undefined, (qb) => qb.where('r.IdUnidadOrganizativa', '=', cap.unit as number));
    const asked = trx
      .selectFrom(engine.table('request'))
      .select('IdPersona as id')
      .where('IdContrato', '=', contract)
      .where('EstadoAprobacion', 'in', HELD.open)
      .where('IdEntidad', '=', HELD.entity)
      .where('TipoSolicitud', 'in', HELD.kinds)
      .$if(people.length > 0, (qb) => qb.where('IdPersona', 'not in', people))
      .$if(cap.unit !== undefined, (qb) => qb.where('IdUnidadOrganizativa', '=', cap.unit as number))
      .$if(except !== undefined, (qb) => qb.where('IdSolicitud', '<>', except as number));
    const row = (await trx
      .selectFrom(accredited.union(asked).as('u'))
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()) as { n: number | string };
    return Number(row.n);
  }

  /**
   * Whether `person` is among those the contract (its unit) holds today: accredited and not ended,
   * or asked for. The person's own rows are read (by the index on the person, a handful whatever
   * the contract's size) and weighed here, so that no plan reads the contract's.
   */
  private async holds(trx: Db, today: string, contract: number, cap: Cap, person: number): Promise<boolean> {
    const { engine } = this;
    const accredited = trx
      .selectFrom(`${engine.table('accreditation')} as a`)
      .innerJoin(`${engine.table('request')} as r`, 'r.IdSolicitud', 'a.IdSolicitud')
      .select([
        sql.lit('A').as('kind'),
        'a.IdContrato as contract',
        'a.IdEntidad as entity',
        'a.Estado as state',
        'a.FechaFin as end',
        'r.TipoSolicitud as type',
        'r.IdUnidadOrganizativa as unit',
      ])
      .where('a.IdPersona', '=', person);
    const asked = trx
      .selectFrom(engine.table('request'))
      .select([
        sql.lit('R').as('kind'),
        'IdContrato as contract',
        'IdEntidad as entity',
        'EstadoAprobacion as state',
        'FechaFin as end',
        'TipoSolicitud as type',
        'IdUnidadOrganizativa as unit',
      ])
      .where('IdPersona', '=', person);
    const rows = (await accredited.unionAll(asked).execute()) as Array<{
      kind: string;
      contract: number;
      entity: string;
      state: string;
      end: string;
      type: string;
      unit: number | null;
    }>;
    return rows.some(
      (r) =>
        Number(r.contract) === contract &&
        r.entity === HELD.entity &&
        (cap.unit === undefined || Number(r.unit) === cap.unit) &&
        (r.kind === 'A'
          ? HELD.accredited.includes(r.state) && r.end >= today
          : HELD.open.includes(r.state) && HELD.kinds.includes(r.type)),
    );
  }

  /**
   * `others` for one person's new filing. Rows filed one after another in one transaction (a bulk
   * upload's set, `keepingReads`) count the contract once and keep the count: each row adds its
   * person unless already held, which stays when the row is kept and goes when it is rolled back
   * (`rowKept`, `rowRolledBack`). The count so stays what the database would answer, without
   * reading the whole contract for every row (which grew with every row filed).
   */
  private async othersKept(
    trx: Db,
    today: string,
    contract: number,
    cap: Cap,
    people: number[],
    except?: number,
  ): Promise<number> {
    const tally =
      people.length === 1 && except === undefined
        ? keptTally(`endowment:${contract}:${cap.unit}:${today}`, () =>
            this.others(trx, today, contract, cap, []),
          )
        : undefined;
    if (!tally) return this.others(trx, today, contract, cap, people, except);
    const kept = await tally;
    const held = await this.holds(trx, today, contract, cap, people[0]);
    const others = kept.count - (held ? 1 : 0);
    // The filing goes on from here; a row rolled back takes its person off the count again.
    if (!held) kept.add(1);
    return others;
  }

  /**
   * Checks that `people` fit on `contract` (in `unit`): refused with "Contract exceeds current
   * headcount" when they do not, unless the client lets it through flagged ('S'). `except`: the
   * request being saved again, not counted twice.
   */
  async check(
    trx: Db,
    principal: Principal,
    target: { contract: number; unit?: number | null; people: number[]; except?: number },
  ): Promise<EndowmentOutcome> {
    if (!target.people.length) return 'N';
    const today = await this.engine.siteToday(trx, principal.divisionId as number);
    const cap = await this.capOf(trx, target.contract, target.unit, today);
    if (!cap) return 'N';
    const people = [...new Set(target.people)];
    const total =
      (await this.othersKept(trx, today, target.contract, cap, people, target.except)) + people.length;
    if (total <= cap.limit) return 'N';
    const mode = (await parameter(trx, this.engine.registry, principal, 'DOTACIONEXCEDIDA'))?.Valor1;
    if (mode?.toUpperCase() === 'F') return 'S';
    throw new ApiError('BUSINESS_RULE', {
      messageKey: 'accreditation.refusals.endowmentExceeded',
      params: { count: total, limit: cap.limit },
    });
  }
}
