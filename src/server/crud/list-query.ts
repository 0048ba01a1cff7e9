import { MAX_PAGE_SIZE } from '../../shared/constants.js';
import { isIsoDate } from '../../shared/dates.js';
import type { SortOrder } from '../../shared/schema/types.js';
import { badQuery } from '../errors.js';
import { queryJson } from '../plugins/input.js';
import { type Entity, INTEGER_RANGE } from '../registry.js';

export type FilterValue = string | number | null;

export interface ListQuery {
  sort: { field: string; order: SortOrder };
  offset: number;
  limit: number;
  /** Each filter is an equality, or membership when it has several values; all joined by AND. */
  filters: Array<{ field: string; values: FilterValue[] }>;
  /** Bounds on dates and numbers (`Fecha_gte`, `Fecha_lte`), inclusive, joined by AND. */
  ranges?: Array<{ field: string; op: '>=' | '<='; value: FilterValue }>;
  /** The companies whose records a list keeps (`IdCompania`), for an entity with x-companyFilter. */
  companies?: number[];
  /** Free text searched in the entity's x-search fields. */
  q?: string;
}

export interface RawListQuery {
  sort?: unknown;
  range?: unknown;
  filter?: unknown;
}

export const MAX_SEARCH_LENGTH = 100;
export const MAX_FILTER_VALUES = 1000;

function parseJson(parameter: string, raw: unknown): unknown {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') throw badQuery(parameter, 'query.repeated');
  return queryJson(parameter, raw);
}

/** The fields a list may be filtered by with equality: declared filters, references and the key. */
export function filterableFields(entity: Entity): Set<string> {
  // Nobody narrows a list by a health or criminal-record value: a filter would tell it to whom may not read it.
  const sensitive = new Set(entity.sensitive.map((s) => s.field));
  return new Set(
    [entity.primaryKey, ...entity.filters, ...entity.references.map((r) => r.field)].filter(
      (f) => !sensitive.has(f),
    ),
  );
}

export function sortableFields(entity: Entity): Set<string> {
  return new Set([entity.primaryKey, ...entity.sortable]);
}

/**
 * Translates the ra-data-simple-rest list parameters (`sort=["field","ASC"]`, `range=[0,24]`,
 * `filter={...}`) into a checked query. Field names are only ever taken from the schema, so the
 * SQL built from the result never contains text from the request except as bound values.
 */
export function parseListQuery(entity: Entity, raw: RawListQuery): ListQuery {
  return {
    sort: parseSort(entity, parseJson('sort', raw.sort)),
    ...parseRange(parseJson('range', raw.range)),
    ...parseFilter(entity, parseJson('filter', raw.filter)),
  };
}

function parseSort(entity: Entity, sort: unknown): ListQuery['sort'] {
  if (sort === undefined) return entity.defaultSort;
  if (
    !Array.isArray(sort) ||
    sort.length !== 2 ||
    typeof sort[0] !== 'string' ||
    typeof sort[1] !== 'string'
  ) {
    throw badQuery('sort', 'query.sortShape');
  }
  const field = sort[0] === 'id' ? entity.primaryKey : sort[0];
  if (!sortableFields(entity).has(field)) throw badQuery('sort', 'query.sortField', { field: sort[0] });
  const order = sort[1].toUpperCase();
  if (order !== 'ASC' && order !== 'DESC') throw badQuery('sort', 'query.sortOrder');
  return { field, order };
}

function parseRange(range: unknown): Pick<ListQuery, 'offset' | 'limit'> {
  if (range === undefined) return { offset: 0, limit: MAX_PAGE_SIZE };
  if (
    !Array.isArray(range) ||
    range.length !== 2 ||
    !range.every((n) => Number.isSafeInteger(n) && n >= 0) ||
    range[1] < range[0]
  ) {
    throw badQuery('range', 'query.rangeShape');
  }
  const limit = range[1] - range[0] + 1;
  if (limit > MAX_PAGE_SIZE) throw badQuery('range', 'query.rangeTooLarge', { max: MAX_PAGE_SIZE });
  return { offset: range[0], limit };
}

/** A filter key naming a bound on a field: `Fecha_gte` is "Fecha on or after". */
const RANGE_KEY = /^(.+)_(gte|lte)$/;

/** Fields a list may be bounded on: filterable dates and numbers (not references). */
function rangeable(entity: Entity, field: string): boolean {
  const prop = entity.schema.properties[field];
  if (!prop || !entity.filters.includes(field) || prop['x-ref']) return false;
  return (
    prop.format === 'date' || prop.format === 'date-time' || prop.type === 'integer' || prop.type === 'number'
  );
}

/** The virtual filter of the companies a record belongs to, directly or through a reference. */
const COMPANY_FILTER = 'IdCompania';

function parseFilter(
  entity: Entity,
  filter: unknown,
): Pick<ListQuery, 'filters' | 'ranges' | 'companies' | 'q'> {
  if (filter === undefined) return { filters: [] };
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) {
    throw badQuery('filter', 'query.filterShape');
  }
  const allowed = filterableFields(entity);
  const filters: ListQuery['filters'] = [];
  const ranges: ListQuery['ranges'] = [];
  let companies: number[] | undefined;
  let q: string | undefined;
  for (const [key, value] of Object.entries(filter)) {
    if (key === 'q') {
      if (typeof value !== 'string') throw badQuery('filter', 'query.filterValue', { field: 'q' });
      if (value.length > MAX_SEARCH_LENGTH)
        throw badQuery('filter', 'query.searchTooLong', { max: MAX_SEARCH_LENGTH });
      if (value.trim()) q = value.trim();
      continue;
    }
    const bound = RANGE_KEY.exec(key);
    if (bound && !allowed.has(key) && rangeable(entity, bound[1])) {
      const [parsed] = parseFilterValues(entity, bound[1], key, [value]);
      if (parsed === null) throw badQuery('filter', 'query.filterValue', { field: key });
      ranges.push({ field: bound[1], op: bound[2] === 'gte' ? '>=' : '<=', value: parsed });
      continue;
    }
    if (key === COMPANY_FILTER && entity.companyFilter) {
      const values = (Array.isArray(value) ? value : [value]).map(integerOf);
      if (values.length > MAX_FILTER_VALUES || values.some((v) => v === undefined))
        throw badQuery('filter', 'query.filterValue', { field: key });
      companies = values as number[];
      continue;
    }
    const field = key === 'id' ? entity.primaryKey : key;
    if (!allowed.has(field)) throw badQuery('filter', 'query.filterField', { field: key });
    const values = Array.isArray(value) ? value : [value];
    if (values.length > MAX_FILTER_VALUES) throw badQuery('filter', 'query.filterValue', { field: key });
    filters.push({ field, values: parseFilterValues(entity, field, key, values) });
  }
  return { filters, ranges, companies, q };
}

/** Filter values typed as the field is (a text id may arrive as a number and the reverse). */
export function parseFilterValues(
  entity: Entity,
  field: string,
  key: string,
  values: unknown[],
): FilterValue[] {
  return values.map((v) => coerce(entity, field, key, v));
}

function coerce(entity: Entity, field: string, key: string, value: unknown): FilterValue {
  if (value === null) return null;
  const prop = entity.schema.properties[field];
  const type = prop.type === 'array' ? prop.items?.type : prop.type;
  if (prop.format === 'date' || prop.format === 'date-time') {
    if (typeof value === 'string' && isIsoDate(value, prop.format)) return value;
  } else if (type === 'string') {
    if (typeof value === 'string' || typeof value === 'number') return String(value);
  } else {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof n === 'number' && Number.isFinite(n) && type === 'number') return n;
    const integer = integerOf(value);
    if (integer !== undefined) return integer;
  }
  throw badQuery('filter', 'query.filterValue', { field: key });
}

/**
 * A filter's integer, given as a number or as its digits; undefined for anything else. An integer
 * the column cannot hold matches nothing anyone stored: refused, as any bad value.
 */
function integerOf(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' &&
    Number.isInteger(n) &&
    n >= INTEGER_RANGE.minimum &&
    n <= INTEGER_RANGE.maximum
    ? n
    : undefined;
}
