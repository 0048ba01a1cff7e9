import { sql } from 'kysely';
import { type EntityCode, isEntityCode, requestNumber } from '../../../shared/accreditation.js';
import { MAX_PAGE_SIZE } from '../../../shared/constants.js';
import { containsPattern, likeEscaped } from '../../crud/filters.js';
import type { Row } from '../../crud/types.js';
import type { Database } from '../../db/connection.js';
import { badQuery } from '../../errors.js';
import { queryJson } from '../../plugins/input.js';
import type { Registry } from '../../registry.js';
import type { Requester } from '../../services/requester.js';
import { monthsOf } from './counts.js';
import type { Span } from './period.js';
import type { Authoriser } from './roles.js';

/** The request row of spec section 3 (IdSolicitud, Nombres, Documento, dates, profile, status), and a few more. */
export const REQUEST_COLUMNS = [
  'IdSolicitud',
  'NumeroSolicitud',
  'IdEntidad',
  'Nombres',
  'Documento',
  'FechaInicio',
  'FechaFin',
  'FechaSolicitud',
  'DescripcionPerfil',
  'EstadoAprobacion',
  'Movilizacion',
  'IdCompania',
  'CompaniaContratista',
  'NumeroContrato',
  'SolicitudCompleta',
  'Requisito',
] as const;

const SORTABLE: Record<string, string> = {
  IdSolicitud: 'r.IdSolicitud',
  FechaSolicitud: 'r.FechaSolicitud',
  FechaInicio: 'r.FechaInicio',
  FechaFin: 'r.FechaFin',
  EstadoAprobacion: 'r.EstadoAprobacion',
  Nombres: 'Nombres',
};
const EQUALS: Record<string, string> = {
  IdSolicitud: 'r.IdSolicitud',
  IdEntidad: 'r.IdEntidad',
  EstadoAprobacion: 'r.EstadoAprobacion',
  IdCompania: 'r.IdCompania',
  IdContrato: 'r.IdContrato',
};
const CONTAINS = new Set(['Nombres', 'Documento']);

export interface RequestQuery {
  skip: number;
  take: number;
  sort: { column: string; desc: boolean };
  equals: Array<[string, unknown]>;
  contains: Array<[string, string]>;
  spans?: Span[];
  /** The request type listed (TipoSolicitud): M mobilisation unless another is asked. */
  kind?: string;
}

/**
 * The grid list call of spec section 7 for requests: skip, take, sort ([{ selector, desc }],
 * RowIndex or nothing meaning newest request first) and filter (triples joined by and: equality
 * on ids and statuses, "contains" on names and documents).
 */
export function requestQuery(query: Record<string, unknown>, spans?: Span[], kind = 'M'): RequestQuery {
  const json = (name: string): unknown => {
    const raw = query[name];
    if (raw === undefined || raw === '') return undefined;
    return queryJson(name, String(raw));
  };
  const skip = query.skip === undefined ? 0 : Number(query.skip);
  const take = query.take === undefined ? 10 : Number(query.take);
  if (!Number.isSafeInteger(skip) || skip < 0) throw badQuery('skip', 'query.rangeShape');
  if (!Number.isSafeInteger(take) || take < 1 || take > MAX_PAGE_SIZE)
    throw badQuery('take', 'query.rangeTooLarge', { max: MAX_PAGE_SIZE });
  let sort = { column: 'r.FechaSolicitud', desc: true };
  const rawSort = json('sort');
  const first = (Array.isArray(rawSort) ? rawSort[0] : rawSort) as
    | { selector?: unknown; desc?: unknown }
    | undefined;
  if (first && first.selector !== 'RowIndex') {
    const column = SORTABLE[String(first.selector)];
    if (!column) throw badQuery('sort', 'query.sortField', { field: String(first.selector).slice(0, 40) });
    sort = { column, desc: first.desc === true };
  }
  const equals: Array<[string, unknown]> = [];
  const contains: Array<[string, string]> = [];
  const visit = (node: unknown): void => {
    if (node === undefined || node === null) return;
    if (!Array.isArray(node)) throw badQuery('filter', 'query.filterShape');
    if (node.length === 3 && typeof node[0] === 'string' && typeof node[1] === 'string') {
      const [field, op, value] = node as [string, string, unknown];
      if (op === '=' && EQUALS[field] && (typeof value === 'string' || typeof value === 'number'))
        equals.push([EQUALS[field], value]);
      else if (op === 'contains' && CONTAINS.has(field) && typeof value === 'string' && value.length <= 100)
        contains.push([field, value.trim().toLocaleUpperCase('es')]);
      else throw badQuery('filter', 'query.filterField', { field: field.slice(0, 40) });
      return;
    }
    node.forEach((part, index) => {
      if (index % 2 === 1) {
        if (typeof part !== 'string' || part.toLowerCase() !== 'and')
          throw badQuery('filter', 'query.filterShape');
      } else visit(part);
    });
  };
  visit(json('filter'));
  for (const name of ['IdEntidad', 'EstadoAprobacion', 'IdCompania', 'IdContrato'] as const) {
    const value = query[name] ?? (name === 'IdCompania' ? query.IdCompaniaContratista : undefined);
    if (value !== undefined && value !== '') equals.push([EQUALS[name], value]);
  }
  return { skip, take, sort, equals, contains, spans, kind };
}

/**
 * The requests a caller may list: a requester its company's, of the kinds its menu reaches; an
 * authoriser its division's, of the kinds it approves, once sent.
 */
export class RequestLists {
  constructor(
    private readonly database: Database,
    private readonly registry: Registry,
  ) {}

  private base(who: Requester | Authoriser, query: RequestQuery) {
    const t = (name: string) => this.registry.require(name).table;
    const { principal } = who;
    const like = this.database.dialect === 'postgres' ? 'ilike' : 'like';
    let qb = this.database.db
      .selectFrom(`${t('request')} as r`)
      .leftJoin(`${t('person')} as p`, 'p.IdPersona', 'r.IdPersona')
      .leftJoin(`${t('vehicle')} as v`, 'v.IdVehiculo', 'r.IdVehiculo')
      .leftJoin(`${t('accreditation-profile')} as ap`, 'ap.IdPerfilAcreditacion', 'r.IdPerfilAcreditacion')
      .leftJoin(`${t('company')} as c`, 'c.IdCompania', 'r.IdCompania')
      .leftJoin(`${t('contract')} as k`, 'k.IdContrato', 'r.IdContrato')
      // A requirement update's requirement (the one it renews).
      .leftJoin(`${t('requirement')} as rq`, 'rq.IdRequisito', 'r.IdRequisitoRenovado')
      .where('r.IdCliente', '=', principal.clientId as number)
      .where('r.IdDivision', '=', principal.divisionId as number)
      .where('r.IdEntidad', 'in', who.entities)
      .where('r.TipoSolicitud', '=', query.kind ?? 'M');
    if ('companyId' in who) qb = qb.where('r.IdCompania', '=', who.companyId);
    else qb = qb.where('r.EstadoAprobacion', '<>', 'I');
    for (const [column, value] of query.equals) qb = qb.where(column, '=', value);
    const spans = query.spans;
    if (spans?.length)
      qb = qb.where((eb) =>
        eb.or(
          spans.map((s) => eb.and([eb('r.FechaSolicitud', '>=', s.from), eb('r.FechaSolicitud', '<', s.to)])),
        ),
      );
    const ref = sql.ref;
    // A company's own request (E) is named by the company, as a worker's by the worker.
    const own = (column: string) => sql`case when ${ref('r.IdEntidad')} = 'E' then ${ref(column)} end`;
    const names = sql<string>`coalesce(${ref('p.Apellido')} || ' ' || ${ref('p.Nombre')}, ${ref('v.Placa')}, ${ref('r.MotivoVisita')}, ${own('c.Compania')})`;
    const documents = sql<string>`coalesce(${ref('p.Documento')}, ${ref('v.Placa')}, ${own('c.Documento')})`;
    for (const [field, value] of query.contains) {
      qb = qb.where(likeEscaped(field === 'Nombres' ? names : documents, containsPattern(value), like));
    }
    return { qb, names, documents };
  }

  /** The columns of a request row (spec section 3), names and documents as the lists show them. */
  private columns(names: ReturnType<typeof sql<string>>, documents: ReturnType<typeof sql<string>>) {
    return [
      'r.IdSolicitud',
      'r.IdEntidad',
      names.as('Nombres'),
      documents.as('Documento'),
      'r.FechaInicio',
      'r.FechaFin',
      'r.FechaSolicitud',
      'ap.Descripcion as DescripcionPerfil',
      'r.EstadoAprobacion',
      'r.TipoSolicitud as Movilizacion',
      'r.IdCompania',
      'c.Compania as CompaniaContratista',
      'k.NumeroContrato',
      'r.SolicitudCompleta',
      'rq.Requisito',
    ] as const;
  }

  /** A page of requests and its count, as queries (the benchmark runs these same statements). */
  queries(who: Requester | Authoriser, query: RequestQuery) {
    const { qb, names, documents } = this.base(who, query);
    const page = qb
      .select(this.columns(names, documents))
      .orderBy(query.sort.column === 'Nombres' ? names : query.sort.column, query.sort.desc ? 'desc' : 'asc')
      .orderBy('r.IdSolicitud', 'desc')
      .limit(query.take)
      .offset(query.skip);
    return { page, count: this.counted(who, query) ?? qb.select((eb) => eb.fn.countAll().as('total')) };
  }

  /**
   * The count from the request counters, when the filter is one they answer (kind, status and
   * company, over whole months): a pending queue of a million requests is then counted from a
   * few hundred rows.
   */
  private counted(who: Requester | Authoriser, query: RequestQuery) {
    const counters: Record<string, string> = {
      'r.IdEntidad': 'IdEntidad',
      'r.EstadoAprobacion': 'EstadoAprobacion',
      'r.IdCompania': 'IdCompania',
    };
    if (query.contains.length || query.equals.some(([column]) => !counters[column])) return undefined;
    // The counters count whole months: a span of days (a query's dates) is counted from the rows.
    const monthly = (instant: string) => /^\d{4}-\d{2}-01T00:00:00(\.000)?Z$/.test(instant);
    if (query.spans?.some((s) => !monthly(s.from) || !monthly(s.to))) return undefined;
    const { principal } = who;
    let qb = this.database.db
      .selectFrom(this.registry.require('request-count').table)
      .select((eb) => eb.fn.coalesce(eb.fn.sum('Cantidad'), eb.lit(0)).as('total'))
      .where('IdCliente', '=', principal.clientId as number)
      .where('IdDivision', '=', principal.divisionId as number)
      .where('IdEntidad', 'in', who.entities)
      .where('TipoSolicitud', '=', query.kind ?? 'M');
    if ('companyId' in who) qb = qb.where('IdCompania', '=', who.companyId);
    else qb = qb.where('EstadoAprobacion', '<>', 'I');
    for (const [column, value] of query.equals) qb = qb.where(counters[column], '=', value);
    if (query.spans?.length) qb = qb.where('Mes', 'in', monthsOf(query.spans));
    return qb;
  }

  /**
   * Every request the query selects, newest first, a thousand at a time: pages follow each other
   * by key (before the last one's number), so every page costs the same however deep the export.
   */
  async *batches(who: Requester | Authoriser, query: RequestQuery): AsyncGenerator<Row[]> {
    const size = 1000;
    let last: number | undefined;
    for (;;) {
      const { qb, names, documents } = this.base(who, query);
      const after = last;
      const rows = (await (after === undefined ? qb : qb.where('r.IdSolicitud', '<', after))
        .select(this.columns(names, documents))
        .orderBy('r.IdSolicitud', 'desc')
        .limit(size)
        .execute()) as Row[];
      if (rows.length) yield rows;
      if (rows.length < size) return;
      last = rows[rows.length - 1].IdSolicitud as number;
    }
  }

  async list(
    who: Requester | Authoriser,
    query: RequestQuery,
  ): Promise<{ data: Row[]; totalCount: number; totalPages: number }> {
    const { page, count } = this.queries(who, query);
    const rows = (await page.execute()) as Row[];
    const { total } = (await count.executeTakeFirstOrThrow()) as { total: number | string };
    const totalCount = Number(total);
    return {
      data: rows.map((r) => ({ ...r, NumeroSolicitud: requestNumber(r.IdSolicitud as number) })),
      totalCount,
      totalPages: Math.ceil(totalCount / query.take),
    };
  }
}

export function entityParam(value: unknown): EntityCode | undefined {
  return isEntityCode(value) ? value : undefined;
}
