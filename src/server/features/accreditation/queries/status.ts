import { type SelectQueryBuilder, sql } from 'kysely';
import { containsPattern, likeEscaped } from '../../../crud/filters.js';
import type { Row } from '../../../crud/types.js';
import type { Database } from '../../../db/connection.js';
import type { Registry } from '../../../registry.js';
import { ACCESS_TABLES } from '../../access/tables.js';

/** Who runs a query: the client's division, or one contractor company of it. */
export interface QueryScope {
  clientId: number;
  divisionId: number;
  companyId?: number;
}

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

/** The status list's columns, in the order the grid and the workbook show them. */
export const STATUS_COLUMNS = [
  'IdAcreditacion',
  'Documento',
  'Nombres',
  'CompaniaContratista',
  'NumeroContrato',
  'FechaInicio',
  'FechaFin',
  'Estado',
  'ProximoRequisito',
  'ProximoVencimiento',
  'Presente',
  'Desde',
] as const;

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

  private query(scope: QueryScope, filters: StatusFilters, today: string) {
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
    // The requirement of the holder that expires next, from today on (its earliest expiry).
    const kept = t('accredited-requirement');
    const next = (select: 'k2.FechaVencimiento' | 'q.Requisito') =>
      sql<string | null>`(${this.database.db
        .selectFrom(`${kept} as k2`)
        .innerJoin(`${t('requirement')} as q`, 'q.IdRequisito', 'k2.IdRequisito')
        .select(select)
        .whereRef(`k2.${column}`, '=', `a.${column}`)
        .where('k2.IdCliente', '=', scope.clientId)
        .where('k2.FechaVencimiento', '>=', today)
        .orderBy('k2.FechaVencimiento')
        .orderBy('q.Requisito')
        .limit(1)})`;
    return qb.select([
      'a.IdAcreditacion',
      document.as('Documento'),
      names.as('Nombres'),
      'c.Compania as CompaniaContratista',
      'k.NumeroContrato',
      'a.FechaInicio',
      'a.FechaFin',
      'a.Estado',
      next('q.Requisito').as('ProximoRequisito'),
      next('k2.FechaVencimiento').as('ProximoVencimiento'),
      sql<string>`case when ${ref('s.Titular')} is null then 'N' else 'S' end`.as('Presente'),
      's.Instante as Desde',
    ]);
  }

  /** One page of the list, newest accreditation first, and how many there are in all. */
  async page(scope: QueryScope, filters: StatusFilters, today: string, skip: number, take: number) {
    const qb = this.query(scope, filters, today);
    const [rows, total] = await Promise.all([
      qb.orderBy('a.IdAcreditacion', 'desc').limit(take).offset(skip).execute(),
      this.database.db
        .selectFrom(qb.as('q'))
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    const totalCount = Number((total as { n: number | string }).n);
    return { data: rows.map(shape), totalCount, totalPages: Math.ceil(totalCount / take) };
  }

  /** Every row, a thousand at a time by key (each page costs the same), for the export. */
  async *batches(scope: QueryScope, filters: StatusFilters, today: string): AsyncGenerator<Row[]> {
    let last: number | undefined;
    for (;;) {
      let qb = this.query(scope, filters, today);
      if (last !== undefined) qb = qb.where('a.IdAcreditacion', '<', last);
      const rows = (await qb.orderBy('a.IdAcreditacion', 'desc').limit(1000).execute()).map(shape);
      if (rows.length) yield rows;
      if (rows.length < 1000) return;
      last = rows[rows.length - 1].IdAcreditacion as number;
    }
  }
}

/** A row as the API answers it: the instant of presence as ISO, numbers as numbers. */
function shape(row: Record<string, unknown>): Row {
  const since =
    row.Desde === null || row.Desde === undefined ? null : new Date(Number(row.Desde)).toISOString();
  return { ...row, IdAcreditacion: Number(row.IdAcreditacion), Desde: since };
}
