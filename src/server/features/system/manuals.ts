import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { guideByFile } from '../../../shared/manuals.js';
import { ApiError } from '../../errors.js';
import { languageOf } from '../../i18n.js';
import { MANUALS_DIR } from '../../paths.js';
import { guidePdf } from './guide-pdf.js';

/**
 * The file download of spec section 7: a file by name and type, answered as base64 inside result.
 * It serves the user guides (src/shared/manuals.ts) as PDFs in the caller's language, each made
 * once from its Markdown and screenshots (docs/manuals).
 */
export default async function fileRoutes(fastify: FastifyInstance): Promise<void> {
  const made = new Map<string, Promise<string>>();
  fastify.get<{ Querystring: { fileName?: string; fileType?: string } }>(
    '/SistemaArchivo/descargar',
    {
      schema: {
        tags: ['files'],
        summary: 'Download a file (the user guides, as PDF in the Accept-Language) as base64',
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
      const guide = guideByFile(fileName);
      if (!guide) throw new ApiError('NOT_FOUND', { messageKey: 'files.notFound' });
      const language = languageOf(request.headers['accept-language']);
      const key = `${guide.id}.${language}`;
      let pdf = made.get(key);
      if (!pdf) {
        pdf = readFile(join(MANUALS_DIR, `${key}.md`), 'utf8')
          .then((markdown) => guidePdf(markdown, join(MANUALS_DIR, 'shots'), language))
          .then((bytes) => bytes.toString('base64'));
        made.set(key, pdf);
        pdf.catch(() => made.delete(key));
      }
      return { result: { fileBase64: await pdf, fileName, fileType: 'application/pdf' } };
    },
  );
}
