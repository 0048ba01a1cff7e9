/**
 * What the calls that take an uploaded file share: the multipart body read within the upload limit,
 * and the photo check of spec section 5 (the same for a request's worker and for a person's or a
 * vehicle's photos).
 */
import '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { fileKindOf, imageSize, MIME_OF } from '../../shared/accreditation.js';
import { PHOTO } from '../../shared/constants.js';
import { checkPhotoSize, photoLimits } from '../../shared/photo.js';
import type { Db } from '../db/connection.js';
import { ApiError } from '../errors.js';
import type { Principal } from '../principal.js';
import type { Registry } from '../registry.js';
import { parameter } from './parameters.js';
import { UPLOAD_LIMIT_BYTES } from './upload-limit.js';

export interface Upload {
  fields: Record<string, string>;
  file?: { bytes: Buffer; name: string };
}

/**
 * Reads a multipart body with `read`; a body that is not one (cut short, malformed) is a 400, a
 * refusal of the reader's own (too large, too many parts) keeps its status.
 */
export async function readingMultipart(read: () => Promise<void>): Promise<void> {
  try {
    await read();
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    if (error instanceof ApiError || (status !== undefined && status < 500)) throw error;
    throw new ApiError('BAD_REQUEST');
  }
}

/** A multipart body: its text fields and its one file (the first), within the upload limit. */
export async function readUpload(request: FastifyRequest): Promise<Upload> {
  if (!request.isMultipart()) throw new ApiError('UNSUPPORTED_MEDIA_TYPE');
  const out: Upload = { fields: {} };
  await readingMultipart(async () => {
    for await (const part of request.parts({
      limits: { fileSize: UPLOAD_LIMIT_BYTES, files: 1, fields: 20 },
    })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (!out.file) out.file = { bytes, name: part.filename || 'archivo' };
      } else if (typeof part.value === 'string') out.fields[part.fieldname] = part.value;
    }
  });
  return out;
}

/** A refused file: the message on the call and on its file field. */
export const refuse = (messageKey: string, params?: Record<string, string | number>) =>
  new ApiError('VALIDATION_FAILED', { messageKey, params, fields: { file: { messageKey, params } } });

/**
 * A photo (spec section 5): .png, .jpg or .jpeg by its first bytes, no larger than
 * SIZEMAXPHOTOUPLOAD (MB) nor MAXIMAGESIZECLIENTE (KB), and its width and height within the
 * suggested ones of CLIENTIMAGERATIO, plus or minus the tolerance; the message gives both.
 */
export async function checkPhoto(db: Db, registry: Registry, principal: Principal, upload: Upload) {
  const file = upload.file;
  if (!file?.bytes.length) throw refuse('ACCREDITATION.REQUEST.NOTFILE');
  const kind = fileKindOf(file.bytes);
  if (kind !== 'png' && kind !== 'jpeg') throw refuse('accreditation.files.notImage');
  // The same limits the console checks before it sends: the client's parameters, or the defaults.
  const [maxKilobytes, size, maxMegabytes] = await Promise.all(
    [PHOTO.parameters.maxKilobytes, PHOTO.parameters.size, PHOTO.parameters.maxMegabytes].map((id) =>
      parameter(db, registry, principal, id),
    ),
  );
  const limits = photoLimits({ maxKilobytes, size, maxMegabytes });
  if (file.bytes.length > limits.maxKilobytes * 1024)
    throw refuse('accreditation.files.tooLarge', { max: limits.maxKilobytes, unit: 'KB' });
  const dimensions = imageSize(file.bytes);
  if (!dimensions) throw refuse('accreditation.files.notImage');
  const problem = checkPhotoSize(dimensions.width, dimensions.height, limits);
  if (problem?.messageKey === 'app.image.badSize')
    throw refuse('accreditation.files.dimensions', { ...problem.params });
  return { bytes: file.bytes, name: file.name, mime: MIME_OF[kind], ...dimensions };
}
