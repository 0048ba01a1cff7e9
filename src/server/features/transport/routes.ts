import type { FastifyInstance, FastifyRequest } from 'fastify';
import { siteDate } from '../../../shared/dates.js';
import { BOARDING_REASONS, BOOKING_MAX } from '../../../shared/transport.js';
import { field, objectOf, resultResponses } from '../../routes/responses.js';
import { deviceAuth } from '../../services/site/device-call.js';
import { DeviceKeys } from '../../services/site/device-keys.js';
import { divisionCountry, divisionToday } from '../../site.js';
import { arrive, type BoardingMark, board, depart, signedManifest } from './boarding.js';
import { book, cancelBooking, cancelTrip, candidates, released } from './bookings.js';
import { tripDetail } from './detail.js';
import { dayTrips, liveBoard } from './live.js';
import { manifestPdf } from './manifest-pdf.js';
import { transportOffice } from './office.js';
import { confirm, propose } from './proposal.js';
import { transportReport, tripsWorkbook } from './report.js';
import { transportTables } from './tables.js';
import { makeTimetable, type Timetable } from './timetable.js';

const BASE = '/transporte';
const tags = ['transport'];
const result = (description: string) => resultResponses(description, [400, 401, 403, 404, 409]);
const date = { type: 'string', format: 'date', maxLength: 10 };
const hour = { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', maxLength: 5 };
const idParams = objectOf({ id: field.id() }, ['id']);
const dayQuery = objectOf({ fecha: date }, ['fecha']);
const period = objectOf({ desde: date, hasta: date }, ['desde', 'hasta']);
const people = { type: 'array', items: field.id(), minItems: 1, maxItems: BOOKING_MAX, uniqueItems: true };
const marks = {
  type: 'array',
  minItems: 1,
  maxItems: 500,
  items: objectOf(
    {
      IdMarca: field.text(36, { minLength: 8 }),
      Credencial: field.text(30, { minLength: 1 }),
      FechaHora: field.text(40, { format: 'date-time' }),
      Excepcion: field.text(300, { minLength: 3 }),
      Resultado: { type: 'string', enum: ['P', 'D'] },
      Motivo: { type: 'string', enum: [...BOARDING_REASONS] },
    },
    ['IdMarca', 'Credencial', 'FechaHora'],
  ),
};

/** What the module's calls share: the database, its tables, the clock, the caller's office and site day. */
function context(fastify: FastifyInstance) {
  const { db } = fastify.database;
  const t = transportTables(fastify.registry);
  const books = { db, t, registry: fastify.registry };
  const now = () => fastify.auth.now();
  const coordinator = (r: FastifyRequest) => transportOffice(r.principal, 'coordinator');
  const either = (r: FastifyRequest) => transportOffice(r.principal, 'either');
  const today = async (r: FastifyRequest) =>
    siteDate(await divisionCountry(db, fastify.registry, Number(r.principal.divisionId)), now());
  const at = async (r: FastifyRequest) => ({ now: now(), today: await today(r) });
  return { db, t, books, now, coordinator, either, at };
}

/** Trips and seats: a day's trips, a trip's passengers, who may be booked, booking and cancelling (both sides). */
async function seatRoutes(fastify: FastifyInstance): Promise<void> {
  const { db, t, books, either, at } = context(fastify);
  fastify.get<{ Querystring: { fecha: string } }>(
    `${BASE}/viajes`,
    {
      schema: {
        tags,
        summary: 'A day’s trips with their bus, driver and free seats',
        querystring: dayQuery,
        response: result('the trips'),
      },
    },
    async (r) => ({ result: await dayTrips(db, t, either(r), r.query.fecha) }),
  );
  fastify.get<{ Params: { id: number } }>(
    `${BASE}/viajes/:id`,
    {
      schema: {
        tags,
        summary: 'A trip with its passengers (a requester’s: its company’s)',
        params: idParams,
        response: result('the trip'),
      },
    },
    async (r) => ({ result: await tripDetail(db, t, either(r), r.params.id) }),
  );
  fastify.get<{ Querystring: { fecha: string; buscar?: string } }>(
    `${BASE}/candidatos`,
    {
      schema: {
        tags,
        summary:
          'People accredited in the division on a day (a requester’s: its company’s), by name or document',
        querystring: objectOf({ fecha: date, buscar: field.text(100) }, ['fecha']),
        response: result('the people'),
      },
    },
    async (r) => ({ result: await candidates(db, t, either(r), r.query.fecha, r.query.buscar) }),
  );
  fastify.post<{ Params: { id: number }; Body: { IdPersonas: number[] } }>(
    `${BASE}/viajes/:id/reservas`,
    {
      schema: {
        tags,
        summary: 'Books people on a trip, all or none (the seats held by the database)',
        params: idParams,
        body: objectOf({ IdPersonas: people }, ['IdPersonas']),
        response: result('{ trip, booked }'),
      },
    },
    async (r) => {
      const done = await book(books, either(r), r.params.id, r.body.IdPersonas, await at(r));
      return { result: { IdViaje: done.trip.IdViaje, reservados: done.booked } };
    },
  );
  fastify.delete<{ Params: { id: number } }>(
    `${BASE}/reservas/:id`,
    {
      schema: {
        tags,
        summary: 'Cancels a booking and frees its seat',
        params: idParams,
        response: result('the booking'),
      },
    },
    async (r) => ({ result: await cancelBooking(db, t, either(r), r.params.id, (await at(r)).today) }),
  );
  fastify.get<{ Params: { id: number } }>(
    `${BASE}/viajes/:id/manifiesto`,
    {
      schema: {
        tags,
        summary: 'The trip’s manifest (the legal passenger list) as a PDF',
        params: idParams,
        response: result('{ fileBase64, fileName }'),
      },
    },
    async (r) => {
      const pdf = await manifestPdf(db, t, either(r), r.params.id, r.language);
      return {
        result: {
          fileBase64: pdf.buffer.toString('base64'),
          fileName: `manifiesto-${pdf.trip.Fecha}-${pdf.trip.RutaCodigo}-${pdf.trip.IdViaje}.pdf`,
          fileType: 'application/pdf',
        },
      };
    },
  );
}

/** The coordinator's planning: timetables, a change day's manifests, the seats released. */
async function coordinatorRoutes(fastify: FastifyInstance): Promise<void> {
  const { db, t, books, now, coordinator, at } = context(fastify);
  fastify.post<{ Body: Timetable }>(
    `${BASE}/horarios`,
    {
      schema: {
        tags,
        summary: 'Makes a trip of a route on every change day of a roster in a period, all or none',
        body: objectOf(
          {
            IdTipoHorario: field.id(),
            FechaAncla: date,
            desde: date,
            hasta: date,
            IdRuta: field.id(),
            Hora: hour,
            Sentido: { type: 'string', enum: ['S', 'B'] },
            IdBus: field.id(),
            IdConductor: field.id(),
          },
          [
            'IdTipoHorario',
            'FechaAncla',
            'desde',
            'hasta',
            'IdRuta',
            'Hora',
            'Sentido',
            'IdBus',
            'IdConductor',
          ],
        ),
        response: result('{ viajes }'),
      },
    },
    async (r) => ({ result: await makeTimetable(books, fastify.registry, coordinator(r), r.body, now()) }),
  );
  fastify.get<{ Querystring: { fecha: string } }>(
    `${BASE}/propuesta`,
    {
      schema: {
        tags,
        summary: 'The manifests a change day proposes from the rosters and accreditations',
        querystring: dayQuery,
        response: result('{ viajes, sinAsiento }'),
      },
    },
    async (r) => ({ result: await propose(db, t, coordinator(r), r.query.fecha) }),
  );
  fastify.post<{ Body: { viajes: Array<{ IdViaje: number; IdPersonas: number[] }> } }>(
    `${BASE}/propuesta`,
    {
      schema: {
        tags,
        summary: 'Confirms a change day’s manifests: every trip’s people booked in one transaction',
        body: objectOf(
          {
            viajes: {
              type: 'array',
              minItems: 1,
              maxItems: 200,
              items: objectOf({ IdViaje: field.id(), IdPersonas: people }, ['IdViaje', 'IdPersonas']),
            },
          },
          ['viajes'],
        ),
        response: result('{ viajes, total }'),
      },
    },
    async (r) => ({ result: await confirm(books, coordinator(r), r.body.viajes, await at(r)) }),
  );
  fastify.get<{ Querystring: { desde: string; hasta: string } }>(
    `${BASE}/liberadas`,
    {
      schema: {
        tags,
        summary: 'Who lost a seat in a period, and why',
        querystring: period,
        response: result('the released seats'),
      },
    },
    async (r) => ({ result: await released(db, t, coordinator(r), r.query.desde, r.query.hasta) }),
  );
}

/** The coordinator's work on a trip: the door from the console, departure and arrival, cancelling, the signed manifest. */
async function tripRoutes(fastify: FastifyInstance): Promise<void> {
  const { db, t, now, coordinator } = context(fastify);
  fastify.post<{ Params: { id: number }; Body: { marcas: BoardingMark[] } }>(
    `${BASE}/viajes/:id/abordajes`,
    {
      schema: {
        tags,
        summary: 'Badges read at the door of the bus from the console, each once',
        params: idParams,
        body: objectOf({ marcas: marks }, ['marcas']),
        response: result('the decisions'),
      },
    },
    async (r) => ({
      result: await board(db, t, coordinator(r), r.params.id, r.body.marcas, r.principal.userId, now()),
    }),
  );
  for (const [path, act] of [
    ['salida', depart],
    ['llegada', arrive],
  ] as const)
    fastify.post<{ Params: { id: number } }>(
      `${BASE}/viajes/:id/${path}`,
      {
        schema: {
          tags,
          summary:
            path === 'salida' ? 'The trip departs: its no-shows settled and listed' : 'The trip arrived',
          params: idParams,
          response: result('the trip'),
        },
      },
      async (r) => ({ result: await act(db, t, coordinator(r), r.params.id, now()) }),
    );
  fastify.post<{ Params: { id: number } }>(
    `${BASE}/viajes/:id/cancelar`,
    {
      schema: {
        tags,
        summary: 'Cancels a trip not yet departed, releasing its seats',
        params: idParams,
        response: result('the trip'),
      },
    },
    async (r) => ({ result: await cancelTrip(db, t, coordinator(r), r.params.id) }),
  );
  fastify.get<{ Params: { id: number } }>(
    `${BASE}/viajes/:id/manifiesto-firmado`,
    {
      schema: {
        tags,
        summary: 'The trip’s manifest signed for the door of the bus',
        params: idParams,
        response: result('{ payload, signature }'),
      },
    },
    async (r) => ({ result: await signedManifest(db, t, coordinator(r), r.params.id, now()) }),
  );
}

/** The live board and the period's reports (the coordinator's). */
async function boardRoutes(fastify: FastifyInstance): Promise<void> {
  const { db, t, coordinator } = context(fastify);
  fastify.get<{ Querystring: { fecha: string } }>(
    `${BASE}/tablero`,
    {
      schema: {
        tags,
        summary: 'A day’s trips live, and who is on the road now',
        querystring: dayQuery,
        response: result('{ viajes, enRuta }'),
      },
    },
    async (r) => ({ result: await liveBoard(db, t, coordinator(r), r.query.fecha) }),
  );
  fastify.get<{ Querystring: { desde: string; hasta: string } }>(
    `${BASE}/reporte`,
    {
      schema: {
        tags,
        summary: 'Occupancy per route and seats used per day of a period',
        querystring: period,
        response: result('{ rutas, dias }'),
      },
    },
    async (r) => ({ result: await transportReport(db, t, coordinator(r), r.query.desde, r.query.hasta) }),
  );
  fastify.get<{ Querystring: { desde: string; hasta: string } }>(
    `${BASE}/reporte/excel`,
    {
      schema: {
        tags,
        summary: 'Every trip of a period as an Excel workbook',
        querystring: period,
        response: result('{ fileBase64, fileName }'),
      },
    },
    async (r) => ({
      result: await tripsWorkbook(db, t, coordinator(r), r.query.desde, r.query.hasta, r.language),
    }),
  );
}

/** The door of the bus: the gate app in bus mode, authenticated by its equipment's key. */
async function deviceRoutes(fastify: FastifyInstance): Promise<void> {
  const { db, t, now } = context(fastify);
  const { authenticate, keyFirst } = deviceAuth(new DeviceKeys(db));
  const site = async (r: FastifyRequest) => {
    const device = await authenticate(r);
    return { clientId: device.IdCliente, divisionId: device.IdDivision, device };
  };
  const device = { config: { public: true }, onRequest: keyFirst };
  fastify.get<{ Querystring: { fecha?: string } }>(
    `${BASE}/bus/viajes`,
    {
      ...device,
      schema: {
        tags,
        summary:
          'Authorization: Device <key>. A day’s trips of the device’s division (the site’s today unless asked)',
        querystring: objectOf({ fecha: date }),
        response: resultResponses('the trips', [400, 401]),
      },
    },
    async (r) => {
      const where = await site(r);
      const day = r.query.fecha ?? (await divisionToday(db, fastify.registry, where.divisionId, now()));
      return { result: await dayTrips(db, t, where, day) };
    },
  );
  fastify.get<{ Params: { id: number } }>(
    `${BASE}/bus/viajes/:id/manifiesto`,
    {
      ...device,
      schema: {
        tags,
        summary: 'Authorization: Device <key>. The trip’s signed manifest',
        params: idParams,
        response: resultResponses('{ payload, signature }', [400, 401, 404]),
      },
    },
    async (r) => ({ result: await signedManifest(db, t, await site(r), r.params.id, now()) }),
  );
  fastify.post<{ Params: { id: number }; Body: { marcas: BoardingMark[] } }>(
    `${BASE}/bus/viajes/:id/abordajes`,
    {
      ...device,
      schema: {
        tags,
        summary: 'Authorization: Device <key>. What the door decided offline, each reading once',
        params: idParams,
        body: objectOf({ marcas: marks }, ['marcas']),
        response: resultResponses('the readings', [400, 401, 404, 409]),
      },
    },
    async (r) => {
      const where = await site(r);
      return {
        result: await board(db, t, where, r.params.id, r.body.marcas, `EQ${where.device.IdEquipo}`, now()),
      };
    },
  );
}

/**
 * The Transport module's calls: seats (both sides), the coordinator's trips, timetables, manifests,
 * boarding, departure and arrival, the live board and reports, and the bus door's device calls.
 */
export default async function transportRoutes(fastify: FastifyInstance): Promise<void> {
  await seatRoutes(fastify);
  await coordinatorRoutes(fastify);
  await tripRoutes(fastify);
  await boardRoutes(fastify);
  await deviceRoutes(fastify);
}
