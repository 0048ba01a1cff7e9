import type { FastifyInstance, FastifyRequest } from 'fastify';
import { siteDate } from '../../../shared/dates.js';
import { CREW_MAX } from '../../../shared/induction.js';
import type { Db } from '../../db/connection.js';
import { field, objectOf, resultResponses } from '../../routes/responses.js';
import { endSourcedRequirements } from '../../services/sourced-requirements.js';
import { divisionCountry } from '../../site.js';
import { book, cancelBooking } from './bookings.js';
import { crew } from './candidates.js';
import { certificatePdf, recordOf, verifyCertificate } from './certificate.js';
import { inductionOffice } from './office.js';
import { takeTest, testSheet } from './online.js';
import { inductionReport, reportWorkbook } from './report.js';
import { INDUCTION_SOURCE } from './requirement-source.js';
import { amendResult, closeSession, markPresent, type Result, saveResults } from './results.js';
import { cancelSession, peopleInductions, sessionDetail } from './sessions.js';
import { inductionTables } from './tables.js';
import { mailTestLinks, testLinkOf } from './test-links.js';

const BASE = '/induccion';
const result = (description: string) => resultResponses(description, [400, 401, 403, 404, 409, 429]);
const date = { type: 'string', format: 'date', maxLength: 10 };
const idParams = objectOf({ id: field.id() }, ['id']);
const score = { anyOf: [field.integer(0, 100), { type: 'null' }] };
const reason = field.text(300, { minLength: 3 });
const tags = ['induction'];

/** What the module's calls share: the database, its tables, the clock and the caller's office and site. */
function context(fastify: FastifyInstance) {
  const { db } = fastify.database;
  const t = inductionTables(fastify.registry);
  const now = () => fastify.auth.now();
  const trainer = (r: FastifyRequest) => inductionOffice(r.principal, 'trainer');
  const either = (r: FastifyRequest) => inductionOffice(r.principal, 'either');
  const country = (r: FastifyRequest) =>
    divisionCountry(db, fastify.registry, Number(r.principal.divisionId));
  const today = async (r: FastifyRequest) => siteDate(await country(r), now());
  const origin = (r: FastifyRequest) => `${r.protocol}://${r.host}`;
  // A revoked induction's requirements expire the day it was revoked (the expiry job suspends as usual).
  const endSourced = async (trx: Db, ref: number, on: string) => {
    await endSourcedRequirements(trx, fastify.registry, { source: INDUCTION_SOURCE, ref, on });
  };
  return { db, t, now, trainer, either, country, today, origin, endSourced };
}

/** A session's bookings: who may be booked, booking, cancelling, an online course's link. */
async function bookingRoutes(fastify: FastifyInstance): Promise<void> {
  const { db, t, now, either, country, origin } = context(fastify);
  fastify.get<{ Params: { id: number } }>(
    `${BASE}/sesiones/:id`,
    {
      schema: {
        tags,
        summary: 'A session with its bookings (a requester’s: its company’s)',
        params: idParams,
        response: result('the session'),
      },
    },
    async (r) => ({ result: await sessionDetail(db, t, either(r), r.params.id) }),
  );

  fastify.get<{ Querystring: { IdContrato?: number; IdCargaMasiva?: number; buscar?: string } }>(
    `${BASE}/candidatos`,
    {
      schema: {
        tags,
        summary: 'Workers the session may book: a contract’s, a bulk request’s, or those a search finds',
        querystring: objectOf({ IdContrato: field.id(), IdCargaMasiva: field.id(), buscar: field.text(100) }),
        response: result('the workers'),
      },
    },
    async (r) => ({ result: await crew(db, t, either(r), r.query) }),
  );

  fastify.post<{ Params: { id: number }; Body: { IdPersonas: number[] } }>(
    `${BASE}/sesiones/:id/reservas`,
    {
      schema: {
        tags,
        summary: 'Books workers on a session, all or none (the seats held by the database)',
        params: idParams,
        body: objectOf(
          {
            IdPersonas: {
              type: 'array',
              items: field.id(),
              minItems: 1,
              maxItems: CREW_MAX,
              uniqueItems: true,
            },
          },
          ['IdPersonas'],
        ),
        response: result('{ session, booked }'),
      },
    },
    async (r) => {
      const done = await book(db, t, either(r), r.params.id, r.body.IdPersonas, now(), await country(r));
      if (done.session.Modalidad === 'V') await mailTestLinks(fastify, origin(r), either(r), done);
      return { result: { IdSesion: done.session.IdSesion, reservados: done.booked } };
    },
  );

  fastify.delete<{ Params: { id: number } }>(
    `${BASE}/reservas/:id`,
    {
      schema: {
        tags,
        summary: 'Cancels an open booking and frees its seat',
        params: idParams,
        response: result('the booking'),
      },
    },
    async (r) => ({ result: await cancelBooking(db, t, either(r), r.params.id) }),
  );

  fastify.get<{ Params: { id: number } }>(
    `${BASE}/reservas/:id/enlace`,
    {
      schema: {
        tags,
        summary: 'The link to an online course’s test for a booking',
        params: idParams,
        response: result('{ enlace }'),
      },
    },
    async (r) => ({ result: await testLinkOf(fastify, origin(r), either(r), r.params.id) }),
  );
}

/** The trainer's work on a session: attendance, results, closing, cancelling; an administrator's change. */
async function sessionRoutes(fastify: FastifyInstance): Promise<void> {
  const { db, t, now, trainer, country, today, endSourced } = context(fastify);
  fastify.post<{ Params: { id: number }; Body: { codigo: string } }>(
    `${BASE}/sesiones/:id/asistencia`,
    {
      schema: {
        tags,
        summary: 'Marks a booked worker present by a badge’s QR, a card number or a document',
        params: idParams,
        body: objectOf({ codigo: field.text(1000, { minLength: 1 }) }, ['codigo']),
        response: result('the booking marked'),
      },
    },
    async (r) => ({ result: await markPresent(db, t, trainer(r), r.params.id, r.body.codigo) }),
  );

  fastify.put<{ Params: { id: number }; Body: { resultados: Result[] } }>(
    `${BASE}/sesiones/:id/resultados`,
    {
      schema: {
        tags,
        summary: 'Saves attendance and scores of a scheduled session',
        params: idParams,
        body: objectOf(
          {
            resultados: {
              type: 'array',
              maxItems: 500,
              items: objectOf({ IdInscripcion: field.id(), Asistio: field.flag, Nota: score }, [
                'IdInscripcion',
                'Asistio',
              ]),
            },
          },
          ['resultados'],
        ),
        response: result('{ IdSesion, guardados }'),
      },
    },
    async (r) => ({ result: await saveResults(db, t, trainer(r), r.params.id, r.body.resultados) }),
  );

  fastify.post<{ Params: { id: number } }>(
    `${BASE}/sesiones/:id/cerrar`,
    {
      schema: {
        tags,
        summary: 'Closes a session: passes recorded, fails and absences settled',
        params: idParams,
        response: result('the counts'),
      },
    },
    async (r) => ({ result: await closeSession(db, t, trainer(r), r.params.id, now(), await country(r)) }),
  );

  fastify.post<{ Params: { id: number }; Body: { Motivo: string } }>(
    `${BASE}/sesiones/:id/cancelar`,
    {
      schema: {
        tags,
        summary: 'Cancels a scheduled session; the booked are told by mail',
        params: idParams,
        body: objectOf({ Motivo: reason }, ['Motivo']),
        response: result('the session'),
      },
    },
    async (r) => ({
      result: await cancelSession(
        db,
        t,
        fastify.notifier,
        trainer(r),
        r.params.id,
        r.body.Motivo.trim().toUpperCase(),
      ),
    }),
  );

  fastify.put<{ Params: { id: number }; Body: { Asistio: 'S' | 'N'; Nota: number | null; Motivo: string } }>(
    `${BASE}/reservas/:id/resultado`,
    {
      schema: {
        tags,
        summary: 'An administrator’s change of a closed session’s result, with the reason (audited)',
        params: idParams,
        body: objectOf({ Asistio: field.flag, Nota: score, Motivo: reason }, ['Asistio', 'Nota', 'Motivo']),
        response: result('the booking'),
      },
    },
    async (r) => {
      const input = { id: r.params.id, ...r.body, Motivo: r.body.Motivo.trim().toUpperCase() };
      const done = await amendResult(db, fastify.registry, t, trainer(r), input, endSourced, await today(r));
      return { result: done.booking };
    },
  );
}

/** Passed inductions: one's people's, certificates and their verification, the period's report. */
async function recordRoutes(fastify: FastifyInstance): Promise<void> {
  const { db, t, trainer, either, today } = context(fastify);
  fastify.get(
    `${BASE}/personal`,
    {
      schema: {
        tags,
        summary: 'The inductions and open bookings of the session’s people (a requester’s: its company’s)',
        response: result('{ registros, reservas }'),
      },
    },
    async (r) => ({ result: await peopleInductions(db, t, either(r), await today(r)) }),
  );

  fastify.get<{ Params: { id: number } }>(
    `${BASE}/registros/:id/certificado`,
    {
      schema: {
        tags,
        summary: 'A passed induction’s certificate (PDF, with a signed QR)',
        params: idParams,
        response: result('{ fileBase64, fileName, fileType }'),
      },
    },
    async (r) => {
      const row = await recordOf(db, t, either(r), r.params.id);
      const pdf = await certificatePdf(db, row, r.language);
      return {
        result: {
          fileBase64: pdf.toString('base64'),
          fileName: `induccion-${row.IdRegistro}.pdf`,
          fileType: 'application/pdf',
        },
      };
    },
  );

  fastify.post<{ Body: { token: string } }>(
    `${BASE}/verificar`,
    {
      schema: {
        tags,
        summary: 'Whether a certificate’s QR is genuine, and the induction it names as it stands today',
        body: objectOf({ token: field.text(1000, { minLength: 1 }) }, ['token']),
        response: result('{ genuine, valid, reason, … }'),
      },
    },
    async (r) => ({ result: await verifyCertificate(db, t, either(r), r.body.token, await today(r)) }),
  );

  const period = objectOf({ desde: date, hasta: date }, ['desde', 'hasta']);
  fastify.get<{ Querystring: { desde: string; hasta: string } }>(
    `${BASE}/reporte`,
    {
      schema: {
        tags,
        summary: 'The period’s sessions, attendance, pass rates and expiring inductions',
        querystring: period,
        response: result('the report'),
      },
    },
    async (r) => ({
      result: await inductionReport(db, t, trainer(r), r.query.desde, r.query.hasta, await today(r)),
    }),
  );

  fastify.get<{ Querystring: { desde: string; hasta: string } }>(
    `${BASE}/reporte/excel`,
    {
      schema: {
        tags,
        summary: 'Every booking of the period’s sessions as an Excel workbook',
        querystring: period,
        response: result('{ fileBase64, fileName }'),
      },
    },
    async (r) => ({
      result: await reportWorkbook(db, t, trainer(r), r.query.desde, r.query.hasta, r.language),
    }),
  );
}

/** The online test a worker takes from its link, without signing in. */
async function testRoutes(fastify: FastifyInstance): Promise<void> {
  const { db, t, now } = context(fastify);
  const tokenParams = objectOf({ token: field.text(400, { minLength: 3 }) }, ['token']);
  fastify.get<{ Params: { token: string } }>(
    `${BASE}/prueba/:token`,
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'An online course’s test, by its link (no sign-in)',
        params: tokenParams,
        response: result('the test'),
      },
    },
    async (r) => ({ result: await testSheet(db, t, fastify.sealer, r.params.token) }),
  );

  fastify.post<{
    Params: { token: string };
    Body: { respuestas: Array<{ IdPregunta: number; Respuesta: string }> };
  }>(
    `${BASE}/prueba/:token`,
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Takes the test: scored by the server, one attempt an hour',
        params: tokenParams,
        body: objectOf(
          {
            respuestas: {
              type: 'array',
              maxItems: 50,
              items: objectOf(
                { IdPregunta: field.id(), Respuesta: { type: 'string', enum: ['A', 'B', 'C', 'D'] } },
                ['IdPregunta', 'Respuesta'],
              ),
            },
          },
          ['respuestas'],
        ),
        response: result('{ Nota, aprobado, … }'),
      },
    },
    async (r) => ({
      result: await takeTest(
        db,
        fastify.registry,
        t,
        fastify.sealer,
        r.params.token,
        r.body.respuestas,
        now(),
      ),
    }),
  );
}

/**
 * The Inductions module's calls: a session's bookings, attendance, results and closing (the
 * trainer's), booking and following one's workers (the requester's), certificates and their
 * verification, the period's report, and the online test a worker takes from a link.
 */
export default async function inductionRoutes(fastify: FastifyInstance): Promise<void> {
  await bookingRoutes(fastify);
  await sessionRoutes(fastify);
  await recordRoutes(fastify);
  await testRoutes(fastify);
}
