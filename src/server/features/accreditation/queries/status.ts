import { type SelectQueryBuilder, sql } from 'kysely';
import { containsPattern, likeEscaped } from '../../../crud/filters.js';
import type { Row } from '../../../crud/types.js';
import type { Database } from '../../../db/connection.js';
import type { Registry } from '../../../registry.js';
import { ACCESS_TABLES } from '../../../services/site/tables.js';
import type { ScreenScope } from '../roles.js';

/** Who runs a query: the client's division, or one contractor company of it. */
export type QueryScope = ScreenScope;

/** The current-status query's filters (all optional but the kind). */
export interface StatusFilters {
  entity: 'T' | 'V';
  company?: number;
  contract?: number;
  /** The accreditation's state: A active, S suspended, T ended. */
  state?: 'A' | 'S' | 'T';
  /** Accreditations whose dates overlap these (inclusive). */
  from?: string;
  to?: string;
  /** Present (S) or absent (N) now. */
  present?: 'S' | 'N';
  /** Document, names or plate containing this. */
  text?: string;
}

/**
 * The current status of accredited people and vehicles (the /consultas screen): each accreditation
 * of the division, where (contract, company), since and until when, its state, the requirement that
 * expires next (and when), and whether its holder is inside the site now (the presence table the
 * gate moves, one row per holder). Reads by statements, never row by row.
 */
export class StatusQuery {
  constructor(
    private readonly database: Database,
    private readonly registry: Registry,
  ) {}

  /** The accreditations the filters keep, with their holders, company, contract and presence joined. */
  private filtered(scope: QueryScope, filters: StatusFilters) {
    const t = (name: string) => this.registry.require(name).table;
    const worker = filters.entity === 'T';
    const column = worker ? 'IdPersona' : 'IdVehiculo';
    const like = this.database.dialect === 'postgres' ? 'ilike' : 'like';
    const ref = sql.ref;
    // The holder's key in the presence table (P:<person> or V:<vehicle>).
    const holderKey = sql<string>`${sql.lit(worker ? 'P:' : 'V:')} || cast(${ref(`a.${column}`)} as varchar(20))`;
    let qb = this.database.db
      .selectFrom(`${t('accreditation')} as a`)
      .leftJoin(`${t('person')} as p`, 'p.IdPersona', 'a.IdPersona')
      .leftJoin(`${t('vehicle')} as v`, 'v.IdVehiculo', 'a.IdVehiculo')
      .leftJoin(`${t('company')} as c`, 'c.IdCompania', 'a.IdCompania')
      .leftJoin(`${t('contract')} as k`, 'k.IdContrato', 'a.IdContrato')
      .leftJoin(`${ACCESS_TABLES.presence} as s`, (join) =>
        join
          .onRef('s.IdDivision', '=', 'a.IdDivision')
          .on('s.Titular', '=', holderKey)
          .on('s.Funcion', '=', 'E'),
      )
      .where('a.IdCliente', '=', scope.clientId)
      .where('a.IdDivision', '=', scope.divisionId)
      .where('a.IdEntidad', '=', filters.entity) as unknown as SelectQueryBuilder<
      Record<string, Record<string, unknown>>,
      string,
      object
    >;
    if (scope.companyId !== undefined) qb = qb.where('a.IdCompania', '=', scope.companyId);
    if (filters.company !== undefined) qb = qb.where('a.IdCompania', '=', filters.company);
    if (filters.contract !== undefined) qb = qb.where('a.IdContrato', '=', filters.contract);
    if (filters.state) qb = qb.where('a.Estado', '=', filters.state);
    if (filters.from) qb = qb.where('a.FechaFin', '>=', filters.from);
    if (filters.to) qb = qb.where('a.FechaInicio', '<=', filters.to);
    if (filters.present === 'S') qb = qb.where('s.Titular', 'is not', null);
    if (filters.present === 'N') qb = qb.where('s.Titular', 'is', null);
    const names = worker
      ? sql<string>`${ref('p.Apellido')} || ' ' || ${ref('p.Nombre')}`
      : sql<string>`${ref('v.Placa')}`;
    const document = worker ? sql<string>`${ref('p.Documento')}` : sql<string>`${ref('v.Placa')}`;
    if (filters.text) {
      const pattern = containsPattern(filters.text);
      qb = qb.where((eb) => eb.or([likeEscaped(names, pattern, like), likeEscaped(document, pattern, like)]));
    }
    return { qb, names, document, column };
  }

  /** Rows of the list, newest accreditation first (a page, or a batch before a key), with their next expiries. */
  private async rows(
    scope: QueryScope,
    filters: StatusFilters,
    today: string,
    size: { take: number; skip?: number; before?: number },
  ): Promise<Row[]> {
    const { qb, names, document, column } = this.filtered(scope, filters);
    const rows = (await (size.before === undefined ? qb : qb.where('a.IdAcreditacion', '<', size.before))
      .select([
        'a.IdAcreditacion',
        `a.${column} as Titular`,
        document.as('Documento'),
        names.as('Nombres'),
        'c.Compania as CompaniaContratista',
        'k.NumeroContrato',
        'a.FechaInicio',
        'a.FechaFin',
        'a.Estado',
        sql<string>`case when ${sql.ref('s.Titular')} is null then 'N' else 'S' end`.as('Presente'),
        's.Instante as Desde',
      ])
      .orderBy('a.IdAcreditacion', 'desc')
      .limit(size.take)
      .offset(size.skip ?? 0)
      .execute()) as Array<Record<string, unknown>>;
    // The requirement each holder of these rows has expiring next (from today on): one read for all.
    const holders = [...new Set(rows.map((r) => Number(r.Titular)))];
    const next = new Map<number, { Requisito: string; FechaVencimiento: string }>();
    const kept = holders.length
      ? ((await this.database.db
          .selectFrom(`${this.registry.require('accredited-requirement').table} as k2`)
          .innerJoin(`${this.registry.require('requirement').table} as q`, 'q.IdRequisito', 'k2.IdRequisito')
          .select([`k2.${column} as Titular`, 'q.Requisito', 'k2.FechaVencimiento'])
          .where('k2.IdCliente', '=', scope.clientId)
          .where(`k2.${column}`, 'in', holders)
          .where('k2.FechaVencimiento', '>=', today)
          .execute()) as Array<{ Titular: number; Requisito: string; FechaVencimiento: string }>)
      : [];
    for (const k of kept) {
      const known = next.get(Number(k.Titular));
      if (
        !known ||
        k.FechaVencimiento < known.FechaVencimiento ||
        (k.FechaVencimiento === known.FechaVencimiento && k.Requisito < known.Requisito)
      )
        next.set(Number(k.Titular), k);
    }
    return rows.map(({ Titular, ...row }) => {
      const soonest = next.get(Number(Titular));
      return {
        ...row,
        IdAcreditacion: Number(row.IdAcreditacion),
        ProximoRequisito: soonest?.Requisito ?? null,
        ProximoVencimiento: soonest?.FechaVencimiento ?? null,
        // The instant of presence as ISO.
        Desde:
          row.Desde === null || row.Desde === undefined ? null : new Date(Number(row.Desde)).toISOString(),
      };
    });
  }

  /** One page of the list, newest accreditation first, and how many there are in all. */
  async page(scope: QueryScope, filters: StatusFilters, today: string, skip: number, take: number) {
    const [data, total] = await Promise.all([
      this.rows(scope, filters, today, { take, skip }),
      this.filtered(scope, filters)
        .qb.select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    const totalCount = Number((total as { n: number | string }).n);
    return { data, totalCount, totalPages: Math.ceil(totalCount / take) };
  }

  /** Every row, a thousand at a time by key (each page costs the same), for the export. */
  async *batches(scope: QueryScope, filters: StatusFilters, today: string): AsyncGenerator<Row[]> {
    let before: number | undefined;
    for (;;) {
      const rows = await this.rows(scope, filters, today, { take: 1000, before });
      if (rows.length) yield rows;
      if (rows.length < 1000) return;
      before = rows[rows.length - 1].IdAcreditacion as number;
    }
  }
}
