import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_PAGE_SIZE } from '../../shared/constants.js';
import { filterableFields, type ListQuery, parseFilterValues } from '../crud/list-query.js';
import { ApiError, badQuery } from '../errors.js';
import { queryJson } from '../plugins/input.js';
import type { Entity } from '../registry.js';
import { withoutSensitive } from '../services/privacy.js';
import { field, INT32, resultResponses } from './responses.js';

/** The most records one obtenerTodos answers: reference lists are small; this is a guard. */
export const LOOKUP_LIMIT = 5000;

const result = (description: string) => resultResponses(description, [400, 401, 403]);

/** Any signed-in session of a client may read its reference lists; the scope still applies. */
async function signedIn(request: FastifyRequest): Promise<void> {
  if (!request.principal.grants) throw new ApiError('FORBIDDEN');
}

/**
 * Who may call an entity's lookups: the profiles that reach the entity, as for its REST resource;
 * every signed-in user for reference data (x-lookupAccess signedIn); and for records that name a
 * screen (field rules), the profiles that reach that screen, for those records only.
 * Answers the extra filter the caller's reach adds, if any.
 */
export function lookupReach(entity: Entity, request: FastifyRequest): ListQuery['filters'] {
  const grants = request.principal.grants;
  if (!grants) throw new ApiError('FORBIDDEN');
  if (grants.resources.has(entity.name) || entity.lookupAccess === 'signedIn') return [];
  const access = entity.lookupAccess;
  if (typeof access === 'object')
    return [{ field: access.screenField, values: [...grants.resources.keys()] }];
  throw new ApiError('FORBIDDEN');
}

/** A query parameter's property, matched without regard to case (the spec writes IdPais and idPais). */
function propertyNamed(entity: Entity, name: string): string | undefined {
  const lower = name.toLowerCase();
  return Object.keys(entity.schema.properties).find((p) => p.toLowerCase() === lower);
}

/**
 * obtenerTodos parameters as equality filters. The scope's own fields (IdCliente, IdDivision) are
 * accepted and ignored: they come from the token. Anything else unknown is refused.
 */
export function lookupFilters(entity: Entity, query: Record<string, unknown>): ListQuery['filters'] {
  const allowed = filterableFields(entity);
  const scope = new Set(Object.values(entity.scope));
  const filters: ListQuery['filters'] = [];
  for (const [name, raw] of Object.entries(query)) {
    const field = propertyNamed(entity, name);
    if (field && scope.has(field)) continue;
    if (!field || !allowed.has(field)) throw badQuery(name, 'query.filterField', { field: name });
    filters.push({ field, values: parseFilterValues(entity, field, name, [raw]) });
  }
  return filters;
}

/** A property as a documented, bounded query parameter. */
function queryParameter(entity: Entity, name: string): Record<string, unknown> {
  const prop = entity.schema.properties[name];
  const type = prop.type === 'array' ? prop.items?.type : prop.type;
  if (type === 'integer') return field.integer(prop.minimum ?? INT32.min, prop.maximum ?? INT32.max);
  if (type === 'number') return { type: 'number' };
  return field.text(prop.format ? 30 : (prop.maxLength ?? 200));
}

/** The query of obtenerTodos: an equality per filterable field, and the scope's own (ignored). */
function lookupQuerystring(entity: Entity) {
  const names = [...new Set([...filterableFields(entity), ...Object.values(entity.scope)])];
  return {
    type: 'object',
    properties: {
      ...Object.fromEntries(names.map((name) => [name, queryParameter(entity, name)])),
      skip: field.integer(0, INT32.max, {
        description: 'Records to pass over: the `siguiente` of the page before.',
      }),
    },
  };
}

const GRID_QUERYSTRING = {
  type: 'object',
  properties: {
    skip: field.integer(0, INT32.max),
    take: field.integer(1, MAX_PAGE_SIZE),
    sort: field.text(1000, { description: '[{"selector":"Field","desc":false}]' }),
    filter: field.text(10_000, { description: '[["Field","=",value],"and",[...]]' }),
    requireTotalCount: { type: 'boolean' },
  },
};

/** yyyyMMdd (the spec's filter dates) to the ISO date the database holds. */
function isoDate(value: unknown): unknown {
  return typeof value === 'string' && /^\d{8}$/.test(value)
    ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6)}`
    : value;
}

/**
 * The grid list call of spec section 7: skip, take, sort ([{ selector, desc }], RowIndex meaning
 * the list's default order) and filter (equality triples [field, "=", value] joined by "and").
 */
export function gridQuery(entity: Entity, query: Record<string, unknown>): ListQuery {
  const json = (name: string): unknown => {
    const raw = query[name];
    if (raw === undefined || raw === '') return undefined;
    if (typeof raw !== 'string') throw badQuery(name, 'query.repeated');
    return queryJson(name, raw);
  };
  const skip = query.skip === undefined ? 0 : Number(query.skip);
  const take = query.take === undefined ? entity.perPage : Number(query.take);
  if (!Number.isSafeInteger(skip) || skip < 0) throw badQuery('skip', 'query.rangeShape');
  if (!Number.isSafeInteger(take) || take < 1 || take > MAX_PAGE_SIZE)
    throw badQuery('take', 'query.rangeTooLarge', { max: MAX_PAGE_SIZE });

  let sort = entity.defaultSort;
  const rawSort = json('sort');
  const first = Array.isArray(rawSort) ? rawSort[0] : rawSort;
  if (first !== undefined) {
    const { selector, desc } = (first ?? {}) as { selector?: unknown; desc?: unknown };
    if (typeof selector !== 'string') throw badQuery('sort', 'query.sortShape');
    if (selector !== 'RowIndex') {
      const field = propertyNamed(entity, selector);
      if (!field || !(field === entity.primaryKey || entity.sortable.includes(field)))
        throw badQuery('sort', 'query.sortField', { field: selector });
      sort = { field, order: desc === true ? 'DESC' : 'ASC' };
    } else if (desc === true) {
      sort = { field: sort.field, order: sort.order === 'ASC' ? 'DESC' : 'ASC' };
    }
  }

  const filters: ListQuery['filters'] = [];
  const allowed = filterableFields(entity);
  const visit = (node: unknown): void => {
    if (node === undefined || node === null) return;
    if (!Array.isArray(node)) throw badQuery('filter', 'query.filterShape');
    if (node.length === 3 && typeof node[0] === 'string' && node[1] === '=') {
      const field = propertyNamed(entity, node[0]);
      if (!field || !allowed.has(field)) throw badQuery('filter', 'query.filterField', { field: node[0] });
      const format = entity.schema.properties[field].format;
      const value = format === 'date' ? isoDate(node[2]) : node[2];
      filters.push({ field, values: parseFilterValues(entity, field, node[0], [value]) });
      return;
    }
    // A group: conditions with "and" between them (anything else is refused).
    node.forEach((part, index) => {
      if (index % 2 === 1) {
        if (typeof part !== 'string' || part.toLowerCase() !== 'and')
          throw badQuery('filter', 'query.filterShape');
      } else visit(part);
    });
  };
  visit(json('filter'));
  return { sort, offset: skip, limit: take, filters };
}

/**
 * The spec's lookup calls (section 7): for each entity that names an x-lookup,
 * GET /api/<lookup>/obtenerTodos and GET /api/<lookup>/filtrar, answering inside `result`; and
 * the client configuration values at /api/sistemaConfiguracion/obtener.
 */
export default async function lookupRoutes(fastify: FastifyInstance): Promise<void> {
  const { registry, crud } = fastify;
  for (const entity of registry.entities) {
    if (!entity.lookup) continue;
    const tags = ['lookups'];
    fastify.get<{ Querystring: Record<string, unknown> }>(
      `/${entity.lookup}/obtenerTodos`,
      {
        schema: {
          tags,
          summary: `Every ${entity.name} record of the session’s scope`,
          description: `Equality on any of: ${[...filterableFields(entity)].join(', ')}. At most ${LOOKUP_LIMIT} records an answer: totalCount says how many there are, and siguiente, when more follow, the skip of the next page.`,
          querystring: lookupQuerystring(entity),
          response: result(`${entity.name} records in their default order`),
        },
      },
      async (request) => {
        const { skip, ...filters } = request.query;
        const offset = skip === undefined ? 0 : Number(skip);
        const query: ListQuery = {
          sort: entity.defaultSort,
          offset,
          limit: LOOKUP_LIMIT,
          filters: [...lookupReach(entity, request), ...lookupFilters(entity, filters)],
        };
        const { records, total } = await crud.list(entity, query, request.principal);
        withoutSensitive(entity, records);
        // A list longer than one answer says so: its total, and where the next page starts.
        const next = offset + records.length < total ? offset + records.length : undefined;
        return { result: records, totalCount: total, ...(next !== undefined && { siguiente: next }) };
      },
    );
    fastify.get<{ Querystring: Record<string, unknown> }>(
      `/${entity.lookup}/filtrar`,
      {
        schema: {
          tags,
          summary: `A page of ${entity.name} (grid list convention)`,
          description:
            'skip, take, sort=[{"selector":"Field","desc":false}] (RowIndex: the default order), ' +
            'filter=[["Field","=",value],"and",[...]] (dates as yyyyMMdd), requireTotalCount.',
          querystring: GRID_QUERYSTRING,
          response: result('{ data, totalCount, totalPages }'),
        },
      },
      async (request) => {
        const reach = lookupReach(entity, request);
        const query = gridQuery(entity, request.query);
        query.filters.unshift(...reach);
        const { records, total } = await crud.list(entity, query, request.principal);
        withoutSensitive(entity, records);
        return { result: { data: records, totalCount: total, totalPages: Math.ceil(total / query.limit) } };
      },
    );
  }

  const parameters = registry.get('parameter');
  if (parameters) {
    fastify.get<{ Querystring: { IdConfiguracion?: string } }>(
      '/sistemaConfiguracion/obtener',
      {
        preHandler: signedIn,
        schema: {
          tags: ['lookups'],
          summary: 'A configuration value of the session’s client (MAXIMAGESIZECLIENTE, CLIENTIMAGERATIO, …)',
          querystring: {
            type: 'object',
            properties: { IdCliente: field.text(20), IdConfiguracion: field.text(60) },
            required: ['IdConfiguracion'],
          },
          response: result('{ IdConfiguracion, Descripcion, Valor1, Valor2 } or null when not configured'),
        },
      },
      async (request) => {
        const id = String(request.query.IdConfiguracion ?? '').toUpperCase();
        const query: ListQuery = {
          sort: parameters.defaultSort,
          offset: 0,
          limit: 1,
          filters: [
            { field: 'IdConfiguracion', values: [id] },
            { field: 'Activo', values: ['S'] },
          ],
        };
        const [row] = (await crud.list(parameters, query, request.principal)).records;
        return {
          result: row
            ? {
                IdConfiguracion: row.IdConfiguracion,
                Descripcion: row.Descripcion,
                Valor1: row.Valor1,
                Valor2: row.Valor2,
              }
            : null,
        };
      },
    );
  }
}
