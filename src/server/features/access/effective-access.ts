import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Door, decide, type Presented } from '../../../shared/access/decision.js';
import { timeZoneOf } from '../../../shared/dates.js';
import { ApiError } from '../../errors.js';
import { t } from '../../i18n.js';
import { field, objectOf, resultResponses } from '../../routes/responses.js';
import { loadHolder, loadSite } from '../../services/site/loader.js';

/**
 * A worker's or vehicle's effective access (spec section 2, person and vehicle access management):
 * for each active door of the session's division, whether the gate would let it through now (in,
 * or out at an exit-only door) and, if not, why; the gate's own decision on the holder's data,
 * written nowhere.
 */
export default async function effectiveAccessRoutes(fastify: FastifyInstance): Promise<void> {
  const db = fastify.database.db;
  const answer = async (request: FastifyRequest, presented: Presented) => {
    const { clientId, divisionId } = request.principal;
    if (clientId === undefined || divisionId === undefined) throw new ApiError('FORBIDDEN');
    // The division's active doors and its time zone, read once: each door is decided in memory.
    const [doors, division, loaded, site] = await Promise.all([
      db
        .selectFrom('access_door as d')
        .leftJoin('access_zone as z', 'z.IdZona', 'd.IdZona')
        .select([
          'd.IdPuerta',
          'd.IdDivision',
          'd.IdZona',
          'd.Sentido',
          'd.Activo',
          'd.Descripcion',
          'z.Descripcion as Zona',
        ])
        .where('d.IdCliente', '=', clientId)
        .where('d.IdDivision', '=', divisionId)
        .where('d.Activo', '=', 'S')
        .orderBy('d.Descripcion')
        .execute() as Promise<Array<Door & { Descripcion: string; Zona: string | null }>>,
      db
        .selectFrom('system_division')
        .select('IdPais')
        .where('IdDivision', '=', divisionId)
        .executeTakeFirst() as Promise<{ IdPais: string | null } | undefined>,
      loadHolder(db, clientId, divisionId, presented, fastify.qualifications),
      loadSite(db, clientId, divisionId, fastify.qualifications),
    ]);
    const timeZone = timeZoneOf(division?.IdPais);
    const at = new Date(fastify.auth.now());
    const rows = doors.map(({ Descripcion, Zona, ...row }) => {
      const door: Door = {
        ...row,
        IdPuerta: Number(row.IdPuerta),
        IdDivision: Number(row.IdDivision),
        IdZona: Number(row.IdZona),
      };
      // An exit-only door is asked for an exit, any other for an entry.
      const decision = decide({
        door,
        direction: door.Sentido === 'S' ? 'S' : 'E',
        at,
        timeZone,
        presented,
        credential: loaded.credential,
        holder: loaded.holder,
        site,
      });
      return {
        IdPuerta: door.IdPuerta,
        Puerta: Descripcion,
        Zona,
        Permitido: decision.allow ? 'S' : 'N',
        Motivo: decision.reason,
        Mensaje: t(request.language, decision.messageKey, decision.params),
      };
    });
    return { Fecha: at.toISOString(), puertas: rows };
  };
  const holderOf = async (resource: 'person' | 'vehicle', id: number, request: FastifyRequest) => {
    // getOne answers 404 for a record outside the session's tenancy.
    return fastify.crud.getOne(fastify.registry.require(resource), id, request.principal);
  };

  fastify.get<{ Querystring: { IdPersona?: number; IdVehiculo?: number } }>(
    '/acceso/accesoefectivo',
    {
      schema: {
        tags: ['access'],
        summary:
          'A worker’s or vehicle’s effective access now: each door of the division, allowed or why not',
        description:
          'IdPersona or IdVehiculo (one of the session’s tenancy). The gate’s decision for an entry now at each active door, without recording a marking. Needs the person-access or vehicle-access grant.',
        querystring: objectOf({ IdPersona: field.id(), IdVehiculo: field.id() }),
        response: resultResponses(
          '{ Fecha, puertas: [{ IdPuerta, Puerta, Zona, Permitido, Motivo, Mensaje }] }',
          [400, 401, 403, 404],
        ),
      },
    },
    async (request) => {
      const { IdPersona, IdVehiculo } = request.query;
      if ((IdPersona === undefined) === (IdVehiculo === undefined))
        throw new ApiError('BAD_REQUEST', { messageKey: 'gate.oneHolder' });
      const resource = IdPersona !== undefined ? 'person-access' : 'vehicle-access';
      if (!request.principal.grants?.resources.get(resource)) throw new ApiError('FORBIDDEN');
      if (IdPersona !== undefined) {
        const person = await holderOf('person', IdPersona, request);
        return { result: await answer(request, { kind: 'document', Documento: String(person.Documento) }) };
      }
      const vehicle = await holderOf('vehicle', IdVehiculo as number, request);
      return { result: await answer(request, { kind: 'plate', Placa: String(vehicle.Placa) }) };
    },
  );
}
