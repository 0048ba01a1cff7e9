import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { Language } from '../../../../shared/constants.js';
import { Accounts } from '../../../auth/accounts.js';
import type { Row } from '../../../crud/types.js';
import { ApiError } from '../../../errors.js';
import { t } from '../../../i18n.js';
import { Leases } from '../../../jobs/leases.js';
import { poll } from '../../../jobs/poller.js';
import { workingPrincipal } from '../../../principal.js';
import { field, INT32, objectOf, resultResponses } from '../../../routes/responses.js';
import { type ExportColumn, neutralise, workbookBase64 } from '../../../services/excel.js';
import { requesterOf } from '../../../services/requester.js';
import { byteLimit } from '../../../services/zip.js';
import { idOf } from '../engine/input.js';
import { UPLOAD_LIMIT_BYTES } from '../uploads.js';
import { BulkService } from './service.js';

const result = (description: string) => resultResponses(description, [400, 401, 403, 404, 409]);
const tags = ['accreditation'];
const base = '/acreditacionsolicitud';
const code = field.text(40);
const MB = 1024 * 1024;
/** The most an attachments zip may weigh (BULK_ATTACHMENTS_MB, in MB; 500 unless set). */
export const attachmentsLimitBytes = () => (Number(process.env.BULK_ATTACHMENTS_MB) || 500) * MB;

/** A file part's bytes, refused with a 413 past `limit`. */
const atMost = (limit: number) => byteLimit(limit, () => new ApiError('PAYLOAD_TOO_LARGE'));

/**
 * The bulk request calls of spec section 7: excelformato (the template), cargamasiva (the dry
 * run), procesarmasivo (the job), progresomasivo and filasmasivo (its progress and rows, for the
 * console's tabs) and excelprocesados (the processed rows as Excel). A requester's only.
 */
export default async function bulkRoutes(fastify: FastifyInstance): Promise<void> {
  await fastify.register(multipart, {
    limits: { fileSize: Math.max(UPLOAD_LIMIT_BYTES, attachmentsLimitBytes()), files: 2, fields: 10 },
  });
  const { database, registry, crud } = fastify;
  const { mobilisations: requests, renewals } = fastify.requests;
  const bulk = new BulkService(
    database,
    registry,
    crud,
    requests,
    renewals,
    fastify.files,
    new Leases(database.db, registry),
  );
  fastify.addHook('onClose', async () => {
    await bulk.stop();
  });
  const accounts = new Accounts(database.db, registry);
  // The jobs nobody holds (a stopped or dead server's, on this or another machine) go on, as their
  // uploaders if they still may: looked for once ready, then every JOB_POLL_SECONDS.
  poll(fastify, 'bulk', async () => {
    const resumed = await bulk.resume(async (upload) => {
      if (upload.IdPerfil === null || upload.IdPerfil === undefined || !upload.IdUsuario) return undefined;
      // Still active, and still holding the upload's profile in its division, as sign-in reads them.
      const active =
        (await accounts.user(upload.IdUsuario))?.Activo === 'S' &&
        (await accounts.assignments(upload.IdUsuario)).some(
          (a) => a.IdPerfil === upload.IdPerfil && a.IdDivision === upload.IdDivision,
        );
      if (!active) {
        fastify.log.warn({ upload: upload.CodigoCargaMasiva }, 'bulk job waits: its uploader no longer may');
        return undefined;
      }
      const who = {
        userId: upload.IdUsuario,
        profileId: upload.IdPerfil,
        clientId: upload.IdCliente,
        divisionId: upload.IdDivision,
        companyId: upload.IdCompania,
      };
      return requesterOf(workingPrincipal(who, await fastify.grants.get(upload.IdPerfil)));
    });
    if (resumed) fastify.log.info({ resumed }, 'bulk jobs resumed');
  });

  fastify.get<{ Querystring: { IdPerfilAcreditacion?: number } }>(
    `${base}/requisitosmasivo`,
    {
      schema: {
        tags,
        summary: 'The requirements of a profile a requirement update may renew from a file',
        querystring: objectOf({ IdPerfilAcreditacion: field.id() }, ['IdPerfilAcreditacion']),
        response: result('[{ IdRequisito, Requisito }]'),
      },
    },
    async (request) => ({
      result: await bulk.requirements(
        requesterOf(request.principal),
        idOf(request.query.IdPerfilAcreditacion, 'IdPerfilAcreditacion'),
      ),
    }),
  );

  fastify.get<{ Querystring: { IdContrato?: number; IdPerfilAcreditacion?: number; IdRequisito?: number } }>(
    `${base}/excelformato`,
    {
      schema: {
        tags,
        summary: 'The bulk request template (.xlsx) of a contract and accreditation profile',
        description:
          'A Datos sheet with a column per request, holder and requirement field (drop-down lists from a hidden Listas sheet, date cells), and an Instrucciones sheet, in the caller’s language. With IdRequisito, a requirement update’s template: the holder’s document (or plate) and that requirement’s data. Answers { fileBase64, fileName }.',
        querystring: objectOf(
          { IdContrato: field.id(), IdPerfilAcreditacion: field.id(), IdRequisito: field.id() },
          ['IdContrato', 'IdPerfilAcreditacion'],
        ),
        response: result('{ fileBase64, fileName }'),
      },
    },
    async (request) => {
      const file = await bulk.template(
        requesterOf(request.principal),
        idOf(request.query.IdContrato, 'IdContrato'),
        idOf(request.query.IdPerfilAcreditacion, 'IdPerfilAcreditacion'),
        request.language,
        request.query.IdRequisito === undefined ? null : idOf(request.query.IdRequisito, 'IdRequisito'),
      );
      return { result: { fileBase64: file.bytes.toString('base64'), fileName: file.fileName } };
    },
  );

  fastify.post(
    `${base}/cargamasiva`,
    {
      config: { repository: 'M' },
      schema: {
        tags,
        summary: 'Upload a filled bulk template: every row checked, nothing created',
        description:
          'Multipart: IdContrato, IdPerfilAcreditacion (and IdRequisito for a requirement update, whose rows become renewals of that requirement for the contract’s accredited holders), then the .xlsx file and, optionally, a .zip of PDFs in the field `adjuntos` (named `<document>-<requirement>.pdf`, as the template’s instructions list them). The file is read as a stream; each row is checked as a single request (crearsolicitante) would be, in a transaction rolled back, and its PDFs are checked and kept for its request. Answers the stored upload: CodigoCargaMasiva, the counts, the PDFs attached and the zip’s files no row matched; its rows with their errors come from filasmasivo.',
        consumes: ['multipart/form-data'],
        response: result('{ CodigoCargaMasiva, loaded, observed, processed, successful, toProcess }'),
      },
    },
    async (request) => {
      const requester = requesterOf(request.principal);
      if (!request.isMultipart()) throw new ApiError('UNSUPPORTED_MEDIA_TYPE');
      const dir = await mkdtemp(join(tmpdir(), 'bulk-'));
      try {
        const fields: Record<string, string> = {};
        let fileName: string | undefined;
        let attachments: string | undefined;
        const path = join(dir, 'upload.xlsx');
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            const zip = part.fieldname.toLowerCase() === 'adjuntos';
            if (zip && attachments === undefined) {
              attachments = join(dir, 'adjuntos.zip');
              await pipeline(part.file, atMost(attachmentsLimitBytes()), createWriteStream(attachments));
            } else if (!zip && fileName === undefined) {
              fileName = part.filename || 'carga.xlsx';
              await pipeline(part.file, atMost(UPLOAD_LIMIT_BYTES), createWriteStream(path));
            } else part.file.resume();
            if (part.file.truncated) throw new ApiError('PAYLOAD_TOO_LARGE');
          } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        }
        if (fileName === undefined)
          throw new ApiError('VALIDATION_FAILED', {
            messageKey: 'bulk.errors.noFile',
            fields: { file: { messageKey: 'bulk.errors.noFile' } },
          });
        const upload = await bulk.upload(requester, {
          contract: idOf(fields.IdContrato, 'IdContrato'),
          profile: idOf(fields.IdPerfilAcreditacion, 'IdPerfilAcreditacion'),
          requirement:
            fields.IdRequisito === undefined || fields.IdRequisito === ''
              ? null
              : idOf(fields.IdRequisito, 'IdRequisito'),
          path,
          fileName,
          attachments,
        });
        return { result: { ...upload, unusedFiles: upload.unusedFiles.slice(0, 100) } };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  fastify.post<{ Body: { CodigoCargaMasiva?: string } }>(
    `${base}/procesarmasivo`,
    {
      schema: {
        tags,
        summary: 'Process a bulk upload: its valid rows become requests, as a job',
        description:
          'Starts (or resumes) the job and answers at once with the progress; each row’s request is made in its own transaction with the row’s state, so calling it again, or after a crash, creates nothing twice and finishes the rest.',
        body: objectOf({ CodigoCargaMasiva: code }, ['CodigoCargaMasiva']),
        response: result(
          '{ CodigoCargaMasiva, Estado, loaded, observed, processed, successful, toProcess, running }',
        ),
      },
    },
    async (request) => ({
      result: await bulk.process(requesterOf(request.principal), request.body.CodigoCargaMasiva),
    }),
  );

  fastify.get<{ Querystring: { CodigoCargaMasiva?: string } }>(
    `${base}/progresomasivo`,
    {
      schema: {
        tags,
        summary: 'A bulk upload’s progress and the counts of spec section 4',
        querystring: objectOf({ CodigoCargaMasiva: code }, ['CodigoCargaMasiva']),
        response: result(
          '{ CodigoCargaMasiva, Estado, loaded, observed, processed, successful, toProcess, running }',
        ),
      },
    },
    async (request) => ({
      result: await bulk.progress(requesterOf(request.principal), request.query.CodigoCargaMasiva),
    }),
  );

  fastify.get<{ Querystring: { CodigoCargaMasiva?: string; skip?: number; take?: number; Estado?: string } }>(
    `${base}/filasmasivo`,
    {
      schema: {
        tags,
        summary: 'A bulk upload’s rows: cells, errors per cell in the caller’s language, state, request',
        querystring: objectOf(
          {
            CodigoCargaMasiva: code,
            skip: field.integer(0, INT32.max),
            take: field.integer(1, 1000),
            Estado: field.text(20, { description: 'Comma-separated states: V, E, S, F.' }),
          },
          ['CodigoCargaMasiva'],
        ),
        response: result('{ rows, total, headings: the column headers by key }'),
      },
    },
    async (request) => {
      const q = request.query;
      const requester = requesterOf(request.principal);
      const page = await bulk.rows(requester, q.CodigoCargaMasiva, request.language, {
        skip: q.skip ?? 0,
        take: q.take ?? 100,
        state: q.Estado,
      });
      const headings = await bulk.headings(requester, q.CodigoCargaMasiva, request.language);
      return { result: { ...page, headings: Object.fromEntries(headings) } };
    },
  );

  fastify.get<{ Querystring: { CodigoCargaMasiva?: string } }>(
    `${base}/excelprocesados`,
    {
      schema: {
        tags,
        summary: 'A bulk upload’s rows with their request numbers or errors, as Excel',
        querystring: objectOf({ CodigoCargaMasiva: code }, ['CodigoCargaMasiva']),
        response: result('{ fileBase64, fileName }'),
      },
    },
    async (request) => {
      const requester = requesterOf(request.principal);
      const language: Language = request.language;
      const progress = await bulk.progress(requester, request.query.CodigoCargaMasiva);
      const headings = await bulk.headings(requester, progress.CodigoCargaMasiva, language);
      const rows: Row[] = [];
      for (let skip = 0; ; skip += 1000) {
        const page = await bulk.rows(requester, progress.CodigoCargaMasiva, language, { skip, take: 1000 });
        rows.push(...page.rows);
        if (page.rows.length < 1000) break;
      }
      const text = (
        key: string,
        width: number,
        value: (row: Row) => string | number | null,
      ): ExportColumn => ({
        header: t(language, `bulk.columns.${key}`),
        kind: 'text',
        width,
        value,
      });
      const columns: ExportColumn[] = [
        { ...text('Fila', 8, (r) => r.Fila as number), kind: 'number' },
        text('Documento', 16, (r) => (r.Documento ? neutralise(String(r.Documento)) : null)),
        text('Estado', 22, (r) => t(language, `enums.bulkRowStatus.${r.Estado}`)),
        { ...text('IdSolicitud', 12, (r) => (r.IdSolicitud as number) ?? null), kind: 'number' },
        text('Archivos', 40, (r) => {
          const names = r.Archivos as string[];
          return names.length ? neutralise(names.join(', ')) : null;
        }),
        text('Errores', 80, (r) => {
          const errors = Object.entries(r.Errores as Record<string, string>).map(([key, message]) =>
            headings.has(key) ? `${headings.get(key)}: ${message}` : message,
          );
          return errors.length ? neutralise(errors.join(' | ')) : null;
        }),
      ];
      const fileBase64 = await workbookBase64(columns, rows, String(progress.CodigoCargaMasiva));
      return { result: { fileBase64, fileName: `${progress.CodigoCargaMasiva}.xlsx` } };
    },
  );
}
