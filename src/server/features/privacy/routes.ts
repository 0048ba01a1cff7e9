import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors.js';
import { askPeriodically } from '../../jobs/schedule.js';
import { requireGrant } from '../../routes/guards.js';
import { field, objectOf, resultResponses } from '../../routes/responses.js';
import { readOrigin } from '../../services/privacy.js';
import { personExport } from './export.js';
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
