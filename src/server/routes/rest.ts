import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import { AUDIT_FIELDS, type PropertySchema } from '../../shared/schema/types.js';
import { parseListQuery, type RawListQuery } from '../crud/list-query.js';
import type { ApiRecord } from '../crud/types.js';
import { ApiError } from '../errors.js';
import { resourceName } from '../i18n.js';
import type { Principal } from '../principal.js';
import type { Entity } from '../registry.js';
import { exportBatches, exportColumns, writeWorkbook, xlsxReply } from '../services/excel.js';
import {
  answerSensitive,
  loggedBatches,
  maskedFields,
  maskSensitive,
  readOrigin,
  withoutSensitive,
} from '../services/privacy.js';
import { divisionTimeZone } from '../site.js';

/** OpenAPI view of a property: its JSON Schema without the x- keywords, nullable on output. */
function documented(prop: PropertySchema, nullable: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = Object.fromEntries(
    Object.entries(prop).filter(([k]) => !k.startsWith('x-')),
  );
  if (nullable) out.type = [prop.type, 'null'];
  if (prop['x-ref'])
    out.description = `${prop.description ?? ''} Reference to ${prop['x-ref'].resource}.`.trim();
  return out;
}

function recordSchema(entity: Entity): Record<string, unknown> {
  const props = entity.schema.properties;
  return {
    type: 'object',
    properties: {
      id: { type: props[entity.primaryKey].type },
      ...Object.fromEntries(Object.entries(props).map(([k, p]) => [k, documented(p, true)])),
      ...Object.fromEntries(AUDIT_FIELDS.map((f) => [f, { type: ['string', 'null'] }])),
    },
  };
}

function inputSchema(entity: Entity): Record<string, unknown> {
  const props = entity.schema.properties;
  return {
    type: 'object',
    additionalProperties: false,
    required: (entity.schema.required ?? []).filter((f) => entity.writable.includes(f)),
    properties: Object.fromEntries(entity.writable.map((f) => [f, documented(props[f], false)])),
  };
}

const ERROR_REF = { $ref: 'ApiError#' };
const idParams = { type: 'object', properties: { id: { type: 'string', maxLength: 200 } }, required: ['id'] };

/**
 * Generic CRUD in the ra-data-simple-rest convention, one set of routes per entity so the OpenAPI
 * document describes each. Validation happens in the service (the same for every caller), so
 * Fastify's own validation is turned off here; the schemas only document.
 */
export default async function restRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.setValidatorCompiler(() => (value) => ({ value }));
  // Records are written as they come from the database; the response schemas document them.
  // (Nullable unions make the schema-driven serializer several times slower than JSON.stringify.)
  fastify.setSerializerCompiler(() => (data) => JSON.stringify(data));
  for (const entity of fastify.registry.entities) registerEntity(fastify, entity);
}

/**
 * The profile reaches the entity through its menus: reading needs any grant, writing a write grant.
 * Records each user keeps for themselves (a user scope, such as saved filters) need only a session.
 */
function allowed(entity: Entity, need: 'read' | 'write') {
  return async (request: FastifyRequest) => {
    if (entity.scope.user && request.principal.grants) return;
    const access = request.principal.grants?.resources.get(entity.name);
    if (!access || (need === 'write' && (access !== 'write' || entity.readOnly)))
      throw new ApiError('FORBIDDEN');
  };
}

function registerEntity(fastify: FastifyInstance, entity: Entity): void {
  const base = `/${entity.name}`;
  const tags = [entity.module];
  const record = recordSchema(entity);
  const errors = { 400: ERROR_REF, 401: ERROR_REF, 403: ERROR_REF };
  const read = { preHandler: allowed(entity, 'read') };
  const write = { preHandler: allowed(entity, 'write') };
  const doc = (schema: FastifySchema): FastifySchema => ({ tags, ...schema });
  /** A write's answer, as its author may read it. */
  const masked = (record: ApiRecord, principal: Principal) => {
    maskSensitive(entity, [record], principal);
    return record;
  };

  fastify.get<{ Querystring: RawListQuery }>(
    base,
    {
      ...read,
      schema: doc({
        summary: `List ${entity.name}`,
        description:
          'sort=["field","ASC|DESC"], range=[first,last] (inclusive), filter={"field":value|[values],"q":"text"}; ' +
          'a filterable date or number is bounded with "field_gte" and "field_lte" (inclusive)' +
          (entity.companyFilter
            ? ', and "IdCompania": id|[ids] keeps the records of those companies (through their references). '
            : '. ') +
          'The total is in the Content-Range header.',
        querystring: {
          type: 'object',
          properties: {
            sort: { type: 'string', maxLength: 200 },
            range: { type: 'string', maxLength: 100 },
            filter: { type: 'string', maxLength: 50_000 },
          },
        },
        response: { 200: { type: 'array', items: record }, ...errors },
      }),
    },
    async (request, reply) => {
      const query = parseListQuery(entity, request.query);
      const { records, total } = await fastify.crud.list(entity, query, request.principal);
      // A list shows no pictures: a page of photos would weigh megabytes.
      for (const field of entity.images) for (const record of records) delete record[field];
      withoutSensitive(entity, records);
      const range = records.length ? `${query.offset}-${query.offset + records.length - 1}` : '*';
      reply.header('Content-Range', `${entity.name} ${range}/${total}`);
      return records;
    },
  );

  fastify.get<{ Querystring: RawListQuery & { columns?: string } }>(
    `${base}/export`,
    {
      ...read,
      schema: doc({
        summary: `Export the ${entity.name} list to Excel`,
        description:
          'The list’s sort and filter as for the list; columns=all adds every field to the list’s columns. ' +
          'An .xlsx file, sheet "data", headers in the Accept-Language language.',
        querystring: {
          type: 'object',
          properties: {
            sort: { type: 'string', maxLength: 200 },
            filter: { type: 'string', maxLength: 50_000 },
            columns: { type: 'string', enum: ['list', 'all'] },
          },
        },
        response: { 200: { description: 'The .xlsx file', type: 'string', format: 'binary' }, ...errors },
      }),
    },
    async (request, reply) => {
      const { range: _range, columns, ...listParams } = request.query;
      const query = parseListQuery(entity, listParams);
      if (columns !== undefined && columns !== 'list' && columns !== 'all')
        throw new ApiError('BAD_QUERY', { params: { parameter: 'columns' } });
      const language = request.language;
      // Refused before the first byte: a caller outside the scope gets a clean error.
      fastify.crud.scopeOf(entity, request.principal);
      const stream = new PassThrough();
      const name = resourceName(language, entity.name, true);
      const stamp = new Date().toISOString().slice(0, 10).replaceAll('-', '');
      xlsxReply(reply, `${entity.name}-${stamp}.xlsx`, `${name} ${stamp}.xlsx`);
      const masked = new Set(maskedFields(entity, request.principal));
      const sheetColumns = exportColumns(entity, language, columns === 'all').filter(
        (c) => !c.field || !masked.has(c.field),
      );
      const timeZone = await divisionTimeZone(
        fastify.database.db,
        fastify.registry,
        request.principal.divisionId,
      );
      writeWorkbook(
        stream,
        sheetColumns,
        loggedBatches(
          fastify.database.db,
          fastify.registry,
          entity,
          request.principal,
          readOrigin(request),
          exportBatches(
            fastify.database.db,
            fastify.registry,
            fastify.crud,
            entity,
            { ...query, offset: 0 },
            request.principal,
            sheetColumns.flatMap((c) => (c.field ? [c.field] : [])),
          ),
        ),
        'data',
        undefined,
        timeZone,
      ).catch((error: unknown) => {
        request.log.error({ err: error }, 'export failed');
        stream.destroy(error as Error);
      });
      return reply.send(stream);
    },
  );

  fastify.get<{ Params: { id: string } }>(
    `${base}/:id/history`,
    {
      ...read,
      schema: doc({
        summary: `The audit trail of one ${entity.name}`,
        description:
          'Every create, update and delete of the record, newest first: who, when, fields changed, before and after.',
        params: idParams,
        response: { 200: { type: 'array', items: {} }, 404: ERROR_REF, ...errors },
      }),
    },
    async (request) => {
      const id = fastify.crud.parseId(entity, request.params.id);
      await fastify.crud.getOne(entity, id, request.principal);
      return fastify.crud.history(entity, id, request.principal);
    },
  );

  fastify.get<{ Params: { id: string } }>(
    `${base}/:id`,
    {
      ...read,
      schema: doc({
        summary: `Get one ${entity.name}`,
        params: idParams,
        response: { 200: record, 404: ERROR_REF, ...errors },
      }),
    },
    async (request) => {
      const record = await fastify.crud.getOne(
        entity,
        fastify.crud.parseId(entity, request.params.id),
        request.principal,
      );
      await answerSensitive(
        fastify.database.db,
        fastify.registry,
        entity,
        [record],
        request.principal,
        readOrigin(request),
      );
      return record;
    },
  );

  // Records the server alone writes (the outbox), or a workflow alone (requests), are only listed and shown.
  if (entity.readOnly || entity.workflow) return;

  fastify.post(
    base,
    {
      ...write,
      schema: doc({
        summary: `Create ${entity.name}`,
        body: inputSchema(entity),
        response: { 201: record, 409: ERROR_REF, ...errors },
      }),
    },
    async (request, reply) => {
      reply.status(201);
      return masked(await fastify.crud.create(entity, request.body, request.principal), request.principal);
    },
  );

  fastify.put<{ Params: { id: string } }>(
    `${base}/:id`,
    {
      ...write,
      schema: doc({
        summary: `Replace ${entity.name}`,
        params: idParams,
        body: inputSchema(entity),
        response: { 200: record, 404: ERROR_REF, 409: ERROR_REF, ...errors },
      }),
    },
    async (request) =>
      masked(
        await fastify.crud.update(
          entity,
          fastify.crud.parseId(entity, request.params.id),
          request.body,
          request.principal,
          { keep: maskedFields(entity, request.principal) },
        ),
        request.principal,
      ),
  );

  fastify.delete<{ Params: { id: string } }>(
    `${base}/:id`,
    {
      ...write,
      schema: doc({
        summary: `Delete ${entity.name}`,
        params: idParams,
        response: { 200: record, 404: ERROR_REF, 409: ERROR_REF, ...errors },
      }),
    },
    async (request) =>
      masked(
        await fastify.crud.remove(entity, fastify.crud.parseId(entity, request.params.id), request.principal),
        request.principal,
      ),
  );
}
