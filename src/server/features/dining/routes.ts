import type { FastifyInstance, FastifyRequest } from 'fastify';
import { verifyToken } from '../../../shared/badge-token.js';
import { addDays, siteDate } from '../../../shared/dates.js';
import {
  capacityOf,
  latestSittingDay,
  type MealDecision,
  type MealPresented,
  serviceDay,
  sittingAt,
} from '../../../shared/dining.js';
import { writeAudit } from '../../crud/audit.js';
import { ttlCache } from '../../db/ttl-cache.js';
import { ApiError } from '../../errors.js';
import { t } from '../../i18n.js';
import { field, objectOf, resultResponses } from '../../routes/responses.js';
import { correctedTime, deviceAuth, withinBudget } from '../../services/site/device-call.js';
import { type Device, DeviceKeys } from '../../services/site/device-keys.js';
import { signingKeys } from '../../services/site/signing-keys.js';
import {
  DINING_SITE_CACHE_MS,
  type DiningTables,
  diningSiteCache,
  diningTables,
  type LoadedRoom,
  loadDiner,
  loadDiningSite,
  loadRoom,
  roomsOfEquipment,
} from './loader.js';
import {
  type MealLoaded,
  type MealPresentation,
  type MealRecorded,
  mealWriter,
  recordMeal,
} from './meals.js';
import { anyDiningOffice, DINING_ROUTES, type DiningOffice, diningOffice } from './office.js';
import { roomDay } from './report.js';
import { type Counted, countMeal } from './tables.js';

/** Most presentations in one batch of a reader; more is 413. */
export const MEAL_BATCH_MAX = 1000;

interface Presentable {
  IdComedor?: number;
  Credencial?: string;
  Documento?: string;
  FechaHora?: string;
  IdMarca?: string;
}
interface BatchItem extends Presentable {
  Resultado?: 'P' | 'D';
}
const presentable = {
  IdComedor: field.id(),
  Credencial: field.text(400, { minLength: 1 }),
  Documento: field.text(20, { minLength: 1 }),
  FechaHora: field.text(40, { format: 'date-time' }),
  IdMarca: field.text(64, { minLength: 1 }),
};
const date = { type: 'string', format: 'date', maxLength: 10 };
const result = (description: string) => resultResponses(description, [400, 401, 403, 404, 409]);

function presentedOf(item: Presentable, where: string): MealPresented {
  const given = [item.Credencial, item.Documento].filter((v) => v != null).length;
  if (given !== 1)
    throw new ApiError('BAD_REQUEST', { messageKey: 'dining.onePresented', params: { item: where } });
  if (item.Credencial != null) return { kind: 'credential', Numero: item.Credencial.trim() };
  return { kind: 'document', Documento: String(item.Documento).trim().toUpperCase() };
}

/**
 * Dining halls (spec section 2 Dining): the readers' calls (a dining room's equipment, by its device
 * key, as the gate's), the supervisor's live management with meals by hand and voids, and the
 * consumption report with its Excel export.
 */
export default async function diningRoutes(fastify: FastifyInstance): Promise<void> {
  const { db } = fastify.database;
  const tables: DiningTables = diningTables(fastify.registry);
  const now = () => fastify.auth.now();
  const siteOf = diningSiteCache(db, tables, now);
  const writer = mealWriter(db, tables);
  const { authenticate, keyFirst } = deviceAuth(new DeviceKeys(db));
  let verifier: Promise<CryptoKey> | undefined;
  const publicKey = () => {
    verifier ??= signingKeys(db).then((k) => k.verifier);
    verifier.catch(() => {
      verifier = undefined;
    });
    return verifier;
  };

  /** The rooms each reader serves, kept as the rooms' configuration is. */
  const readerRooms = ttlCache(
    (equipmentId: number) => roomsOfEquipment(db, tables, equipmentId),
    DINING_SITE_CACHE_MS,
    now,
  );
  /** The room a reader serves: the one it names (its equipment must be the room's reader), or its only one. */
  const roomOfDevice = async (device: Device, roomId: number | undefined, item: string) => {
    const rooms = await readerRooms(device.IdEquipo);
    if (roomId === undefined && rooms.length > 1)
      throw new ApiError('BAD_REQUEST', { messageKey: 'dining.roomRequired', params: { item } });
    const room =
      roomId === undefined
        ? rooms.length === 1
          ? rooms[0]
          : undefined
        : rooms.find((r) => r.IdComedor === roomId);
    if (!room || room.IdCliente !== device.IdCliente || room.IdDivision !== device.IdDivision)
      throw new ApiError('BAD_REQUEST', { messageKey: 'dining.roomNotOfDevice', params: { item } });
    return room;
  };

  /** A badge's token read back to its card's number, or the reason it is refused. */
  const cardOf = async (
    presented: MealPresented,
    room: LoadedRoom,
  ): Promise<{ presented: MealPresented; refusedToken?: MealPresentation['refusedToken'] }> => {
    if (presented.kind !== 'credential' || !presented.Numero.startsWith('AC1.')) return { presented };
    const checked = await verifyToken(presented.Numero, await publicKey());
    if (!checked.ok) return { presented, refusedToken: checked.problem };
    if (checked.claims.IdCliente !== room.IdCliente) return { presented, refusedToken: 'TOKEN_OTHER_CLIENT' };
    return { presented: { kind: 'credential', Numero: checked.claims.Numero, Hasta: checked.claims.Hasta } };
  };

  const load = (room: LoadedRoom, presented: MealPresented): Promise<MealLoaded> =>
    loadDiner(db, tables, room.IdCliente, room.IdDivision, presented);

  const answer = (recorded: MealRecorded, language: FastifyRequest['language']) => ({
    allow: recorded.result === 'P',
    reason: recorded.decision.reason,
    messageKey: recorded.decision.messageKey,
    message: t(language, recorded.decision.messageKey, recorded.decision.params),
    ...(recorded.decision.params && { params: recorded.decision.params }),
    ...(recorded.result !== (recorded.decision.allow ? 'P' : 'D') && {
      serverAllow: recorded.decision.allow,
    }),
    IdConsumo: recorded.IdConsumo ?? null,
    duplicate: recorded.duplicate,
    servicio: recorded.decision.sitting
      ? {
          IdServicio: recorded.decision.sitting.service.IdServicio,
          Descripcion: recorded.decision.sitting.service.Descripcion,
          Fecha: recorded.decision.sitting.day,
        }
      : null,
    consumos: recorded.used !== undefined ? { usados: recorded.used, maximo: recorded.max } : null,
    persona: recorded.card ?? null,
  });

  fastify.post<{ Body: Presentable }>(
    '/comedor/decidir',
    {
      config: { public: true },
      onRequest: keyFirst,
      schema: {
        tags: ['dining'],
        summary: 'A dining reader asks whether what was presented may eat now; the consumption is written',
        description:
          "Authorization: Device <key> of the dining room's equipment (its reader). Exactly one of Credencial " +
          "(a card's number, or a badge's QR token AC1.…) and Documento; IdComedor when the equipment reads for " +
          'several rooms. The answer comes once the consumption (served or refused, with its reason) is ' +
          'committed; when the database does not answer within the budget the reader is told to refuse ' +
          '(SYSTEM_UNAVAILABLE). A resent IdMarca gets its stored answer.',
        body: { type: 'object', properties: presentable, additionalProperties: false },
        response: resultResponses(
          '{ allow, reason, message, IdConsumo, servicio, consumos, persona, duplicate }',
          [400, 401],
        ),
      },
    },
    async (request) => {
      const received = now();
      const body = request.body;
      const presented = presentedOf(body, '0');
      let timedOut = false;
      const work = (async () => {
        const device = await authenticate(request);
        const room = await roomOfDevice(device, body.IdComedor, '0');
        const clock = correctedTime(device, body.FechaHora, received);
        const card = await cardOf(presented, room);
        const [loaded, site] = await Promise.all([load(room, card.presented), siteOf(room.IdComedor)]);
        const p: MealPresentation = {
          room,
          presented: card.presented,
          refusedToken: card.refusedToken,
          at: new Date(received),
          deviceAt: clock.deviceAt,
          deviceMarkId: body.IdMarca,
          doubtful: clock.doubtful,
          online: true,
          origin: 'E',
          equipmentId: device.IdEquipo,
          userId: `EQUIPO:${device.IdEquipo}`,
        };
        return writer.record({ p, loaded, site, abort: () => timedOut });
      })();
      const outcome = await withinBudget(
        work,
        fastify.gateDecisionBudgetMs,
        () => {
          timedOut = true;
        },
        request.log,
      );
      if (outcome) return { result: answer(outcome, request.language) };
      const messageKey = 'gate.unavailable';
      return {
        result: {
          allow: false,
          reason: 'SYSTEM_UNAVAILABLE',
          messageKey,
          message: t(request.language, messageKey),
          IdConsumo: null,
          duplicate: false,
          servicio: null,
          consumos: null,
          persona: null,
        },
      };
    },
  );

  fastify.get(
    '/comedor/lector',
    {
      config: { public: true },
      onRequest: keyFirst,
      schema: {
        tags: ['dining'],
        summary: 'A dining reader asks which rooms it serves, with their services',
        description:
          "Authorization: Device <key>. The rooms whose reader is the key's equipment, each with its time zone " +
          'and active services (order, hours, consumption number): what the gate app needs to tell the sitting ' +
          'of a badge read while it has no network. An equipment that reads for no room: an empty list.',
        response: resultResponses('{ rooms: [{ IdComedor, Descripcion, zonaHoraria, servicios }] }', [401]),
      },
    },
    async (request) => {
      const device = await authenticate(request);
      const rooms = (await readerRooms(device.IdEquipo)).filter(
        (r) => r.IdCliente === device.IdCliente && r.IdDivision === device.IdDivision,
      );
      const served = await Promise.all(
        rooms.map(async (room) => {
          const site = await siteOf(room.IdComedor);
          return {
            IdComedor: room.IdComedor,
            Descripcion: room.Descripcion,
            IdCliente: room.IdCliente,
            IdDivision: room.IdDivision,
            zonaHoraria: room.timeZone,
            activo: site.room.Activo === 'S',
            servicios: site.services
              .filter((s) => s.Activo === 'S')
              .map(({ IdServicio, Descripcion, Orden, HoraInicio, HoraFin, NumeroConsumos, Activo }) => ({
                IdServicio,
                Descripcion,
                Orden,
                HoraInicio,
                HoraFin,
                NumeroConsumos,
                Activo,
              })),
          };
        }),
      );
      return { result: { rooms: served } };
    },
  );

  fastify.post<{ Body: { Marcas?: BatchItem[] } }>(
    '/comedor/marcaciones',
    {
      config: { public: true },
      onRequest: keyFirst,
      bodyLimit: 512 * 1024,
      schema: {
        tags: ['dining'],
        summary: 'A dining reader sends the presentations it buffered offline',
        description:
          "Authorization: Device <key>. Each carries the reader's own id (IdMarca): one already received is " +
          "answered as stored, so a resent batch adds nothing. Times are the reader's clock corrected by the " +
          'equipment’s difference (implausible ones kept and flagged). Resultado is what the reader did ' +
          'offline: a meal it served is recorded as served (and costed) even where the server would refuse, ' +
          `with the server's reason. More than ${MEAL_BATCH_MAX} or 512 KB: 413; any malformed one: 400 and ` +
          'nothing of the batch is kept.',
        body: {
          type: 'object',
          properties: {
            Marcas: {
              type: 'array',
              items: {
                type: 'object',
                properties: { ...presentable, Resultado: { type: 'string', enum: ['P', 'D'] } },
                required: ['IdMarca', 'FechaHora'],
                additionalProperties: false,
              },
            },
          },
          required: ['Marcas'],
          additionalProperties: false,
        },
        response: resultResponses('{ received, added, duplicates, doubtful, consumos }', [400, 401, 413]),
      },
    },
    async (request) => {
      const received = now();
      const items = request.body.Marcas ?? [];
      if (items.length > MEAL_BATCH_MAX)
        throw new ApiError('PAYLOAD_TOO_LARGE', { params: { limit: MEAL_BATCH_MAX } });
      const device = await authenticate(request);
      const seen = new Set<string>();
      const rooms = new Map<number | undefined, LoadedRoom>();
      const prepared: MealPresentation[] = [];
      for (const [index, item] of items.entries()) {
        const where = String(index);
        const presented = presentedOf(item, where);
        const id = String(item.IdMarca);
        if (seen.has(id))
          throw new ApiError('BAD_REQUEST', { messageKey: 'gate.repeatedMark', params: { item: where } });
        seen.add(id);
        let room = rooms.get(item.IdComedor);
        if (!room) {
          room = await roomOfDevice(device, item.IdComedor, where);
          rooms.set(item.IdComedor, room);
        }
        const clock = correctedTime(device, item.FechaHora, received);
        if (Number.isNaN(clock.at.getTime()))
          throw new ApiError('BAD_REQUEST', { messageKey: 'gate.badTime', params: { item: where } });
        const card = await cardOf(presented, room);
        prepared.push({
          room,
          presented: card.presented,
          refusedToken: card.refusedToken,
          at: clock.at,
          deviceAt: clock.deviceAt,
          deviceMarkId: id,
          doubtful: clock.doubtful,
          online: false,
          deviceResult: item.Resultado,
          origin: 'E',
          equipmentId: device.IdEquipo,
          userId: `EQUIPO:${device.IdEquipo}`,
        });
      }
      // Oldest first, whatever order they came in: a person's first meal of a sitting is the one served.
      prepared.sort((a, b) => a.at.getTime() - b.at.getTime());
      const sites = new Map<number, Awaited<ReturnType<typeof siteOf>>>();
      for (const p of prepared)
        if (!sites.has(p.room.IdComedor)) sites.set(p.room.IdComedor, await siteOf(p.room.IdComedor));
      const results = await db.transaction().execute(async (trx) => {
        const people = new Map<string, Promise<MealLoaded>>();
        const out: MealRecorded[] = [];
        for (const p of prepared) {
          const key = `${p.room.IdDivision}:${JSON.stringify(p.presented)}`;
          let loading = people.get(key);
          if (!loading) {
            loading = loadDiner(trx, tables, p.room.IdCliente, p.room.IdDivision, p.presented);
            people.set(key, loading);
          }
          const site = sites.get(p.room.IdComedor);
          if (!site) throw new Error('room not loaded');
          out.push(await recordMeal(trx, tables, p, await loading, site));
        }
        return out;
      });
      return {
        result: {
          received: items.length,
          added: results.filter((r) => !r.duplicate).length,
          duplicates: results.filter((r) => r.duplicate).length,
          doubtful: prepared.filter((p, i) => p.doubtful && !results[i].duplicate).length,
          consumos: prepared.map((p, i) => ({
            IdMarca: p.deviceMarkId,
            doubtful: p.doubtful,
            Resultado: results[i].result,
            ...answer(results[i], request.language),
          })),
        },
      };
    },
  );

  // ---- The console's calls ----

  const today = (office: DiningOffice) => siteDate(countryOf(office), now());
  const countries = new Map<number, string | null>();
  const countryOf = (office: DiningOffice) => countries.get(office.divisionId) ?? null;
  const officeOf = async (request: FastifyRequest, route?: string) => {
    const office = route ? diningOffice(request.principal, route) : anyDiningOffice(request.principal);
    if (!countries.has(office.divisionId)) {
      const row = await db
        .selectFrom(tables.division)
        .select('IdPais')
        .where('IdDivision', '=', office.divisionId)
        .executeTakeFirst();
      countries.set(office.divisionId, (row?.IdPais as string | null) ?? null);
    }
    return office;
  };
  /** A room of the office's division, else 404. */
  const roomOf = async (office: DiningOffice, roomId: number) => {
    const room = await loadRoom(db, tables, roomId);
    if (!room || room.IdCliente !== office.clientId || room.IdDivision !== office.divisionId)
      throw new ApiError('NOT_FOUND');
    return room;
  };

  fastify.get(
    '/comedor/comedores',
    {
      schema: {
        tags: ['dining'],
        summary: "The division's dining rooms with their services",
        response: result('{ hoy, comedores: [{ IdComedor, Descripcion, Activo, servicios }] }'),
      },
    },
    async (request) => {
      const office = await officeOf(request);
      const rooms = await db
        .selectFrom(tables.room)
        .select(['IdComedor', 'Descripcion', 'Activo'])
        .where('IdCliente', '=', office.clientId)
        .where('IdDivision', '=', office.divisionId)
        .orderBy('Descripcion')
        .execute();
      const services = await db
        .selectFrom(tables.service)
        .select([
          'IdServicio',
          'IdComedor',
          'Descripcion',
          'Orden',
          'HoraInicio',
          'HoraFin',
          'Costo',
          'Activo',
        ])
        .where('IdCliente', '=', office.clientId)
        .where('IdDivision', '=', office.divisionId)
        .orderBy('Orden')
        .execute();
      return {
        result: {
          hoy: today(office),
          comedores: rooms.map((r) => ({
            IdComedor: Number(r.IdComedor),
            Descripcion: String(r.Descripcion),
            Activo: r.Activo,
            servicios: services
              .filter((s) => Number(s.IdComedor) === Number(r.IdComedor))
              .map((s) => ({
                IdServicio: Number(s.IdServicio),
                Descripcion: String(s.Descripcion),
                HoraInicio: s.HoraInicio,
                HoraFin: s.HoraFin,
                Costo: Number(s.Costo),
                Activo: s.Activo,
              })),
          })),
        },
      };
    },
  );

  fastify.get<{ Querystring: { IdComedor: number; Fecha?: string } }>(
    '/comedor/gestion',
    {
      schema: {
        tags: ['dining'],
        summary:
          "A dining room's sittings of a day, live: served, capacity, refused by reason, the last meals",
        querystring: objectOf({ IdComedor: field.id(), Fecha: date }, ['IdComedor']),
        response: result('{ comedor, fecha, capacidad, servicios, ultimos }'),
      },
    },
    async (request) => {
      const office = await officeOf(request, DINING_ROUTES.management);
      const room = await roomOf(office, Number(request.query.IdComedor));
      const site = await loadDiningSite(db, tables, room.IdComedor);
      const day = request.query.Fecha ?? serviceDay(site.services, new Date(now()), room.timeZone);
      const { byService, ultimos } = await roomDay(db, tables, office, room.IdComedor, day, request.language);
      const open = sittingAt(site.services, new Date(now()), room.timeZone);
      const capacity = capacityOf(site) ?? null;
      const empty = { servidos: 0, anulados: 0, rechazos: {} };
      return {
        result: {
          comedor: { IdComedor: room.IdComedor, Descripcion: room.Descripcion, Activo: site.room.Activo },
          fecha: day,
          capacidad: capacity,
          servicios: site.services
            .filter((s) => s.Activo === 'S')
            .sort((a, b) => a.Orden - b.Orden)
            .map((s) => ({
              IdServicio: s.IdServicio,
              Descripcion: s.Descripcion,
              HoraInicio: s.HoraInicio,
              HoraFin: s.HoraFin,
              Costo: s.Costo,
              NumeroConsumos: s.NumeroConsumos,
              abierto: open?.service.IdServicio === s.IdServicio && open.day === day,
              ...(byService.get(s.IdServicio) ?? empty),
            })),
          // Refusals outside every service (nothing open at the reader's time).
          sinServicio: byService.get(null) ?? empty,
          ultimos,
        },
      };
    },
  );

  fastify.post<{
    Body: {
      IdComedor: number;
      IdServicio: number;
      Fecha?: string;
      IdPersona?: number;
      Documento?: string;
      Observacion: string;
    };
  }>(
    '/comedor/consumos',
    {
      schema: {
        tags: ['dining'],
        summary: 'A supervisor registers a meal by hand (a reader was down), with an observation',
        description:
          "The reader's rules, but the service and its day are named instead of read from the clock and the " +
          "group's hours are not checked; a refusal is 409 with the reason, and nothing is stored.",
        body: objectOf(
          {
            IdComedor: field.id(),
            IdServicio: field.id(),
            Fecha: date,
            IdPersona: field.id(),
            Documento: field.text(20, { minLength: 1 }),
            Observacion: field.text(500, { minLength: 3 }),
          },
          ['IdComedor', 'IdServicio', 'Observacion'],
        ),
        response: result('{ IdConsumo, servicio, consumos, persona }'),
      },
    },
    async (request) => {
      const office = await officeOf(request, DINING_ROUTES.management);
      const body = request.body;
      const room = await roomOf(office, body.IdComedor);
      const site = await loadDiningSite(db, tables, room.IdComedor);
      const service = site.services.find((s) => s.IdServicio === body.IdServicio);
      if (!service) throw new ApiError('NOT_FOUND', { messageKey: 'dining.serviceUnknown' });
      const day = body.Fecha ?? latestSittingDay(service, new Date(now()), room.timeZone);
      if (day > today(office) || day < addDays(today(office), -7))
        throw new ApiError('VALIDATION_FAILED', { fields: { Fecha: { messageKey: 'dining.manualDay' } } });
      if ((body.IdPersona === undefined) === (body.Documento === undefined))
        throw new ApiError('BAD_REQUEST', { messageKey: 'dining.onePresented', params: { item: '0' } });
      const presented = body.Documento
        ? ({ kind: 'document', Documento: body.Documento.trim().toUpperCase() } as const)
        : undefined;
      const loaded = await loadDiner(
        db,
        tables,
        room.IdCliente,
        room.IdDivision,
        presented ?? { kind: 'person', IdPersona: Number(body.IdPersona) },
      );
      if (!loaded.diner) throw new ApiError('NOT_FOUND', { messageKey: 'dining.personUnknown' });
      const p: MealPresentation = {
        room,
        presented: presented ?? { kind: 'document', Documento: loaded.card?.Documento ?? '' },
        at: new Date(now()),
        doubtful: false,
        online: true,
        origin: 'M',
        userId: office.userId,
        manual: { IdServicio: body.IdServicio, day, observation: body.Observacion.trim().toUpperCase() },
      };
      // Refused: nothing is stored (the transaction rolls back), the supervisor reads why.
      const refused = new Error('refused');
      let decision: MealDecision | undefined;
      const recorded = await db
        .transaction()
        .execute(async (trx) => {
          const one = await recordMeal(trx, tables, p, loaded, site);
          if (one.result !== 'P') {
            decision = one.decision;
            throw refused;
          }
          return one;
        })
        .catch((error: unknown) => {
          if (error === refused && decision)
            throw new ApiError('CONFLICT', { messageKey: decision.messageKey, params: decision.params });
          throw error;
        });
      return { result: answer(recorded, request.language) };
    },
  );

  fastify.post<{ Params: { id: string }; Body: { Motivo: string } }>(
    '/comedor/consumos/:id/anular',
    {
      schema: {
        tags: ['dining'],
        summary: 'Void a meal served by mistake, with the reason (audited); its place is given back',
        params: objectOf({ id: field.id() }, ['id']),
        body: objectOf({ Motivo: field.text(300, { minLength: 3 }) }, ['Motivo']),
        response: result('{ IdConsumo, Anulado }'),
      },
    },
    async (request) => {
      const office = await officeOf(request, DINING_ROUTES.management);
      const id = Number(request.params.id);
      const entity = fastify.registry.require('consumption');
      return db.transaction().execute(async (trx) => {
        const before = await trx
          .selectFrom(tables.consumption)
          .selectAll()
          .where('IdConsumo', '=', id)
          .where('IdCliente', '=', office.clientId)
          .where('IdDivision', '=', office.divisionId)
          .executeTakeFirst();
        if (!before) throw new ApiError('NOT_FOUND');
        if (before.Resultado !== 'P') throw new ApiError('CONFLICT', { messageKey: 'dining.voidRefusal' });
        const change = {
          Anulado: 'S',
          Ranura: null,
          MotivoAnulacion: request.body.Motivo.trim().toUpperCase(),
          IdUsuarioAnulacion: office.userId,
          FechaAnulacion: new Date(now()).toISOString(),
          IdUsuarioModificacion: office.userId,
          FechaModificacion: new Date().toISOString(),
        };
        // Only a meal not voided yet: two supervisors voiding it at once void it once.
        const updated = await trx
          .updateTable(tables.consumption)
          .set(change)
          .where('IdConsumo', '=', id)
          .where('Anulado', '=', 'N')
          .executeTakeFirst();
        if (!Number(updated.numUpdatedRows))
          throw new ApiError('CONFLICT', { messageKey: 'dining.alreadyVoided' });
        await countMeal(trx, before as unknown as Counted, -1);
        await writeAudit(
          trx,
          fastify.registry,
          entity,
          'U',
          request.principal,
          id,
          before,
          { ...before, ...change },
          true,
        );
        return { result: { IdConsumo: id, Anulado: 'S' } };
      });
    },
  );
}
