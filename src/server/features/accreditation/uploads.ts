import '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { fileKindOf, MIME_OF } from '../../../shared/accreditation.js';
import type { Db } from '../../db/connection.js';
import { checkInput } from '../../plugins/input.js';
import type { Principal } from '../../principal.js';
import type { Registry } from '../../registry.js';
import { numericParameter } from '../../services/parameters.js';
import { UPLOAD_LIMIT_BYTES } from '../../services/upload-limit.js';
import { readingMultipart, refuse, type Upload } from '../../services/uploads.js';

export { checkPhoto, readUpload, type Upload } from '../../services/uploads.js';
export { UPLOAD_LIMIT_BYTES };

const MB = 1024 * 1024;

/** The files of a call that also takes multipart (acceptMultipart), by their field names. */
const uploadsOf = new WeakMap<FastifyRequest, Record<string, { bytes: Buffer; name: string }>>();

/**
 * A preValidation hook that lets a JSON call take multipart too (spec section 7: "crear
 * (multipart)"): its text fields become the body, checked by the call's schema as JSON would be (a
 * field holding a JSON array, such as Acreditaciones or Detalle, is read as one), and its files wait
 * for the handler (`uploadedFiles`). Needs @fastify/multipart registered on the plugin.
 *
 * Nothing of the body is read before `allowed` has passed on the caller's principal (it throws,
 * FORBIDDEN, for a caller who may not make the call), and no more than `files` files and `fields`
 * fields are read: what the call needs, not what a sender claims.
 */
export function acceptMultipart({
  allowed,
  files: maxFiles,
  fields: maxFields = 20,
}: {
  allowed: (principal: Principal) => unknown;
  files: number;
  fields?: number;
}) {
  return async (request: FastifyRequest): Promise<void> => {
    allowed(request.principal);
    if (!request.isMultipart()) return;
    await readMultipartBody(request, maxFiles, maxFields);
  };
}

async function readMultipartBody(
  request: FastifyRequest,
  maxFiles: number,
  maxFields: number,
): Promise<void> {
  const body: Record<string, unknown> = {};
  const files: Record<string, { bytes: Buffer; name: string }> = {};
  await readingMultipart(async () => {
    for await (const part of request.parts({
      limits: { fileSize: UPLOAD_LIMIT_BYTES, files: maxFiles, fields: maxFields },
    })) {
      if (part.type === 'file')
        files[part.fieldname] = { bytes: await part.toBuffer(), name: part.filename || 'archivo' };
      else if (typeof part.value === 'string') {
        const value = part.value.trim();
        let parsed: unknown = value;
        if (value.startsWith('[')) {
          try {
            parsed = JSON.parse(value);
          } catch {
            parsed = value;
          }
        }
        body[part.fieldname] = parsed;
      }
    }
  });
  // What a field held as JSON is checked as a JSON body is (no NUL, no Infinity, not too deep).
  checkInput(body, 'body');
  request.body = body;
  uploadsOf.set(request, files);
}

/** The files a multipart call brought (none for a JSON call). */
export function uploadedFiles(request: FastifyRequest): Record<string, { bytes: Buffer; name: string }> {
  return uploadsOf.get(request) ?? {};
}

/** A requirement's attachment: a PDF by its first bytes, no larger than the client's SIZEMAXPDFUPLOAD (MB). */
export async function checkPdf(db: Db, registry: Registry, principal: Principal, upload: Upload) {
  const file = upload.file;
  if (!file?.bytes.length) throw refuse('ACCREDITATION.REQUEST.NOTFILE');
  if (fileKindOf(file.bytes) !== 'pdf') throw refuse('accreditation.files.notPdf');
  const max = await numericParameter(db, registry, principal, 'SIZEMAXPDFUPLOAD', 10);
  if (file.bytes.length > max * MB) throw refuse('accreditation.files.tooLarge', { max, unit: 'MB' });
  return { bytes: file.bytes, name: file.name, mime: MIME_OF.pdf };
}
