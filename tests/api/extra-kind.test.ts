import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/server/errors.js';
import type { KindModule } from '../../src/server/features/accreditation/engine/engine.js';
import { accreditationFeature } from '../../src/server/features/accreditation/index.js';
import { kindCalls } from '../../src/server/features/accreditation/kind-routes.js';
import { KINDS } from '../../src/server/features/accreditation/kinds/index.js';
import { FEATURES } from '../../src/server/features/index.js';
import { loadRegistry, NAMED_ENUMS, type Registry } from '../../src/server/registry.js';
import { requesterOf } from '../../src/server/services/requester.js';
import { REQUEST_KIND_CODES } from '../../src/shared/request-kinds.js';
import { DIALECTS } from '../support/databases.js';
import { CONTRACTOR_CAST, world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const BASE = '/api/fotocheck';

/**
 * The recipe of docs/requests.md ("Adding a request kind"), followed by a test: a badge reprint
 * (TipoSolicitud X) for an accredited worker, a kind without lines. Its module is its row of the
 * table, its approval's effect and its one call of its own (filing); listing, evaluating and
 * removing are the calls every kind shares (kindCalls), and the engine runs it like any other.
 */
const reprint: KindModule = {
  area: 'fotocheck',
  lines: false,
  holders: ['T'],
  // The effect, in the approval's transaction: a line of the request's history for the badge office.
  approve: async (engine, trx, { request, principal }) => {
    if (request.Observacion === 'FALLA')
      throw new ApiError('BUSINESS_RULE', { messageKey: 'accreditation.refusals.notPending' });
    await engine.history(trx, request, principal, 'REPRINT', 'A', 'badge to reprint');
    return [];
  },
  routes: async (fastify: FastifyInstance) => {
    const { engine } = fastify.requests;
    fastify.post<{ Body: { IdAcreditacion: number; Observacion?: string } }>(
      '/fotocheck/crear',
      {
        schema: {
          body: {
            type: 'object',
            properties: {
              IdAcreditacion: { type: 'integer' },
              Observacion: { type: 'string', maxLength: 500 },
            },
            required: ['IdAcreditacion'],
          },
        },
      },
      async (request) => {
        const requester = requesterOf(request.principal, 'T');
        const { principal } = requester;
        const made = await engine.filing(async (trx) => {
          const held = await trx
            .selectFrom(engine.table('accreditation'))
            .selectAll()
            .where('IdAcreditacion', '=', request.body.IdAcreditacion)
            .where('IdCompania', '=', requester.companyId)
            .where('IdDivision', '=', principal.divisionId as number)
            .where('IdEntidad', '=', 'T')
            .executeTakeFirst();
          if (!held)
            throw new ApiError('NOT_FOUND', {
              params: { resource: 'accreditation', id: request.body.IdAcreditacion },
            });
          const origin = await trx
            .selectFrom(engine.table('request'))
            .select('IdPerfilAcreditacion')
            .where('IdSolicitud', '=', held.IdSolicitud)
            .executeTakeFirstOrThrow();
          const today = await engine.siteToday(trx, principal.divisionId as number);
          const filed = await engine.file(
            trx,
            {
              TipoSolicitud: 'X',
              IdEntidad: 'T',
              IdPersona: held.IdPersona,
              IdContrato: held.IdContrato,
              IdPerfilAcreditacion: origin.IdPerfilAcreditacion,
              FechaInicio: today,
              FechaFin: today,
              Observacion: request.body.Observacion ?? null,
            },
            principal,
          );
          return { ...filed, EstadoAprobacion: await engine.send(trx, filed, principal) };
        });
        return { result: { IdSolicitud: made.IdSolicitud, EstadoAprobacion: made.EstadoAprobacion } };
      },
    );
    kindCalls(fastify, fastify.requests, {
      base: '/fotocheck',
      kind: 'X',
      what: 'badge reprint',
      statuses: ['P', 'O', 'R', 'A'],
      list: { method: 'POST', path: 'filtrar' },
      evaluate: 'evaluar',
      evaluateMany: 'evaluarmasivo',
      remove: true,
    });
  },
};

describe.each(DIALECTS)('a request kind registered by a test, on %s', (dialect) => {
  const w = world(dialect, {
    users: CONTRACTOR_CAST,
    division: 'UNIDAD MINERA SAN GABRIEL',
    features: FEATURES.map((f) =>
      f.name === 'accreditation' ? accreditationFeature({ ...KINDS, X: reprint }) : f,
    ),
    enums: { ...NAMED_ENUMS, requestKind: [...REQUEST_KIND_CODES, 'X'] },
  });
  const { as } = w;
  /** Accredited workers of the requester's company, as the demobilisation offers them. */
  const accredited = async (): Promise<number[]> => {
    const res = await as('requester', 'POST', '/api/acreditaciondesmovilizacion/filtrarNuevoSolicitante', {
      IdEntidad: 'T',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.result as Json[]).map((r) => r.IdAcreditacion as number);
  };
  const file = async (accreditation: number, Observacion?: string) => {
    const res = await as('requester', 'POST', `${BASE}/crear`, {
      IdAcreditacion: accreditation,
      Observacion,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.result as { IdSolicitud: number; EstadoAprobacion: string };
  };
  const history = (id: number) =>
    w
      .db()
      .selectFrom(w.table('request-history'))
      .select(['Evento', 'EstadoNuevo'])
      .where('IdSolicitud', '=', id)
      .orderBy('IdHistorial')
      .execute();

  it('files and sends it through its own call, and lists it through the shared one for both sides', async () => {
    const [first] = await accredited();
    const filed = await file(first);
    expect(filed.EstadoAprobacion).toBe('P');
    expect(await w.count('request', { IdSolicitud: filed.IdSolicitud, TipoSolicitud: 'X' })).toBe(1);
    for (const who of ['requester', 'authoriser']) {
      const list = await as(who, 'POST', `${BASE}/filtrar`, { take: 100 });
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      const ids = (list.body.result.data as Json[]).map((r) => r.IdSolicitud);
      expect(ids).toContain(filed.IdSolicitud);
    }
    // The kind's requests are not a mobilisation's: that kind's list does not show them.
    const mobilisations = await as('requester', 'GET', '/api/acreditacionsolicitud/filtrar?take=1000');
    expect(mobilisations.status).toBe(200);
    expect((mobilisations.body.result.data as Json[]).map((r) => r.IdSolicitud)).not.toContain(
      filed.IdSolicitud,
    );
  });

  it('is decided through the shared evaluation: approval runs its effect in the same transaction', async () => {
    const [, second] = await accredited();
    const filed = await file(second);
    // Another kind's evaluation does not reach it.
    const elsewhere = await as(
      'authoriser',
      'POST',
      '/api/acreditaciondesmovilizacion/actualizarautorizador',
      {
        IdSolicitud: filed.IdSolicitud,
        Accion: 'APROBAR',
      },
    );
    expect(elsewhere.status).toBe(404);
    const approved = await as('authoriser', 'POST', `${BASE}/evaluar`, {
      IdSolicitud: filed.IdSolicitud,
      Accion: 'APROBAR',
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.result).toMatchObject({ IdSolicitud: filed.IdSolicitud, EstadoAprobacion: 'A' });
    expect((await history(filed.IdSolicitud)).map((h) => h.Evento)).toEqual([
      'CREATE',
      'SEND',
      'APPROVE',
      'REPRINT',
    ]);
    // A requester is not an authoriser.
    const again = await as('requester', 'POST', `${BASE}/evaluar`, {
      IdSolicitud: filed.IdSolicitud,
      Accion: 'APROBAR',
    });
    expect(again.status).toBe(403);
  });

  it('leaves the request as it was when its effect refuses, with the effect’s message', async () => {
    const [, , third] = await accredited();
    const filed = await file(third, 'FALLA');
    const refused = await as('authoriser', 'POST', `${BASE}/evaluar`, {
      IdSolicitud: filed.IdSolicitud,
      Accion: 'APROBAR',
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'BUSINESS_RULE',
      messageKey: 'accreditation.refusals.notPending',
    });
    expect(await w.count('request', { IdSolicitud: filed.IdSolicitud, EstadoAprobacion: 'P' })).toBe(1);
    expect((await history(filed.IdSolicitud)).map((h) => h.Evento)).toEqual(['CREATE', 'SEND']);
    // Observed instead, through the same call, and the machine's rules hold: a sent one is not deleted.
    const observed = await as('authoriser', 'POST', `${BASE}/evaluar`, {
      IdSolicitud: filed.IdSolicitud,
      Accion: 'OBSERVAR',
      Observacion: 'Adjunte la denuncia policial',
    });
    expect(observed.status, JSON.stringify(observed.body)).toBe(200);
    expect(observed.body.result.EstadoAprobacion).toBe('O');
    const removed = await as('requester', 'DELETE', `${BASE}/eliminar?IdSolicitud=${filed.IdSolicitud}`);
    expect(removed.status).toBe(409);
    expect(await w.count('request', { IdSolicitud: filed.IdSolicitud })).toBe(1);
  });

  it('takes the request kinds’ codes from the kinds: the product’s without it, the test’s with it', () => {
    const kinds = (registry: Registry) => registry.require('request').schema.properties.TipoSolicitud.enum;
    expect(kinds(loadRegistry())).toEqual(['M', 'D', 'A', 'E', 'C']);
    expect(kinds(w.registry)).toEqual(['M', 'D', 'A', 'E', 'C', 'X']);
    const validate = w.registry.require('request').validate;
    expect(validate({ TipoSolicitud: 'Z' })).toBe(false);
    expect(validate.errors?.some((e) => e.instancePath === '/TipoSolicitud' && e.keyword === 'enum')).toBe(
      true,
    );
  });
});
