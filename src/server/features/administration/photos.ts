import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PHOTO } from '../../../shared/constants.js';
import { writeAudit } from '../../crud/audit.js';
import type { CrudService } from '../../crud/service.js';
import type { Row } from '../../crud/types.js';
import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import type { Principal } from '../../principal.js';
import type { Entity } from '../../registry.js';
import { requireGrant } from '../../routes/guards.js';
import { idOf } from '../../routes/ids.js';
import { ERROR, field, resultResponses } from '../../routes/responses.js';
import { UPLOAD_LIMIT_BYTES } from '../../services/upload-limit.js';
import { checkPhoto, readUpload } from '../../services/uploads.js';

const MAX_PHOTOS = PHOTO.maxPerRecord;

/** A record that keeps photos besides its own fields: a person (mobile and extra) or a vehicle. */
interface PhotoOwner {
  /** The owner's entity (whose grant and scope decide who reads and changes its photos). */
  owner: 'person' | 'vehicle';
  /** The photos' entity. */
  photos: 'person-photo' | 'vehicle-photo';
  /** The owner's key, in both entities. */
  key: 'IdPersona' | 'IdVehiculo';
  /** The photo's key. */
  photoKey: 'IdFotoPersona' | 'IdFotoVehiculo';
  /** The calls' path, after the spec's Administracion<Entity> naming. */
  base: string;
  /** The kinds of photo (Tipo), the first one of a kind (the mobile photo, replaced by the next). */
  kinds?: { all: string[]; single: string[] };
}

const OWNERS: PhotoOwner[] = [
  {
    owner: 'person',
    photos: 'person-photo',
    key: 'IdPersona',
    photoKey: 'IdFotoPersona',
    base: '/AdministracionPersona',
    kinds: { all: ['M', 'E'], single: ['M'] },
  },
  {
    owner: 'vehicle',
    photos: 'vehicle-photo',
    key: 'IdVehiculo',
    photoKey: 'IdFotoVehiculo',
    base: '/AdministracionVehiculo',
  },
];

/** What a photo's listing shows of it: never the stored file's key. */
const SHOWN = ['Tipo', 'NombreArchivo', 'TipoArchivo', 'Ancho', 'Alto', 'Tamano', 'FechaCreacion'];

/**
 * A person's mobile and extra photos and a vehicle's photos (spec section 3), kept in the file
 * store behind the client's photos repository path (use F) and checked as the profile photo is
 * (spec section 5). Whoever reaches the person's (the vehicle's) screen lists and sees them;
 * whoever may change the record adds and removes them: the record must be within the caller's
 * scope (another client's or company's is not found), and a ceased person's are read-only as the
 * rest of their data. Each change is one transaction, audited.
 */
export default async function photoRoutes(fastify: FastifyInstance): Promise<void> {
  await fastify.register(multipart, { limits: { fileSize: UPLOAD_LIMIT_BYTES, files: 1, fields: 10 } });
  for (const owner of OWNERS) ownerRoutes(fastify, owner);
}

function ownerRoutes(fastify: FastifyInstance, spec: PhotoOwner): void {
  const { registry, crud, database, files } = fastify;
  const ownerEntity = () => registry.require(spec.owner);
  const photoEntity = () => registry.require(spec.photos);
  const tags = ['administration'];
  const idQuery = (name: string) => ({
    type: 'object',
    properties: { [name]: field.id() },
    required: [name],
    additionalProperties: false,
  });

  /** The owner as the caller sees it, or 404. */
  const ownerOf = (id: number, principal: Principal) => crud.getOne(ownerEntity(), id, principal);

  /** The owner may be changed by the caller: a locked state (a ceased person) refuses it. */
  const changeable = (owner: Row, entity: Entity) => {
    const lock = entity.lockedWhen;
    if (lock && owner[lock.field] === lock.equals)
      throw new ApiError('BUSINESS_RULE', { messageKey: lock.messageKey });
  };

  /** Removes a photo the caller sees, with its row in the audit (the file goes with the sweep). */
  const removeAudited = async (within: CrudService, trx: Db, id: number, principal: Principal) => {
    const before = await within.remove(photoEntity(), id, principal);
    await writeAudit(trx, registry, photoEntity(), 'D', principal, id, before, undefined, true);
  };

  const shown = (row: Row) => ({
    [spec.photoKey]: row[spec.photoKey],
    [spec.key]: row[spec.key],
    ...Object.fromEntries(SHOWN.filter((f) => f in row).map((f) => [f, row[f]])),
  });

  fastify.get<{ Querystring: Record<string, number> }>(
    `${spec.base}/fotos`,
    {
      preHandler: requireGrant(spec.owner),
      schema: {
        tags,
        summary: `The photos of a ${spec.owner}`,
        description: `In the order they were added${spec.kinds ? ' (Tipo M the mobile photo, E an extra one)' : ''}; the image itself is served by descargarfoto.`,
        querystring: idQuery(spec.key),
        response: resultResponses('The photos', [400, 401, 403, 404]),
      },
    },
    async (request) => {
      const id = idOf(request.query[spec.key], spec.key);
      await ownerOf(id, request.principal);
      const rows = (await database.db
        .selectFrom(photoEntity().table)
        .selectAll()
        .where(spec.key, '=', id)
        .orderBy(spec.photoKey)
        .execute()) as Row[];
      return { result: rows.map(shown) };
    },
  );

  fastify.get<{ Querystring: Record<string, number> }>(
    `${spec.base}/descargarfoto`,
    {
      config: { repository: 'F' },
      preHandler: requireGrant(spec.owner),
      schema: {
        tags,
        summary: `One photo of a ${spec.owner}, as the image`,
        querystring: idQuery(spec.photoKey),
        response: {
          200: { description: 'The PNG or JPEG image', type: 'string', format: 'binary' },
          ...Object.fromEntries([400, 401, 403, 404].map((s) => [s, ERROR])),
        },
      },
    },
    async (request, reply) => {
      const id = idOf(request.query[spec.photoKey], spec.photoKey);
      const photo = await crud.getOne(photoEntity(), id, request.principal);
      await ownerOf(Number(photo[spec.key]), request.principal);
      const bytes = await files.get(String(photo.ClaveArchivo));
      if (!bytes) throw new ApiError('NOT_FOUND', { params: { resource: spec.photos, id } });
      reply.header('Cache-Control', 'private, max-age=300');
      return reply.type(String(photo.TipoArchivo)).send(bytes);
    },
  );

  fastify.post(
    `${spec.base}/subirfoto`,
    {
      config: { repository: 'F' },
      preHandler: requireGrant(spec.owner, 'write'),
      schema: {
        tags,
        summary: `Add a photo to a ${spec.owner}`,
        description:
          `Multipart fields ${spec.key}${spec.kinds ? ' and Tipo (M the mobile photo, which replaces the one there was; E an extra one)' : ''}, ` +
          `then the image: .png, .jpg or .jpeg by its content, within SIZEMAXPHOTOUPLOAD MB and MAXIMAGESIZECLIENTE KB, its width and height within CLIENTIMAGERATIO ± ${PHOTO.dimensionTolerance * 100} %; at most ${MAX_PHOTOS} ${spec.kinds ? 'extra ' : ''}photos.`,
        consumes: ['multipart/form-data'],
        response: resultResponses('The photo added', [400, 401, 403, 404, 413, 415]),
      },
    },
    async (request: FastifyRequest) => {
      const { principal } = request;
      const upload = await readUpload(request);
      const id = idOf(upload.fields[spec.key], spec.key);
      const kind = spec.kinds ? upload.fields.Tipo : undefined;
      if (spec.kinds && !spec.kinds.all.includes(String(kind)))
        throw new ApiError('VALIDATION_FAILED', { fields: { Tipo: { messageKey: 'photos.kind' } } });
      const owner = await ownerOf(id, principal);
      changeable(owner, ownerEntity());
      if (!upload.file?.bytes.length)
        throw new ApiError('VALIDATION_FAILED', {
          messageKey: 'photos.noFile',
          fields: { file: { messageKey: 'photos.noFile' } },
        });
      const file = await checkPhoto(database.db, registry, principal, upload);
      const single = kind !== undefined && spec.kinds?.single.includes(kind);
      const row = await database.db.transaction().execute(async (trx) => {
        const within = crud.within(trx);
        let existing = trx.selectFrom(photoEntity().table).select(spec.photoKey).where(spec.key, '=', id);
        if (kind !== undefined) existing = existing.where('Tipo', '=', kind);
        const before = (await existing.execute()) as Row[];
        if (single) {
          for (const old of before) await removeAudited(within, trx, Number(old[spec.photoKey]), principal);
        } else if (before.length >= MAX_PHOTOS)
          throw new ApiError('BUSINESS_RULE', { messageKey: 'photos.tooMany', params: { max: MAX_PHOTOS } });
        const key = await files.put(file.bytes, trx);
        const made = await within.create(
          photoEntity(),
          {
            [spec.key]: id,
            ...(kind !== undefined ? { Tipo: kind } : {}),
            ClaveArchivo: key,
            NombreArchivo: file.name.slice(0, 200),
            TipoArchivo: file.mime,
            Ancho: file.width,
            Alto: file.height,
            Tamano: file.bytes.length,
          },
          principal,
        );
        await writeAudit(trx, registry, photoEntity(), 'C', principal, made.id, undefined, made, true);
        return made;
      });
      return { result: shown({ ...row, [spec.photoKey]: row.id }) };
    },
  );

  fastify.delete<{ Querystring: Record<string, number> }>(
    `${spec.base}/eliminarfoto`,
    {
      preHandler: requireGrant(spec.owner, 'write'),
      schema: {
        tags,
        summary: `Remove a photo of a ${spec.owner}`,
        querystring: idQuery(spec.photoKey),
        response: resultResponses('The photo removed', [400, 401, 403, 404]),
      },
    },
    async (request) => {
      const { principal } = request;
      const id = idOf(request.query[spec.photoKey], spec.photoKey);
      const photo = await crud.getOne(photoEntity(), id, principal);
      changeable(await ownerOf(Number(photo[spec.key]), principal), ownerEntity());
      await database.db.transaction().execute((trx) => removeAudited(crud.within(trx), trx, id, principal));
      return { result: { [spec.photoKey]: id } };
    },
  );
}
