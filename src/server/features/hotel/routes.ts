import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GRID_MAX_DAYS, LODGING_TURNS, MASS_MAX_PEOPLE } from '../../../shared/hotel.js';
import { ApiError } from '../../errors.js';
import { t } from '../../i18n.js';
import { field, INT32, objectOf, resultResponses } from '../../routes/responses.js';
import { type ExportColumn, workbookBase64 } from '../../services/excel.js';
import { LodgingBoard } from './board.js';
import { type Assignment, type CrewQuery, MassReservation } from './mass.js';
import { campOffice } from './office.js';
import { campChoices, candidates, reservationList } from './queries.js';
import { releaseSchedule } from './releases.js';
import { type Booking, Stays } from './stays.js';

const BASE = '/hotel';
const result = (description: string) => resultResponses(description, [400, 401, 403, 404, 409]);
const date = { type: 'string', format: 'date', maxLength: 10 };
const turn = { type: 'string', enum: [...LODGING_TURNS] };
const idParams = objectOf({ id: field.id() }, ['id']);
const stay = {
  IdCampamento: field.id(),
  IdPersona: field.id(),
  IdCama: field.id(),
  IdTipoHabitacion: field.id(),
  FechaInicio: date,
  FechaFin: date,
  Turno: turn,
  Observacion: field.text(300),
};
const crew = {
  IdCampamento: field.id(),
  FechaInicio: date,
  FechaFin: date,
  Turno: turn,
  IdTipoHabitacion: field.id(),
};

/**
 * Camp lodging (spec section 2 Hotel): the hotel administrator's availability grid, reservations
 * one at a time or by crews, check-in, check-out, moves, the dashboard and reports; a requester's
 * reservations for its company's people.
 */
export default async function hotelRoutes(fastify: FastifyInstance): Promise<void> {
  const { db } = fastify.database;
  const registry = fastify.registry;
  const stays = new Stays(db, registry);
  const board = new LodgingBoard(db, registry);
  const mass = new MassReservation(db, registry, stays);
  const admin = (request: FastifyRequest) => campOffice(db, registry, request.principal);
  const anyone = (request: FastifyRequest) =>
    campOffice(db, registry, request.principal, { administrator: false });
  releaseSchedule(fastify, () => fastify.auth.now());

  fastify.get(
    `${BASE}/campamentos`,
    {
      schema: {
        tags: ['hotel'],
        summary: 'The camps the session works on, with their blocks, and the room types',
        description:
          'A user with the lodging screens who runs no camp gets asignado false and no camps (the ' +
          'screens say so); every other lodging call refuses such a user with hotel.refusals.notAdministrator.',
        response: result('{ administrador, asignado, campamentos, tiposHabitacion }'),
      },
    },
    async (request) => {
      const office = await anyone(request).catch((error: unknown) => {
        if (error instanceof ApiError && error.messageKey === 'hotel.refusals.notAdministrator')
          return undefined;
        throw error;
      });
      return {
        result: office
          ? await campChoices(db, registry, office)
          : { administrador: true, asignado: false, campamentos: [], tiposHabitacion: [] },
      };
    },
  );

  fastify.get<{ Querystring: { buscar: string } }>(
    `${BASE}/personas`,
    {
      schema: {
        tags: ['hotel'],
        summary: 'People the session may reserve for (accredited, or with a mobilisation request sent)',
        querystring: objectOf({ buscar: field.text(100, { minLength: 2 }) }, ['buscar']),
        response: result('the people'),
      },
    },
    async (request) => ({
      result: await candidates(db, registry, await anyone(request), request.query.buscar),
    }),
  );

  fastify.get<{
    Querystring: {
      desde: string;
      dias?: number;
      IdCampamento?: number;
      IdModuloHotel?: number;
      IdTipoHabitacion?: number;
    };
  }>(
    `${BASE}/disponibilidad`,
    {
      schema: {
        tags: ['hotel'],
        summary: `The availability grid: beds by night, for up to ${GRID_MAX_DAYS} nights`,
        querystring: objectOf(
          {
            desde: date,
            dias: field.integer(1, GRID_MAX_DAYS),
            IdCampamento: field.id(),
            IdModuloHotel: field.id(),
            IdTipoHabitacion: field.id(),
          },
          ['desde'],
        ),
        response: result('{ desde, hasta, dias, camas, estadias }'),
      },
    },
    async (request) => ({ result: await board.grid(await admin(request), request.query) }),
  );

  fastify.get<{
    Querystring: { IdCampamento?: number; Estado?: 'R'; buscar?: string; skip?: number; take?: number };
  }>(
    `${BASE}/reservas`,
    {
      schema: {
        tags: ['hotel'],
        summary: 'The reservations of the session’s camps (a requester’s: of its company)',
        querystring: objectOf({
          IdCampamento: field.id(),
          Estado: { type: 'string', enum: ['R', 'I', 'S', 'L', 'A', 'M'] },
          buscar: field.text(100),
          skip: field.integer(0, INT32.max),
          take: field.integer(1, 100),
        }),
        response: result('{ data, totalCount }'),
      },
    },
    async (request) => ({
      result: await reservationList(db, registry, await anyone(request), request.query),
    }),
  );

  fastify.post<{ Body: Booking & { IdCampamento: number } }>(
    `${BASE}/reservas`,
    {
      schema: {
        tags: ['hotel'],
        summary:
          'Reserves a bed (or a bed of a room type, assigned) for a person from an arrival to a departure date',
        body: objectOf(stay, ['IdCampamento', 'IdPersona', 'FechaInicio', 'FechaFin']),
        response: result('the reservation'),
      },
    },
    async (request) => {
      const { IdCampamento, ...booking } = request.body;
      return { result: await stays.reserve(await anyone(request), IdCampamento, booking) };
    },
  );

  fastify.post<{ Body: Omit<Booking, 'FechaInicio'> & { IdCampamento: number } }>(
    `${BASE}/ingreso-directo`,
    {
      schema: {
        tags: ['hotel'],
        summary: 'Checks in someone accredited with no reservation: a stay from today, checked in at once',
        body: objectOf((({ FechaInicio: _f, ...rest }) => rest)(stay), [
          'IdCampamento',
          'IdPersona',
          'FechaFin',
        ]),
        response: result('the reservation'),
      },
    },
    async (request) => {
      const { IdCampamento, ...booking } = request.body;
      return { result: await stays.walkIn(await admin(request), IdCampamento, booking) };
    },
  );

  fastify.post<{ Params: { id: number }; Body: { Observacion?: string } }>(
    `${BASE}/reservas/:id/anular`,
    {
      schema: {
        tags: ['hotel'],
        summary: 'Cancels a reservation not checked in yet',
        params: idParams,
        body: objectOf({ Observacion: field.text(300) }),
        response: result('the reservation'),
      },
    },
    async (request) => ({
      result: await stays.cancel(await anyone(request), request.params.id, request.body?.Observacion),
    }),
  );

  fastify.post<{ Params: { id: number }; Body: { IdCama?: number } }>(
    `${BASE}/reservas/:id/ingreso`,
    {
      schema: {
        tags: ['hotel'],
        summary: 'Checks a reservation in (in another bed with IdCama)',
        params: idParams,
        body: objectOf({ IdCama: field.id() }),
        response: result('the reservation'),
      },
    },
    async (request) => ({
      result: await stays.checkIn(await admin(request), request.params.id, request.body?.IdCama),
    }),
  );

  fastify.post<{ Params: { id: number } }>(
    `${BASE}/reservas/:id/salida`,
    {
      schema: {
        tags: ['hotel'],
        summary: 'Checks a person out: the bed is free from today',
        params: idParams,
        response: result('the reservation'),
      },
    },
    async (request) => ({ result: await stays.checkOut(await admin(request), request.params.id) }),
  );

  fastify.post<{ Params: { id: number }; Body: { IdCama: number; Turno?: 'C' | 'D' | 'N' } }>(
    `${BASE}/reservas/:id/traslado`,
    {
      schema: {
        tags: ['hotel'],
        summary:
          'Moves a stay to another bed (a checked-in stay goes on in a new reservation, the history kept)',
        params: idParams,
        body: objectOf({ IdCama: field.id(), Turno: turn }, ['IdCama']),
        response: result('the reservation the stay goes on in'),
      },
    },
    async (request) => ({
      result: await stays.move(
        await admin(request),
        request.params.id,
        request.body.IdCama,
        request.body.Turno,
      ),
    }),
  );

  fastify.post<{ Body: CrewQuery }>(
    `${BASE}/reserva-masiva/propuesta`,
    {
      schema: {
        tags: ['hotel'],
        summary: 'Proposes beds for a crew (a contract’s people, or documents pasted or in an Excel file)',
        body: objectOf(
          {
            ...crew,
            IdContrato: field.id(),
            Documentos: { type: 'array', items: field.text(20), maxItems: MASS_MAX_PEOPLE },
            ArchivoBase64: field.text(4_000_000),
          },
          ['IdCampamento', 'FechaInicio', 'FechaFin'],
        ),
        response: result('the proposal: a line per person'),
      },
    },
    async (request) => ({ result: await mass.propose(await admin(request), request.body, request.language) }),
  );

  fastify.post<{
    Body: Omit<CrewQuery, 'IdContrato' | 'Documentos' | 'ArchivoBase64'> & { Asignaciones: Assignment[] };
  }>(
    `${BASE}/reserva-masiva`,
    {
      schema: {
        tags: ['hotel'],
        summary: 'Books a proposal all or nothing',
        body: objectOf(
          {
            ...crew,
            Asignaciones: {
              type: 'array',
              minItems: 1,
              maxItems: MASS_MAX_PEOPLE,
              items: objectOf({ IdPersona: field.id(), IdCama: field.id() }, ['IdPersona', 'IdCama']),
            },
          },
          ['IdCampamento', 'FechaInicio', 'FechaFin', 'Asignaciones'],
        ),
        response: result('{ reservadas, lote }'),
      },
    },
    async (request) => ({ result: await mass.book(await admin(request), request.body, request.language) }),
  );

  fastify.get(
    `${BASE}/tablero`,
    {
      schema: {
        tags: ['hotel'],
        summary: 'Each camp today, arrivals and departures today and tomorrow, overstays',
        response: result('the dashboard'),
      },
    },
    async (request) => ({ result: await board.dashboard(await admin(request)) }),
  );

  const rangeQuery = objectOf({ desde: date, hasta: date, IdCampamento: field.id() }, ['desde', 'hasta']);
  fastify.get<{ Querystring: { desde: string; hasta: string; IdCampamento?: number } }>(
    `${BASE}/reportes/ocupacion`,
    {
      schema: {
        tags: ['hotel'],
        summary: 'Occupancy per night and per company over a range',
        querystring: rangeQuery,
        response: result('the report'),
      },
    },
    async (request) => ({ result: await board.occupancy(await admin(request), request.query) }),
  );

  fastify.post<{ Body: { desde: string; hasta: string; IdCampamento?: number } }>(
    `${BASE}/reportes/ocupacion/excel`,
    {
      schema: {
        tags: ['hotel'],
        summary: 'The occupancy report as an Excel workbook: nights per company, then per night',
        body: rangeQuery,
        response: result('{ fileBase64, fileName }'),
      },
    },
    async (request) => {
      const report = await board.occupancy(await admin(request), request.body);
      const language = request.language;
      const h = (key: string) => t(language, `hotel.report.${key}`);
      const column = (key: string, kind: ExportColumn['kind'], width: number): ExportColumn => ({
        header: h(key),
        kind,
        width,
        value: (row) => (row[key] as never) ?? null,
      });
      const rows = [
        ...report.companias.map((c) => ({ Compania: c.Compania, noches: c.noches, personas: c.personas })),
        ...report.dias.map((d) => ({
          fecha: d.fecha,
          camas: d.camas,
          ocupadas: d.ocupadas,
          reservadas: d.reservadas,
        })),
      ];
      const columns = [
        column('Compania', 'text', 30),
        column('noches', 'number', 12),
        column('personas', 'number', 12),
        column('fecha', 'date', 14),
        column('camas', 'number', 10),
        column('ocupadas', 'number', 10),
        column('reservadas', 'number', 10),
      ];
      return {
        result: {
          fileBase64: await workbookBase64(columns, rows, `${h('title')} ${report.desde} – ${report.hasta}`),
          fileName: `${h('fileName')} ${report.desde} ${report.hasta}.xlsx`,
        },
      };
    },
  );

  fastify.get<{ Querystring: { documento: string } }>(
    `${BASE}/reportes/estadias`,
    {
      schema: {
        tags: ['hotel'],
        summary: 'A person’s stays in the session’s camps, by document',
        querystring: objectOf({ documento: field.text(20, { minLength: 4 }) }, ['documento']),
        response: result('the stays'),
      },
    },
    async (request) => ({ result: await board.personStays(await admin(request), request.query.documento) }),
  );
}
