import type { FastifyInstance } from 'fastify';
import { addDays } from '../../../shared/dates.js';
import { containsPattern, likeEscaped } from '../../crud/filters.js';
import { ApiError } from '../../errors.js';
import { field, objectOf, resultResponses } from '../../routes/responses.js';
import { ACCESS_TABLES } from '../../services/site/tables.js';
import { attendanceTables, clientSite, computePeriod, lanesOf, loadClientSetup } from './compute.js';
import { type AttendanceOffice, attendanceOffice } from './office.js';
import periodRoutes from './period-routes.js';
import { ATTENDANCE_MAX_DAYS, checkedRange } from './range.js';
import { ATTENDANCE_TABLES } from './tables.js';
import { attendanceSchedule } from './worker.js';

const date = { type: 'string', format: 'date', maxLength: 10 };
const result = (description: string) => resultResponses(description, [400, 401, 403, 404]);
const range = objectOf({ desde: date, hasta: date }, ['desde', 'hasta']);

type Row = Record<string, unknown>;

/**
 * Attendance (spec section 2 Attendance): the daily results the gates' markings keep current, a
 * person's days with their markings, and the computation of a period on demand.
 */
export default async function attendanceRoutes(fastify: FastifyInstance): Promise<void> {
  const { db } = fastify.database;
  const tables = attendanceTables(fastify.registry);
  attendanceSchedule(fastify, () => fastify.auth.now());
  await fastify.register(periodRoutes);

  /** A person of the office's client (and company, for a contractor), else 404. */
  const personOf = async (office: AttendanceOffice, id: number) => {
    let qb = db
      .selectFrom(`${tables.person} as p`)
      .leftJoin(`${tables.company} as c`, 'c.IdCompania', 'p.IdCompania')
      .select(['p.IdPersona', 'p.Documento', 'p.Apellido', 'p.Nombre', 'p.IdCompania', 'c.Compania'])
      .where('p.IdPersona', '=', id)
      .where('p.IdCliente', '=', office.clientId);
    if (office.companyId !== undefined) qb = qb.where('p.IdCompania', '=', office.companyId);
    const person = (await qb.executeTakeFirst()) as Row | undefined;
    if (!person) throw new ApiError('NOT_FOUND');
    return person;
  };

  fastify.get<{ Querystring: { texto: string } }>(
    '/asistencia/personas',
    {
      schema: {
        tags: ['attendance'],
        summary:
          'People of the client (a contractor: of its company) by two or more letters of the name or the document',
        querystring: objectOf({ texto: field.text(60, { minLength: 2 }) }, ['texto']),
        response: result('[{ IdPersona, Documento, Persona, Compania }]'),
      },
    },
    async (request) => {
      const office = attendanceOffice(request.principal);
      const pattern = containsPattern(request.query.texto.trim().toUpperCase());
      let qb = db
        .selectFrom(`${tables.person} as p`)
        .leftJoin(`${tables.company} as c`, 'c.IdCompania', 'p.IdCompania')
        .select(['p.IdPersona', 'p.Documento', 'p.Apellido', 'p.Nombre', 'c.Compania'])
        .where('p.IdCliente', '=', office.clientId)
        .where((eb) =>
          eb.or(['p.Documento', 'p.Apellido', 'p.Nombre'].map((f) => likeEscaped(eb.ref(f), pattern))),
        );
      if (office.companyId !== undefined) qb = qb.where('p.IdCompania', '=', office.companyId);
      const rows = (await qb.orderBy('p.Apellido').orderBy('p.Nombre').limit(30).execute()) as Row[];
      return {
        result: rows.map((r) => ({
          IdPersona: Number(r.IdPersona),
          Documento: String(r.Documento),
          Persona: `${r.Apellido}, ${r.Nombre}`,
          Compania: (r.Compania as string | null) ?? null,
        })),
      };
    },
  );

  fastify.get<{ Params: { id: number }; Querystring: { desde: string; hasta: string } }>(
    '/asistencia/personas/:id/dias',
    {
      schema: {
        tags: ['attendance'],
        summary: "A person's days: each day's result and the markings of the range",
        description: `At most ${ATTENDANCE_MAX_DAYS} days. A contractor's session reaches only its company's people (else 404).`,
        params: objectOf({ id: field.id() }, ['id']),
        querystring: range,
        response: result(
          '{ persona, dias: [...], marcaciones: [...], justificaciones: [...], zonaHoraria, hoy }',
        ),
      },
    },
    async (request) => {
      const office = attendanceOffice(request.principal);
      const q = checkedRange(request.query);
      const person = await personOf(office, request.params.id);
      const [days, markings, justifications] = await Promise.all([
        db
          .selectFrom(ATTENDANCE_TABLES.day)
          .selectAll()
          .where('IdPersona', '=', request.params.id)
          .where('Fecha', '>=', q.desde)
          .where('Fecha', '<=', q.hasta)
          .orderBy('Fecha')
          .execute(),
        db
          .selectFrom(ACCESS_TABLES.marking)
          .select([
            'IdMarcacion',
            'Fecha',
            'Hora',
            'FechaHora',
            'Funcion',
            'Resultado',
            'IdPuerta',
            'IdEquipo',
            'Origen',
          ])
          .where('IdPersona', '=', request.params.id)
          .where('Fecha', '>=', q.desde)
          .where('Fecha', '<=', addDays(q.hasta, 1))
          .orderBy('FechaHora')
          .execute(),
        db
          .selectFrom(`${tables.personJustification} as pj`)
          .innerJoin(`${tables.justification} as j`, 'j.IdJustificacion', 'pj.IdJustificacion')
          .select([
            'pj.IdJustificacionPersona',
            'pj.Fecha',
            'pj.IdJustificacion',
            'j.Descripcion',
            'j.CodigoReferencia',
            'pj.Tipo',
            'pj.Horas',
            'pj.Observacion',
            'pj.Origen',
          ])
          .where('pj.IdPersona', '=', request.params.id)
          .where('pj.Fecha', '>=', q.desde)
          .where('pj.Fecha', '<=', q.hasta)
          .orderBy('pj.Fecha')
          .orderBy('pj.IdJustificacionPersona')
          .execute() as Promise<Row[]>,
      ]);
      const site = await clientSite(db, tables, office.clientId, fastify.auth.now());
      return {
        result: {
          persona: person,
          dias: days,
          marcaciones: markings,
          justificaciones: justifications.map((j) => ({
            ...j,
            Fecha: String(j.Fecha).slice(0, 10),
            Horas: j.Horas == null ? null : Number(j.Horas),
          })),
          zonaHoraria: site.timeZone,
          hoy: site.today,
        },
      };
    },
  );

  fastify.post<{ Body: { desde: string; hasta: string; IdPersona?: number } }>(
    '/asistencia/calcular',
    {
      schema: {
        tags: ['attendance'],
        summary: 'Computes the days of a range now, for every person tracked or one',
        description:
          `At most ${ATTENDANCE_MAX_DAYS} days. The client's (a contractor's session is refused: 403). ` +
          'Days of a closed period keep their figures (flagged Pendiente when they would change).',
        body: objectOf({ desde: date, hasta: date, IdPersona: field.id() }, ['desde', 'hasta']),
        response: resultResponses('{ dias }', [400, 401, 403, 404]),
      },
    },
    async (request) => {
      const office = attendanceOffice(request.principal);
      if (office.companyId !== undefined) throw new ApiError('FORBIDDEN');
      const q = checkedRange(request.body);
      if (request.body.IdPersona !== undefined) await personOf(office, request.body.IdPersona);
      const setup = await loadClientSetup(
        db,
        tables,
        office.clientId,
        fastify.auth.now(),
        lanesOf(fastify.database.dialect),
      );
      const written = await computePeriod(
        db,
        tables,
        setup,
        q.desde,
        q.hasta,
        request.body.IdPersona !== undefined ? [request.body.IdPersona] : undefined,
      );
      return { result: { dias: written } };
    },
  );
}
