import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Decision, Presented } from '../../../shared/access/decision.js';
import { presentedByReading } from '../../../shared/access/reading.js';
import { ApiError } from '../../errors.js';
import { t } from '../../i18n.js';
import { requireGrant } from '../../routes/guards.js';
import { field, INT32, objectOf, resultResponses } from '../../routes/responses.js';
import { correctedTime, deviceAuth, withinBudget } from '../../services/site/device-call.js';
import { type Device, DeviceKeys } from '../../services/site/device-keys.js';
import type { loadSite } from '../../services/site/loader.js';
import { signingKeys } from '../../services/site/signing-keys.js';
import { allowList } from './allow-list.js';
import { Enrolment } from './enrolment.js';
import {
  decideAndRecord,
  decisionWriterOf,
  doorCache,
  doorsOfDevice,
  type Presentation,
  recordBatch,
  siteCache,
} from './gate.js';

const gzipAsync = promisify(gzip);

/** Most markings in one batch; more is 413. */
export const BATCH_MAX = 1000;

interface Presentable {
  IdPuerta?: number;
  Funcion?: 'E' | 'S';
  Credencial?: string;
  Documento?: string;
  Placa?: string;
  /** The device's raw read, turned into a credential, document or plate by its reading configuration. */
  Lectura?: string;
  /** With a vehicle: its driver's card number or document. */
  Conductor?: string;
  FechaHora?: string;
  IdMarca?: string;
}
interface BatchItem extends Presentable {
  Resultado?: 'P' | 'D';
}

const presentable = {
  IdPuerta: field.id(),
  Funcion: { type: 'string', enum: ['E', 'S'] },
  Credencial: field.text(50, { minLength: 1 }),
  Documento: field.text(20, { minLength: 1 }),
  Placa: field.text(10, { minLength: 1 }),
  Lectura: field.text(500, { minLength: 1 }),
  Conductor: field.text(50, { minLength: 1 }),
  FechaHora: field.text(40, { format: 'date-time' }),
  IdMarca: field.text(64, { minLength: 1 }),
};

/** Exactly one thing presented: a credential, a document, a plate or the device's raw read. */
function checkOnePresented(item: Presentable, where: string): void {
  const given = [item.Credencial, item.Documento, item.Placa, item.Lectura].filter((v) => v != null).length;
  if (given !== 1)
    throw new ApiError('BAD_REQUEST', { messageKey: 'gate.onePresented', params: { item: where } });
}

/** What was presented; a raw read as the device's reading configuration says (none: refused). */
function presentedOf(item: Presentable, where: string, device: Device): Presented {
  checkOnePresented(item, where);
  if (item.Lectura != null) {
    if (!device.reading) throw new ApiError('BAD_REQUEST', { messageKey: 'gate.noReadingConfiguration' });
    const presented = presentedByReading(item.Lectura, device.reading);
    if (!presented)
      throw new ApiError('BAD_REQUEST', { messageKey: 'gate.readingEmpty', params: { item: where } });
    return presented;
  }
  if (item.Credencial != null) return { kind: 'credential', Numero: item.Credencial.trim() };
  if (item.Documento != null) return { kind: 'document', Documento: item.Documento.trim().toUpperCase() };
  return { kind: 'plate', Placa: String(item.Placa).trim().toUpperCase() };
}

const answer = (decision: Decision, language: FastifyRequest['language']) => ({
  allow: decision.allow,
  reason: decision.reason,
  messageKey: decision.messageKey,
  message: t(language, decision.messageKey, decision.params),
  ...(decision.params && { params: decision.params }),
  ...(decision.lenientExit && { lenientExit: true }),
});

/**
 * The device calls (spec: access control points): `POST /api/acceso/decidir` for one presentation,
 * `POST /api/acceso/marcaciones` for what a device buffered offline, both authenticated by the
 * equipment's key (`Authorization: Device <key>`), and the calls that issue and revoke those keys from
 * the equipment's screen.
 */
export default async function deviceRoutes(fastify: FastifyInstance): Promise<void> {
  const db = fastify.database.db;
  const keys = new DeviceKeys(db);
  const { qualifications } = fastify;
  const siteOf = siteCache(db, qualifications);
  const doorOf = doorCache(db);
  const writer = decisionWriterOf(db, fastify.database.dialect === 'postgres' ? 4 : 1);
  fastify.decorate('deviceKeys', keys);
  const enrolment = new Enrolment(db, keys);

  const { authenticate, keyFirst } = deviceAuth(keys);

  fastify.post<{ Body: Presentable }>(
    '/acceso/decidir',
    {
      config: { public: true },
      onRequest: keyFirst,
      schema: {
        tags: ['access'],
        summary: 'A device asks whether what was presented at a door may pass; the marking is written',
        description:
          'Authorization: Device <key>. Exactly one of Credencial, Documento, Placa, or Lectura (the raw read, which the equipment’s reading configuration cuts and names); with a vehicle, Conductor: its driver’s card number or document (a vehicle whose type needs an internal licence enters only with a driver who holds one). The answer comes once the ' +
          'marking is committed; when the database does not answer within the budget (200 ms unless ' +
          'GATE_DECISION_BUDGET_MS says otherwise) the gate is told to deny ' +
          '(reason SYSTEM_UNAVAILABLE). An unknown key is 401.',
        body: {
          type: 'object',
          properties: presentable,
          required: ['IdPuerta'],
          additionalProperties: false,
        },
        response: resultResponses(
          '{ allow, reason, messageKey, message, direction, IdMarcacion }',
          [400, 401],
        ),
      },
    },
    async (request) => {
      const received = Date.now();
      const body = request.body;
      checkOnePresented(body, '0');
      let timedOut = false;
      const work = (async () => {
        const device = await authenticate(request);
        const presented = presentedOf(body, '0', device);
        const found = await doorOf(device, Number(body.IdPuerta));
        if (!found) throw new ApiError('BAD_REQUEST', { messageKey: 'gate.doorNotOfDevice' });
        const clock = correctedTime(device, body.FechaHora, received);
        const presentation: Presentation = {
          ...found,
          presented,
          ...(body.Conductor && { driver: body.Conductor.trim() }),
          direction: body.Funcion,
          at: new Date(received),
          deviceAt: clock.deviceAt,
          deviceMarkId: body.IdMarca,
          doubtful: clock.doubtful,
          online: true,
        };
        return decideAndRecord(db, device, presentation, () => timedOut, siteOf, qualifications, writer);
      })();
      const outcome = await withinBudget(
        work,
        fastify.gateDecisionBudgetMs,
        () => {
          timedOut = true;
        },
        request.log,
      );
      if (outcome) {
        if (!outcome.duplicate && outcome.result === 'P') fastify.markingsWritten.fire();
        return {
          result: {
            ...answer(outcome.decision, request.language),
            direction: outcome.direction,
            IdMarcacion: outcome.IdMarcacion ?? null,
            duplicate: outcome.duplicate,
          },
        };
      }
      const messageKey = 'gate.unavailable';
      return {
        result: {
          allow: false,
          reason: 'SYSTEM_UNAVAILABLE',
          messageKey,
          message: t(request.language, messageKey),
          direction: body.Funcion ?? null,
          IdMarcacion: null,
          duplicate: false,
        },
      };
    },
  );

  fastify.post<{ Body: { Marcas?: BatchItem[] } }>(
    '/acceso/marcaciones',
    {
      config: { public: true },
      onRequest: keyFirst,
      bodyLimit: 512 * 1024,
      schema: {
        tags: ['access'],
        summary: 'A device sends the markings it buffered offline',
        description:
          "Authorization: Device <key>. Each marking carries the device's own id (IdMarca: a sequence number or " +
          "UUID): one already received is skipped, so a resent batch adds nothing. Times are the device's clock, " +
          "corrected by the equipment's time difference; implausible ones are kept and flagged (HoraDudosa). " +
          `Funcion is inferred per zone when missing. More than ${BATCH_MAX} markings or 512 KB: 413; any ` +
          'malformed marking: 400 and nothing of the batch is kept.',
        body: {
          type: 'object',
          properties: {
            Marcas: {
              type: 'array',
              items: {
                type: 'object',
                properties: { ...presentable, Resultado: { type: 'string', enum: ['P', 'D'] } },
                required: ['IdPuerta', 'IdMarca', 'FechaHora'],
                additionalProperties: false,
              },
            },
          },
          required: ['Marcas'],
          additionalProperties: false,
        },
        response: resultResponses('{ received, added, duplicates, doubtful, markings }', [400, 401, 413]),
      },
    },
    async (request) => {
      const received = Date.now();
      const items = request.body.Marcas ?? [];
      if (items.length > BATCH_MAX) throw new ApiError('PAYLOAD_TOO_LARGE', { params: { limit: BATCH_MAX } });
      const device = await authenticate(request);
      const seen = new Set<string>();
      // The batch's doors, read at once: the device's own among them.
      const doors = await doorsOfDevice(
        db,
        device,
        items.map((item) => Number(item.IdPuerta)),
      );
      const prepared: Presentation[] = [];
      for (const [index, item] of items.entries()) {
        const presented = presentedOf(item, String(index), device);
        const id = String(item.IdMarca);
        if (seen.has(id))
          throw new ApiError('BAD_REQUEST', {
            messageKey: 'gate.repeatedMark',
            params: { item: String(index) },
          });
        seen.add(id);
        const found = doors.get(Number(item.IdPuerta));
        if (!found)
          throw new ApiError('BAD_REQUEST', {
            messageKey: 'gate.doorNotOfDevice',
            params: { item: String(index) },
          });
        const clock = correctedTime(device, item.FechaHora, received);
        if (Number.isNaN(clock.at.getTime()))
          throw new ApiError('BAD_REQUEST', { messageKey: 'gate.badTime', params: { item: String(index) } });
        prepared.push({
          ...found,
          presented,
          ...(item.Conductor && { driver: item.Conductor.trim() }),
          direction: item.Funcion,
          at: clock.at,
          deviceAt: clock.deviceAt,
          deviceMarkId: id,
          doubtful: clock.doubtful,
          online: false,
          deviceResult: item.Resultado,
        } satisfies Presentation);
      }
      // Oldest first, whatever order they came in, so inferred directions follow the holder's path.
      prepared.sort((a, b) => a.at.getTime() - b.at.getTime());
      const sites = new Map<number, Awaited<ReturnType<typeof loadSite>>>();
      for (const p of prepared)
        if (!sites.has(p.door.IdDivision))
          sites.set(p.door.IdDivision, await siteOf(p.door.IdCliente, p.door.IdDivision));
      const results = await db.transaction().execute(async (trx) => {
        const siteFor = (p: Presentation) => {
          const site = sites.get(p.door.IdDivision);
          if (!site) throw new Error('site not loaded');
          return site;
        };
        // A device's batch shows the same cards over and over: each one's rows are read once, all
        // of the batch's together (recordBatch).
        const recorded = await recordBatch(trx, device, prepared, siteFor, qualifications);
        return prepared.map((p, i) => ({ p, recorded: recorded[i] }));
      });
      if (results.some((r) => !r.recorded.duplicate)) fastify.markingsWritten.fire();
      return {
        result: {
          received: items.length,
          added: results.filter((r) => !r.recorded.duplicate).length,
          duplicates: results.filter((r) => r.recorded.duplicate).length,
          doubtful: results.filter((r) => r.p.doubtful && !r.recorded.duplicate).length,
          markings: results.map(({ p, recorded }) => ({
            IdMarca: p.deviceMarkId,
            IdMarcacion: recorded.IdMarcacion ?? null,
            duplicate: recorded.duplicate,
            direction: recorded.direction,
            doubtful: p.doubtful,
            ...answer(recorded.decision, request.language),
            // What the stored marking says happened, which the device decided while offline: a
            // worker it let through is on site (and counted) even where the server would refuse.
            Resultado: recorded.result,
            allow: recorded.result === 'P',
            ...(recorded.result !== (recorded.decision.allow ? 'P' : 'D') && {
              serverAllow: recorded.decision.allow,
            }),
          })),
        },
      };
    },
  );

  fastify.get<{ Querystring: { puntoControl?: number; version?: number } }>(
    '/acceso/listapermitidos',
    {
      config: { public: true },
      onRequest: keyFirst,
      schema: {
        tags: ['access'],
        summary: 'The signed offline allow-list of a control point (who may pass which door, when)',
        description:
          'Authorization: Device <key>. `payload` is a JSON text signed with Ed25519 (`signature`, base64; the ' +
          'public key at /api/acceso/clave). With `version` (the one the gate holds) only the entries added or ' +
          'changed and the holders removed come back; the same version: no changes.',
        querystring: {
          type: 'object',
          properties: {
            // Numbers the database's columns hold: a larger one is a 400, never a driver error.
            puntoControl: field.id(),
            version: field.integer(0, INT32.max),
          },
          required: ['puntoControl'],
        },
        response: resultResponses('{ payload, signature, algorithm, version }', [400, 401]),
      },
    },
    async (request, reply) => {
      const device = await authenticate(request);
      const list = await allowList(
        db,
        device,
        Number(request.query.puntoControl),
        request.query.version,
        qualifications,
      );
      if (!list) throw new ApiError('BAD_REQUEST', { messageKey: 'gate.controlPointNotOfDevice' });
      // A whole list is large (20 000 holders: about 18 MB of JSON, 300 KB gzipped): sent compressed
      // to a client that accepts it, as every browser does.
      if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
        const body = await gzipAsync(JSON.stringify({ result: list }));
        return reply
          .header('content-encoding', 'gzip')
          .header('vary', 'accept-encoding')
          .type('application/json; charset=utf-8')
          .send(body);
      }
      return { result: list };
    },
  );
  fastify.get(
    '/acceso/lectura',
    {
      config: { public: true },
      onRequest: keyFirst,
      schema: {
        tags: ['access'],
        summary:
          'The calling device’s reading settings: what it reads and how a read is cut, and its direction',
        description:
          'Authorization: Device <key>. lectura: the equipment’s active reading configuration (TipoLectura T card, ' +
          'B fingerprint, Q QR code, D document barcode, P plate; Formato; PosicionInicio and LongitudDato: the part ' +
          'of a read kept), null when it names none; Funcion: E entries, S exits, A both. A device that sends its raw ' +
          'read as Lectura to /api/acceso/decidir is judged by these settings.',
        response: resultResponses('{ IdEquipo, Funcion, lectura }', [401]),
      },
    },
    async (request) => {
      const device = await authenticate(request);
      return {
        result: { IdEquipo: device.IdEquipo, Funcion: device.Funcion, lectura: device.reading ?? null },
      };
    },
  );
  fastify.get(
    '/acceso/clave',
    {
      config: { public: true },
      schema: {
        tags: ['access'],
        summary: 'The public key (Ed25519, SPKI PEM) that verifies the offline allow-lists',
        response: resultResponses('{ algorithm, publicKey }', []),
      },
    },
    async () => ({ result: { algorithm: 'Ed25519', publicKey: (await signingKeys(db)).publicKey } }),
  );

  // The equipment screen's calls: issue (or rotate) and revoke a device's key.
  const equipment = () => fastify.registry.require('equipment');
  fastify.get<{ Params: { id: string } }>(
    '/acceso/equipo/:id/clave',
    {
      preHandler: requireGrant('equipment', 'read'),
      schema: {
        tags: ['access'],
        summary: "The equipment's key in force: its first characters and when it was issued (never the key)",
        params: objectOf({ id: field.id() }, ['id']),
        response: resultResponses('{ prefix, issuedAt } or null', [401, 403, 404]),
      },
    },
    async (request) => {
      const id = Number(request.params.id);
      await fastify.crud.getOne(equipment(), id, request.principal);
      return { result: (await keys.current(id)) ?? null };
    },
  );
  fastify.post<{ Params: { id: string } }>(
    '/acceso/equipo/:id/clave',
    {
      preHandler: requireGrant('equipment', 'write'),
      schema: {
        tags: ['access'],
        summary: 'Issue a new key for the equipment (the previous one stops working); the key is shown once',
        params: objectOf({ id: field.id() }, ['id']),
        response: resultResponses('{ key, prefix }', [401, 403, 404]),
      },
    },
    async (request) => {
      const id = Number(request.params.id);
      await fastify.crud.getOne(equipment(), id, request.principal);
      return { result: await keys.issue(id, request.principal.userId) };
    },
  );
  fastify.delete<{ Params: { id: string } }>(
    '/acceso/equipo/:id/clave',
    {
      preHandler: requireGrant('equipment', 'write'),
      schema: {
        tags: ['access'],
        summary: "Revoke the equipment's key: the device is refused (401) until a new one is issued",
        params: objectOf({ id: field.id() }, ['id']),
        response: resultResponses('{ revoked }', [401, 403, 404]),
      },
    },
    async (request) => {
      const id = Number(request.params.id);
      await fastify.crud.getOne(equipment(), id, request.principal);
      return { result: { revoked: await keys.revoke(id) } };
    },
  );

  // Enrolment: the equipment's screen shows a one-time code in a QR; the gate app exchanges it.
  fastify.post<{ Params: { id: string } }>(
    '/acceso/equipo/:id/enrolamiento',
    {
      preHandler: requireGrant('equipment', 'write'),
      schema: {
        tags: ['access'],
        summary:
          'A one-time enrolment code for the equipment (single use, valid 10 minutes), for the QR a gate app scans',
        params: objectOf({ id: field.id() }, ['id']),
        response: resultResponses('{ code, expiresAt }', [401, 403, 404]),
      },
    },
    async (request) => {
      const id = Number(request.params.id);
      await fastify.crud.getOne(equipment(), id, request.principal);
      return { result: await enrolment.create(id, request.principal.userId) };
    },
  );
  fastify.post<{ Body: { codigo: string } }>(
    '/acceso/enrolar',
    {
      config: { public: true },
      schema: {
        tags: ['access'],
        summary: 'A gate app exchanges an enrolment code for a device key, its equipment and control points',
        description:
          "The code is used up by this call; the equipment's previous device keys stop working. A code unknown, " +
          'already used or older than 10 minutes: 400, each with its own message.',
        body: objectOf({ codigo: field.text(64, { minLength: 1 }) }, ['codigo']),
        response: resultResponses('{ key, equipment, controlPoints, publicKey }', [400]),
      },
    },
    async (request) => {
      const enrolled = await enrolment.exchange(request.body.codigo.trim());
      if ('problem' in enrolled) {
        const messageKey = {
          unknown: 'gate.enrolmentUnknown',
          used: 'gate.enrolmentUsed',
          expired: 'gate.enrolmentExpired',
          equipmentInactive: 'gate.enrolmentEquipmentInactive',
        }[enrolled.problem];
        throw new ApiError('BAD_REQUEST', { messageKey });
      }
      return { result: { ...enrolled, publicKey: (await signingKeys(db)).publicKey } };
    },
  );
}

declare module 'fastify' {
  interface FastifyInstance {
    deviceKeys: DeviceKeys;
  }
}
