import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { DAY_STATUSES } from '../../../shared/attendance.js';
import { ApiError } from '../../errors.js';
import { t } from '../../i18n.js';
import { field, objectOf, resultResponses } from '../../routes/responses.js';
import { type ExportColumn, sendWorkbook, writeWorkbook, xlsxReply } from '../../services/excel.js';
import { UPLOAD_LIMIT_BYTES } from '../../services/upload-limit.js';
import { byteLimit } from '../../services/zip.js';
import { closePeriod, closingLines, payrollsOf } from './closing.js';
import { attendanceTables } from './compute.js';
import { importJustifications, importTemplate } from './import.js';
import { ATTENDANCE_ROUTES, attendanceOffice } from './office.js';
import { type PeriodQuery, periodBatches, periodGrid } from './period.js';
import { checkedRange } from './range.js';

const date = { type: 'string', format: 'date', maxLength: 10 };
const result = (description: string) => resultResponses(description, [400, 401, 403, 404, 409]);
const excel = { 200: { description: 'The .xlsx file', type: 'string', format: 'binary' } };
const periodQuery = {
  desde: date,
  hasta: date,
  IdDivision: field.id(),
  IdCompania: field.id(),
  IdPlanilla: field.id(),
  Estado: { type: 'string', enum: [...DAY_STATUSES] },
};

const hoursOf = (minutes: number) => Math.round((minutes / 60) * 100) / 100;

/**
 * A company's period as a grid (people × days) with totals and its Excel export, the payrolls'
 * periods and their closing with the closed period's export for payroll, and the import of
 * justifications from a file (spec sections 2, 3 and 5, Attendance).
 */
export default async function periodRoutes(fastify: FastifyInstance): Promise<void> {
  await fastify.register(multipart, { limits: { fileSize: UPLOAD_LIMIT_BYTES, files: 1, fields: 10 } });
  const { db } = fastify.database;
  const tables = attendanceTables(fastify.registry);

  fastify.get<{ Querystring: PeriodQuery }>(
    '/asistencia/periodo',
    {
      schema: {
        tags: ['attendance'],
        summary: "A period's grid: a page of people with each day's result and their totals",
        description:
          'At most 62 days; 50 people a page (pagina). A contractor sees its own company only. A company whose attendance configuration lacks a payroll or a special condition is refused with the spec’s message.',
        querystring: objectOf({ ...periodQuery, pagina: field.integer(1, 100_000) }, ['desde', 'hasta']),
        response: result('{ total, pagina, porPagina, personas: [{ ..., dias, totales }] }'),
      },
    },
    async (request) => {
      const office = attendanceOffice(request.principal, ATTENDANCE_ROUTES.period);
      checkedRange(request.query);
      return { result: await periodGrid(db, tables, office, request.query) };
    },
  );

  fastify.get<{ Querystring: PeriodQuery }>(
    '/asistencia/periodo/excel',
    {
      schema: {
        tags: ['attendance'],
        summary:
          "A period's grid as an Excel workbook, streamed: every person, a column per day, their totals",
        querystring: objectOf(periodQuery, ['desde', 'hasta']),
        response: excel,
      },
    },
    async (request, reply) => {
      const office = attendanceOffice(request.principal, ATTENDANCE_ROUTES.period);
      const q = checkedRange(request.query);
      const language = request.language;
      const h = (key: string) => t(language, `attendance.export.${key}`);
      const dates: string[] = [];
      for (
        let d = q.desde;
        d <= q.hasta;
        d = new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
      )
        dates.push(d);
      const text = (key: string, header: string, width: number): ExportColumn => ({
        header,
        kind: 'text',
        width,
        value: (row) => (row[key] == null ? null : String(row[key])),
      });
      const total = (key: string, header: string, hours = false): ExportColumn => ({
        header,
        kind: 'number',
        width: 12,
        value: (row) => {
          const v = Number((row.totales as Record<string, number>)[key]);
          return hours ? hoursOf(v) : v;
        },
      });
      const columns: ExportColumn[] = [
        text('Documento', h('document'), 14),
        text('Persona', h('person'), 34),
        text('Compania', h('company'), 30),
        text('CodigoPlanilla', h('payrollCode'), 12),
        ...dates.map(
          (d): ExportColumn => ({
            header: d.slice(8, 10),
            kind: 'text',
            width: 7,
            value: (row) => {
              const day = (row.dias as Array<Record<string, unknown>>).find((x) => x.Fecha === d);
              return day ? t(language, `attendance.codes.${day.Estado}`) : null;
            },
          }),
        ),
        total('diasTrabajados', h('daysWorked')),
        total('minutosTrabajados', h('hoursWorked'), true),
        total('minutosExtra', h('overtime'), true),
        total('minutosTardanza', h('lateMinutes')),
        total('faltas', h('absences')),
        total('justificadas', h('justified')),
        total('minutosJustificadosPagados', h('paidJustified'), true),
        total('pendientes', h('pending')),
      ];
      // The company's configuration is checked before the first byte goes out.
      const batches = periodBatches(db, tables, office, q);
      const first = await batches.next();
      async function* all() {
        if (!first.done) yield first.value;
        yield* batches;
      }
      return sendWorkbook(
        reply,
        `asistencia-${q.desde}-${q.hasta}.xlsx`,
        `${h('fileName')} ${q.desde} ${q.hasta}.xlsx`,
        (stream) => writeWorkbook(stream, columns, all(), 'data', `${h('title')} ${q.desde} – ${q.hasta}`),
      );
    },
  );

  fastify.get(
    '/asistencia/planillas',
    {
      schema: {
        tags: ['attendance'],
        summary: "The client's payrolls with their current and previous periods and last closings",
        response: result('{ hoy, planillas: [{ ..., actual, anterior, cierres }] }'),
      },
    },
    async (request) => {
      const office = attendanceOffice(request.principal, ATTENDANCE_ROUTES.closing);
      if (office.companyId !== undefined) throw new ApiError('FORBIDDEN');
      return { result: await payrollsOf(db, tables, office, fastify.auth.now()) };
    },
  );

  fastify.post<{ Params: { id: number }; Body: { fecha: string } }>(
    '/asistencia/planillas/:id/cerrar',
    {
      schema: {
        tags: ['attendance'],
        summary: 'Closes the period of a payroll that holds a date: its days computed and frozen',
        description:
          'Refused when the period is not over (400), when it is closed already (409) or when a company of the payroll lacks a special condition (400). Later markings on its days leave the figures and flag the day Pendiente.',
        params: objectOf({ id: field.id() }, ['id']),
        body: objectOf({ fecha: date }, ['fecha']),
        response: result('{ IdPlanilla, Desde, Hasta, Personas, Dias }'),
      },
    },
    async (request) => {
      const office = attendanceOffice(request.principal, ATTENDANCE_ROUTES.closing);
      if (office.companyId !== undefined) throw new ApiError('FORBIDDEN');
      return {
        result: await closePeriod(
          db,
          tables,
          office,
          request.params.id,
          request.body.fecha,
          fastify.auth.now(),
        ),
      };
    },
  );

  fastify.get<{ Params: { id: number; desde: string } }>(
    '/asistencia/planillas/:id/cierres/:desde/excel',
    {
      schema: {
        tags: ['attendance'],
        summary:
          'A closed period for payroll as an Excel workbook: per person, the frozen figures and the justifications by reference code',
        params: objectOf({ id: field.id(), desde: date }, ['id', 'desde']),
        response: excel,
      },
    },
    async (request, reply) => {
      const office = attendanceOffice(request.principal, ATTENDANCE_ROUTES.closing);
      if (office.companyId !== undefined) throw new ApiError('FORBIDDEN');
      const { closing, lines, codes, concepts } = await closingLines(
        db,
        tables,
        office,
        request.params.id,
        request.params.desde,
      );
      const language = request.language;
      const h = (key: string) => t(language, `attendance.export.${key}`);
      type Line = (typeof lines)[number] & Record<string, unknown>;
      const column = (
        header: string,
        kind: ExportColumn['kind'],
        width: number,
        value: (l: Line) => string | number | null,
      ): ExportColumn => ({
        header,
        kind,
        width,
        value: (row) => value(row as Line),
      });
      const columns: ExportColumn[] = [
        column(h('payroll'), 'text', 10, (l) => l.Planilla),
        column(h('payrollCode'), 'text', 12, (l) => l.CodigoPlanilla),
        column(h('document'), 'text', 14, (l) => l.Documento),
        column(h('person'), 'text', 34, (l) => l.Persona),
        column(h('company'), 'text', 30, (l) => l.Compania),
        column(h('daysWorked'), 'number', 12, (l) => l.diasTrabajados),
        column(h('hoursWorked'), 'number', 12, (l) => hoursOf(l.minutosTrabajados)),
        column(h('overtime'), 'number', 12, (l) => hoursOf(l.minutosExtra)),
        column(h('lateMinutes'), 'number', 12, (l) => l.minutosTardanza),
        column(h('absences'), 'number', 10, (l) => l.faltas),
        column(h('justified'), 'number', 12, (l) => l.justificadas),
        column(h('paidJustified'), 'number', 14, (l) => hoursOf(l.minutosJustificadosPagados)),
        ...codes.map((code) => column(code, 'number', 8, (l) => l.codigos[code] ?? 0)),
        column(h('condition'), 'text', 30, (l) => l.Condicion),
        ...concepts.map((c) => column(h(`concepts.${c}`), 'number', 12, (l) => hoursOf(l.conceptos[c] ?? 0))),
        column(h('pendingEarlier'), 'number', 14, (l) => l.pendientesAnteriores),
      ];
      async function* once() {
        yield lines as unknown as Array<Record<string, unknown>>;
      }
      const name = `${h('closingFileName')} ${lines[0]?.Planilla ?? ''} ${closing.Desde} ${closing.Hasta}.xlsx`;
      return sendWorkbook(reply, `cierre-${closing.Desde}-${closing.Hasta}.xlsx`, name, (stream) =>
        writeWorkbook(
          stream,
          columns,
          once(),
          'data',
          `${h('closingTitle')} ${closing.Desde} – ${closing.Hasta}`,
        ),
      );
    },
  );

  fastify.get(
    '/asistencia/justificaciones/plantilla',
    {
      schema: {
        tags: ['attendance'],
        summary:
          'The template of a justification import: Documento, Fecha, Tipo (F, T, H), Horas, Observacion',
        response: excel,
      },
    },
    async (request, reply) => {
      attendanceOffice(request.principal, ATTENDANCE_ROUTES.people);
      const name = `${t(request.language, 'attendance.import.fileName')}.xlsx`;
      return xlsxReply(reply, 'plantilla.xlsx', name).send(await importTemplate(request.language));
    },
  );

  fastify.post(
    '/asistencia/justificaciones/importar',
    {
      config: { repository: 'M' },
      schema: {
        tags: ['attendance'],
        summary: 'Imports a file of one justification for people of one company',
        description:
          'Multipart: IdCompania and IdJustificacion (both required: "Justification import requires company and justification"), then the .xlsx file (the template’s columns). Every row is checked as a single entry is; any row refused and nothing is written, the answer naming each row’s problem by "row.column".',
        consumes: ['multipart/form-data'],
        response: result('{ importadas }'),
      },
    },
    async (request) => {
      const office = attendanceOffice(request.principal, ATTENDANCE_ROUTES.people);
      if (!request.isMultipart()) throw new ApiError('UNSUPPORTED_MEDIA_TYPE');
      const dir = await mkdtemp(join(tmpdir(), 'justificaciones-'));
      try {
        const fields: Record<string, string> = {};
        const path = join(dir, 'upload.xlsx');
        let file = false;
        try {
          for await (const part of request.parts()) {
            if (part.type === 'file') {
              if (!file) {
                file = true;
                await pipeline(
                  part.file,
                  byteLimit(UPLOAD_LIMIT_BYTES, () => new ApiError('PAYLOAD_TOO_LARGE')),
                  createWriteStream(path),
                );
                if (part.file.truncated) throw new ApiError('PAYLOAD_TOO_LARGE');
              } else part.file.resume();
            } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
          }
        } catch (error) {
          // A body cut short or malformed is the sender's fault: 400, not a failure of the server.
          if (error instanceof ApiError || (error as { statusCode?: number }).statusCode) throw error;
          throw new ApiError('BAD_REQUEST');
        }
        const id = (value: string | undefined) => {
          const n = Number(value);
          return value && Number.isInteger(n) && n > 0 && n < 2 ** 31 ? n : undefined;
        };
        const input = { company: id(fields.IdCompania), justification: id(fields.IdJustificacion), path };
        if (input.company && input.justification && !file)
          throw new ApiError('VALIDATION_FAILED', {
            messageKey: 'bulk.errors.noFile',
            fields: { file: { messageKey: 'bulk.errors.noFile' } },
          });
        const imported = await importJustifications(
          db,
          fastify.crud,
          fastify.registry,
          tables,
          office,
          request.principal,
          input,
        );
        fastify.markingsWritten.fire();
        return { result: imported };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
}
