import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.js';
import { askPeriodically } from '../../jobs/schedule.js';
import { requireGrant } from '../../routes/guards.js';
import { field, objectOf, resultResponses } from '../../routes/responses.js';
import { readOrigin } from '../../services/privacy.js';
import { personExport } from './export.js';
import { authorityNotice, type NoticeContext, tellPeople } from './incidents.js';
import { RetentionBusy, RetentionJob } from './retention.js';

/**
 * The retention job: once a day per client from whichever server takes the client's lease
 * (RETENTION_CHECK_MINUTES, 60 by default, asks; 0 turns it off; the first ask comes a tenth of the
 * period after start), and on demand from the retention rules' screen: a dry run that shows what
 * would go, and a run now.
 */
export default async function privacyRoutes(fastify: FastifyInstance): Promise<void> {
  const job = new RetentionJob(fastify.database, fastify.registry, fastify.personalData, () =>
    fastify.auth.now(),
  );
  fastify.jobs.set('retention', { round: () => job.runDaily() });
  await exportRoute(fastify);
  await incidentRoutes(fastify);
  askPeriodically(fastify, 'RETENTION_CHECK_MINUTES', () => job.runDaily(), 'retention run failed');

  for (const [path, dryRun, summary] of [
    [
      'simular',
      true,
      'What the retention job would anonymise now, by data class, and whom it would keep and why (nothing changes)',
    ],
    ['ejecutar', false, 'Runs the retention job for the session’s client now'],
  ] as const)
    fastify.post(
      `/privacidad/conservacion/${path}`,
      {
        preHandler: requireGrant('retention-rule', 'write'),
        schema: {
          tags: ['privacy'],
          summary,
          response: resultResponses(
            '{ id, dryRun, people, classes: { <class>: { anonymised, kept: { <reason>: n } } } }',
            [401, 403, 409],
          ),
        },
      },
      async (request) => {
        try {
          return { result: await job.runNow(request.principal, dryRun) };
        } catch (error) {
          if (error instanceof RetentionBusy)
            throw new ApiError('CONFLICT', { messageKey: 'privacy.retentionBusy' });
          throw error;
        }
      },
    );
}

/** A rights request's answer to an access request: the export of everything held about the person. */
async function exportRoute(fastify: FastifyInstance): Promise<void> {
  fastify.get<{ Params: { id: number } }>(
    '/privacidad/derechos/:id/exportacion',
    {
      preHandler: requireGrant('rights-request', 'read'),
      schema: {
        tags: ['privacy'],
        summary:
          'Everything held about the request’s person, as a ZIP (a JSON file per table that names them, their files, resumen.pdf, the access log of their sensitive data), base64',
        params: objectOf({ id: field.id() }, ['id']),
        response: resultResponses('{ fileBase64, fileName, fileType }', [401, 403, 404]),
      },
    },
    async (request) => {
      const entity = fastify.registry.require('rights-request');
      const asked = await fastify.crud.getOne(entity, request.params.id, request.principal);
      const { zip, name } = await personExport(
        {
          db: fastify.database.db,
          registry: fastify.registry,
          files: fastify.files,
          sources: fastify.personalData,
        },
        request.principal,
        Number(asked.IdPersona),
        readOrigin(request),
      );
      return { result: { fileBase64: zip.toString('base64'), fileName: name, fileType: 'application/zip' } };
    },
  );
}

/** A security incident's notices: to the authority (a PDF) and to each person reached (by e-mail). */
async function incidentRoutes(fastify: FastifyInstance): Promise<void> {
  const { registry } = fastify;
  const params = objectOf({ id: field.id() }, ['id']);
  const preHandler = requireGrant('security-incident', 'write');
  /** Runs a notice in one transaction, with the incident the caller may see (404 otherwise). */
  const notice = async <T>(
    request: FastifyRequest<{ Params: { id: number } }>,
    make: (ctx: NoticeContext) => Promise<T>,
  ): Promise<T> => {
    const incident = await fastify.crud.getOne(
      registry.require('security-incident'),
      request.params.id,
      request.principal,
    );
    return fastify.database.db.transaction().execute((db) =>
      make({
        db,
        registry,
        principal: request.principal,
        incident,
        language: request.language,
        now: fastify.auth.now(),
      }),
    );
  };

  fastify.post<{ Params: { id: number } }>(
    '/privacidad/incidentes/:id/aviso-autoridad',
    {
      preHandler,
      schema: {
        tags: ['privacy'],
        summary:
          'The notice of the incident to the data-protection authority, as a PDF (base64); its sending recorded',
        params,
        response: resultResponses('{ fileBase64, fileName, fileType }', [401, 403, 404]),
      },
    },
    async (request) => {
      const { pdf, name } = await notice(request, authorityNotice);
      return { result: { fileBase64: pdf.toString('base64'), fileName: name, fileType: 'application/pdf' } };
    },
  );

  fastify.post<{ Params: { id: number } }>(
    '/privacidad/incidentes/:id/aviso-personas',
    {
      preHandler,
      schema: {
        tags: ['privacy'],
        summary:
          'Tells each person the incident reached who has an e-mail; answers how many were told and how many have none',
        params,
        response: resultResponses('{ told, withoutEmail }', [401, 403, 404]),
      },
    },
    async (request) => ({ result: await notice(request, (ctx) => tellPeople(ctx, fastify.notifier)) }),
  );
}
