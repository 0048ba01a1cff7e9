import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors.js';
import { MANUALS_DIR } from '../../paths.js';
import { textPdf } from '../../services/pdf.js';

/** The manuals the footer offers (spec section 2): one for requesters, one for approvers. */
export const MANUALS = ['manual-solicitante.pdf', 'manual-autorizador.pdf'] as const;

/** The file download of spec section 7: a file by name and type, answered as base64 inside result. */
export default async function fileRoutes(fastify: FastifyInstance): Promise<void> {
  const cache = new Map<string, string>();
  fastify.get<{ Querystring: { fileName?: string; fileType?: string } }>(
    '/SistemaArchivo/descargar',
    {
      schema: {
        tags: ['files'],
        summary: 'Download a file (the user manuals) as base64',
        querystring: {
          type: 'object',
          properties: {
            fileName: { type: 'string', maxLength: 200 },
            fileType: { type: 'string', maxLength: 100 },
          },
          required: ['fileName'],
        },
      },
    },
    async (request) => {
      const fileName = request.query.fileName ?? '';
      if (!(MANUALS as readonly string[]).includes(fileName))
        throw new ApiError('NOT_FOUND', { messageKey: 'files.notFound' });
      let fileBase64 = cache.get(fileName);
      if (!fileBase64) {
        const [title, ...lines] = readFileSync(
          resolve(MANUALS_DIR, fileName.replace(/\.pdf$/, '.txt')),
          'utf8',
        ).split('\n');
        fileBase64 = textPdf(title, lines).toString('base64');
        cache.set(fileName, fileBase64);
      }
      return { result: { fileBase64, fileName, fileType: 'application/pdf' } };
    },
  );
}
