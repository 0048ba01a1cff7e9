import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ENTITY_CODES } from '../../../shared/accreditation.js';
import type { Row } from '../../crud/types.js';
import { ApiError } from '../../errors.js';
import { field, INT32, objectOf } from '../../routes/responses.js';
import { answerByRowClass, answerSensitive, readOrigin } from '../../services/privacy.js';
import { requesterOf } from '../../services/requester.js';
import { parseDetail } from './engine/input.js';
import { id, kindCalls, result } from './kind-routes.js';
import { contractParts } from './kinds/contract-terms.js';
import { approverRows, authoriserOf, viewerOf } from './roles.js';
import { checkPdf, checkPhoto, readUpload, UPLOAD_LIMIT_BYTES } from './uploads.js';

type Query = Record<string, unknown>;
const entity = { type: 'string', enum: [...ENTITY_CODES] };
const requestBody = {
  type: 'object',
  additionalProperties: true,
  description:
    'The request record of spec section 3: IdEntidad (T, V, P), IdContrato, IdPerfilAcreditacion, FechaInicio, FechaFin, Observacion and the organisational data; for a worker the person’s fields (IdTipoDocumento, Documento, Apellido, Nombre, …), for a vehicle its fields (Placa, IdTipoVehiculo, IdMarca, …), for a visit MotivoVisita, IdResponsable and Visitantes [{ IdTipoDocumento, Documento, Apellido, Nombre, Email }]; Detalle: a JSON string of [{ IdDatoEvaluar, Valor, IdVisitaPersona? or Documento? }].',
  properties: {
    IdSolicitud: id,
    IdEntidad: entity,
    IdContrato: id,
    IdPerfilAcreditacion: id,
    FechaInicio: field.text(10),
    FechaFin: field.text(10),
    Observacion: field.text(500),
    Detalle: field.text(500_000),
  },
};
const multipartDoc = (summary: string, description: string) => ({
  tags: ['accreditation'],
  summary,
  description,
  consumes: ['multipart/form-data'],
  response: result('The line or request changed'),
});

/**
 * The accreditation request calls of spec section 7 at their paths, answering inside `result`:
 * the requester's (make, save, attach, send, delete, read, list, dashboard) and the authoriser's
 * (read, evaluate, list, dashboard), and the lines', visitors' and approvers' calls.
 */
export default async function requestRoutes(fastify: FastifyInstance): Promise<void> {
  await fastify.register(multipart, { limits: { fileSize: UPLOAD_LIMIT_BYTES, files: 1, fields: 20 } });
  const { database, registry, crud } = fastify;
  const db = database.db;
  const services = fastify.requests;
  const { mobilisations: requests, views } = services;
  const tags = ['accreditation'];
  const base = '/acreditacionsolicitud';

  /** The session as requester, or else as authoriser: who may read requests. */
  const viewer = (request: FastifyRequest, kind?: unknown) => viewerOf(db, registry, request.principal, kind);
  const numberOf = (value: unknown, name: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > INT32.max)
      throw new ApiError('BAD_QUERY', { params: { parameter: name } });
    return n;
  };

  fastify.post<{ Body: Query }>(
    `${base}/crearsolicitante`,
    {
      schema: {
        tags,
        summary: 'Make a request (incomplete) with its holder and lines',
        body: requestBody,
        response: result('{ IdSolicitud, EstadoAprobacion, SolicitudCompleta }'),
      },
    },
    async (request) => ({
      result: await requests.create(
        requesterOf(request.principal, request.body?.IdEntidad),
        request.body ?? {},
      ),
    }),
  );

  fastify.post<{ Body: Query }>(
    `${base}/actualizarsolicitante`,
    {
      schema: {
        tags,
        summary: 'Save an incomplete or observed request',
        body: requestBody,
        response: result('{ IdSolicitud, EstadoAprobacion, SolicitudCompleta }'),
      },
    },
    async (request) => ({
      result: await requests.update(requesterOf(request.principal), request.body ?? {}),
    }),
  );

  fastify.post<{ Body: { IdSolicitud?: number } }>(
    `${base}/cerrarsolicitud`,
    {
      schema: {
        tags,
        summary: 'Send (close) a request for evaluation',
        description:
          'Every mandatory requirement entered and attached, the dates within the contract: the request becomes pending (P) and the first approvers are mailed.',
        body: objectOf({ IdSolicitud: id }, ['IdSolicitud']),
        response: result('{ IdSolicitud, EstadoAprobacion }'),
      },
    },
    async (request) => ({
      result: await requests.send(requesterOf(request.principal), request.body.IdSolicitud),
    }),
  );

  fastify.post(
    `${base}/UploadSolicitanteArchivo`,
    {
      config: { repository: 'D' },
      schema: multipartDoc(
        'Attach a requirement’s PDF',
        'Multipart fields IdSolicitud, IdDatoEvaluar (and IdVisitaPersona for a visitor’s line), then the file: a PDF by its content, no larger than SIZEMAXPDFUPLOAD MB.',
      ),
    },
    async (request) => {
      const requester = requesterOf(request.principal);
      const upload = await readUpload(request);
      const file = await checkPdf(db, registry, request.principal, upload);
      return { result: await requests.attach(requester, upload.fields, file) };
    },
  );

  fastify.post(
    `${base}/crearsolicitantefoto`,
    {
      config: { repository: 'F' },
      schema: multipartDoc(
        'The worker’s photo of a request',
        'Multipart field IdSolicitud, then the image: .png, .jpg or .jpeg by its content, within SIZEMAXPHOTOUPLOAD MB and MAXIMAGESIZECLIENTE KB, its width and height within CLIENTIMAGERATIO ± 50 %.',
      ),
    },
    async (request) => {
      const requester = requesterOf(request.principal);
      const upload = await readUpload(request);
      const file = await checkPhoto(db, registry, request.principal, upload);
      return { result: await requests.photo(requester, upload.fields.IdSolicitud, file.bytes) };
    },
  );

  fastify.get<{ Querystring: { IdSolicitud?: number } }>(
    `${base}/obtenersolicitud`,
    {
      schema: {
        tags,
        summary: 'A request record, for its requester',
        querystring: objectOf({ IdSolicitud: id, IdDivision: id }, ['IdSolicitud']),
        response: result('The request record with its context, history and facts'),
      },
    },
    async (request) => ({
      result: await views.record(
        requesterOf(request.principal),
        numberOf(request.query.IdSolicitud, 'IdSolicitud'),
        readOrigin(request),
      ),
    }),
  );

  fastify.get<{ Querystring: { IdSolicitud?: number } }>(
    `${base}/obtenersolicitudbyautorizador`,
    {
      schema: {
        tags,
        summary: 'A request record, for an authoriser of its kind',
        querystring: objectOf({ IdSolicitud: id, IdDivision: id }, ['IdSolicitud']),
        response: result('The request record with its context, history and facts'),
      },
    },
    async (request) => ({
      result: await views.record(
        await authoriserOf(db, registry, request.principal),
        numberOf(request.query.IdSolicitud, 'IdSolicitud'),
        readOrigin(request),
      ),
    }),
  );

  fastify.get<{ Querystring: Query }>(
    `${base}/validar`,
    {
      schema: {
        tags,
        summary:
          'Whether a worker or vehicle may be requested: its record, an open request, an accreditation',
        querystring: objectOf({
          IdEntidad: entity,
          IdTipoDocumento: id,
          Documento: field.text(20),
          Placa: field.text(12),
          IdContrato: id,
        }),
        response: result('{ persona | vehiculo, solicitudAbierta, acreditacion }'),
      },
    },
    async (request) => {
      const requester = requesterOf(request.principal, request.query.IdEntidad);
      const q = request.query;
      const isVehicle = q.IdEntidad === 'V';
      const resource = registry.require(isVehicle ? 'vehicle' : 'person');
      const where = isVehicle
        ? {
            Placa: String(q.Placa ?? '')
              .trim()
              .toLocaleUpperCase('es'),
          }
        : {
            IdTipoDocumento: q.IdTipoDocumento,
            Documento: String(q.Documento ?? '')
              .trim()
              .toLocaleUpperCase('es'),
          };
      if (Object.values(where).some((v) => v === undefined || v === ''))
        throw new ApiError('BAD_QUERY', { params: { parameter: isVehicle ? 'Placa' : 'Documento' } });
      const [found] = await crud.findKeys(resource, where, requester.principal);
      const holder = found === undefined ? null : await crud.getOne(resource, found, requester.principal);
      if (holder)
        await answerSensitive(db, registry, resource, [holder], requester.principal, readOrigin(request));
      const column = isVehicle ? 'IdVehiculo' : 'IdPersona';
      const open = holder
        ? await db
            .selectFrom(registry.require('request').table)
            .select(['IdSolicitud', 'EstadoAprobacion', 'IdContrato'])
            .where(column, '=', found)
            .where('EstadoAprobacion', 'in', ['I', 'P', 'O'])
            .where('TipoSolicitud', '=', 'M')
            .executeTakeFirst()
        : null;
      const accreditation = holder
        ? await db
            .selectFrom(registry.require('accreditation').table)
            .select(['IdAcreditacion', 'IdContrato', 'FechaInicio', 'FechaFin', 'Estado'])
            .where(column, '=', found)
            .where('IdDivision', '=', request.principal.divisionId as number)
            .where('Estado', '<>', 'T')
            .orderBy('FechaFin', 'desc')
            .executeTakeFirst()
        : null;
      return {
        result: {
          [isVehicle ? 'vehiculo' : 'persona']: holder,
          solicitudAbierta: open ?? null,
          acreditacion: accreditation ?? null,
        },
      };
    },
  );

  fastify.get<{ Querystring: { IdContrato?: number } }>(
    `${base}/contratocontratistainfo`,
    {
      schema: {
        tags,
        summary:
          'The contract a request is for, with its companies and division (the form’s read-only context)',
        querystring: objectOf({ IdContrato: id }, ['IdContrato']),
        response: result(
          '{ IdContrato, NumeroContrato, Asunto, FechaInicio, FechaFin, CompaniaContratista, CompaniaMandante, Division, Operadores, UnidadesOrganizativas, CentrosCosto, Subcontratistas, Servicios }',
        ),
      },
    },
    async (request) => {
      const requester = requesterOf(request.principal);
      const contract = await crud.getOne(
        registry.require('contract'),
        numberOf(request.query.IdContrato, 'IdContrato'),
        requester.principal,
      );
      const name = async (company: unknown) =>
        (
          (await db
            .selectFrom(registry.require('company').table)
            .select('Compania')
            .where('IdCompania', '=', company as number)
            .executeTakeFirst()) as { Compania: string } | undefined
        )?.Compania ?? null;
      const division = (await db
        .selectFrom(registry.require('division').table)
        .select('Division')
        .where('IdDivision', '=', contract.IdDivision as number)
        .executeTakeFirst()) as { Division: string } | undefined;
      return {
        result: {
          IdContrato: contract.IdContrato,
          NumeroContrato: contract.NumeroContrato,
          Asunto: contract.Asunto,
          FechaInicio: contract.FechaInicio,
          FechaFin: contract.FechaFin,
          CompaniaContratista: await name(contract.IdCompaniaContratista),
          CompaniaMandante: await name(contract.IdCompaniaMandante),
          Division: division?.Division ?? null,
          ...(await contractParts(db, registry, contract)),
        },
      };
    },
  );

  kindCalls(fastify, services, {
    base,
    kind: 'M',
    what: 'request',
    list: { method: 'GET', path: 'filtrar', companyPath: 'filtrarcompaniadetalle' },
    exportPath: 'exportarExcelSolicitudPersonas',
    evaluate: 'actualizarsolicitanteautorizador',
    remove: true,
    dashboard: true,
  });

  // ---- lines and files ------------------------------------------------------------------------

  for (const path of ['/acreditacionsolicituddetalle', '/acreditacionsolicitudvehiculodetalle']) {
    fastify.get<{ Querystring: { IdSolicitud?: number } }>(
      `${path}/obtener`,
      {
        schema: {
          tags,
          summary:
            'A request’s requirement items in four arrays: requester’s, authoriser’s, groups, lists’ choices',
          querystring: objectOf({ IdSolicitud: id }, ['IdSolicitud']),
          response: result('[requesterItems, authoriserItems, groups, listChoices]'),
        },
      },
      async (request) => ({
        result: await views.detail(
          requesterOf(request.principal),
          numberOf(request.query.IdSolicitud, 'IdSolicitud'),
          readOrigin(request),
        ),
      }),
    );
    fastify.get<{ Querystring: { IdSolicitud?: number } }>(
      `${path}/obtenerbyautorizador`,
      {
        schema: {
          tags,
          summary: 'A request’s requirement items, for an authoriser (with the states each may take)',
          querystring: objectOf({ IdSolicitud: id }, ['IdSolicitud']),
          response: result('[requesterItems, authoriserItems, groups, listChoices]'),
        },
      },
      async (request) => ({
        result: await views.detail(
          await authoriserOf(db, registry, request.principal),
          numberOf(request.query.IdSolicitud, 'IdSolicitud'),
          readOrigin(request),
        ),
      }),
    );
    fastify.get<{ Querystring: { IdSolicitud?: number; IdFile?: number } }>(
      `${path}/downloadFileBase64`,
      {
        config: { repository: 'D' },
        schema: {
          tags,
          summary: 'A line’s file, base64 (IdFile: the line’s IdSecuencial)',
          querystring: objectOf({ IdSolicitud: id, IdFile: id }, ['IdSolicitud', 'IdFile']),
          response: result('{ file, name, type }'),
        },
      },
      async (request) => ({
        result: await views.download(
          await viewer(request),
          numberOf(request.query.IdSolicitud, 'IdSolicitud'),
          numberOf(request.query.IdFile, 'IdFile'),
          readOrigin(request),
        ),
      }),
    );
  }

  fastify.get<{ Querystring: { IdSolicitud?: number } }>(
    `${base}/descargarfoto`,
    {
      config: { repository: 'F' },
      schema: {
        tags,
        summary: 'A request’s photo, base64',
        querystring: objectOf({ IdSolicitud: id }, ['IdSolicitud']),
        response: result('{ file, name }'),
      },
    },
    async (request) => ({
      result: await views.photo(await viewer(request), numberOf(request.query.IdSolicitud, 'IdSolicitud')),
    }),
  );

  fastify.get<{ Querystring: { IdPersona?: number } }>(
    '/acreditacionsolicituddetalle/listarbypersona',
    {
      schema: {
        tags,
        summary: 'The requirement values a person holds (kept from approved requests)',
        querystring: objectOf({ IdPersona: id }, ['IdPersona']),
        response: result('Accredited requirements of the person'),
      },
    },
    async (request) => {
      const who = await viewer(request);
      const person = registry.require('person');
      await crud.getOne(person, numberOf(request.query.IdPersona, 'IdPersona'), who.principal);
      const t = (name: string) => registry.require(name).table;
      const rows = (await db
        .selectFrom(`${t('accredited-requirement')} as a`)
        .innerJoin(`${t('requirement')} as r`, 'r.IdRequisito', 'a.IdRequisito')
        .innerJoin(`${t('requirement-datum')} as d`, 'd.IdDatoEvaluar', 'a.IdDatoEvaluar')
        .select([
          'a.IdRequisito',
          'r.Requisito',
          'a.IdDatoEvaluar',
          'd.DatoEvaluar',
          'a.Valor',
          'a.NombreArchivo',
          'a.FechaVencimiento',
          'a.IdSolicitud',
          'a.FechaAprobacion',
          'a.IdRequisitoAcreditado',
          'a.IdPersona',
          'r.ClaseDato',
        ])
        .where('a.IdPersona', '=', Number(request.query.IdPersona))
        .where('a.IdCliente', '=', who.principal.clientId as number)
        .orderBy('r.Requisito')
        .execute()) as Row[];
      const held = registry.require('accredited-requirement');
      const fields = ['Valor', 'NombreArchivo'];
      return {
        result: await answerByRowClass(db, registry, held, rows, fields, who.principal, readOrigin(request)),
      };
    },
  );

  // ---- a visit's visitors ---------------------------------------------------------------------

  const visits = '/acreditacionvisitapersonadetalle';
  fastify.put<{ Body: Query }>(
    `${visits}/actualizarrequisitos`,
    {
      schema: {
        tags,
        summary: 'A visitor’s requirement values (the visit must be incomplete or observed)',
        body: {
          type: 'object',
          properties: { IdSolicitud: id, IdVisitaPersona: id, Detalle: field.text(200_000) },
          required: ['IdSolicitud', 'IdVisitaPersona'],
        },
        response: result('{ IdSolicitud, EstadoAprobacion, SolicitudCompleta }'),
      },
    },
    async (request) => {
      const body = request.body;
      const detail = parseDetail(body.Detalle);
      return {
        result: await requests.update(requesterOf(request.principal, 'P'), {
          IdSolicitud: body.IdSolicitud,
          Detalle: detail.map((d) => ({ ...d, IdVisitaPersona: body.IdVisitaPersona })),
        }),
      };
    },
  );
  for (const name of ['actualizararchivo', 'actualizarobservado'])
    fastify.put(
      `${visits}/${name}`,
      {
        schema: multipartDoc(
          name === 'actualizararchivo'
            ? 'A visitor’s requirement PDF'
            : 'A visitor’s observed requirement, corrected with a new PDF',
          'Multipart fields IdSolicitud, IdVisitaPersona, IdDatoEvaluar, then the PDF.',
        ),
      },
      async (request) => {
        const requester = requesterOf(request.principal, 'P');
        const upload = await readUpload(request);
        const file = await checkPdf(db, registry, request.principal, upload);
        return { result: await requests.attach(requester, upload.fields, file) };
      },
    );
  fastify.get<{ Querystring: { IdSolicitud?: number; IdFile?: number } }>(
    `${visits}/downloadFileBase64`,
    {
      config: { repository: 'D' },
      schema: {
        tags,
        summary: 'A visitor’s line file, base64',
        querystring: objectOf({ IdSolicitud: id, IdFile: id }, ['IdSolicitud', 'IdFile']),
        response: result('{ file, name, type }'),
      },
    },
    async (request) => ({
      result: await views.download(
        await viewer(request, 'P'),
        numberOf(request.query.IdSolicitud, 'IdSolicitud'),
        numberOf(request.query.IdFile, 'IdFile'),
        readOrigin(request),
      ),
    }),
  );

  // ---- setup the screens read -----------------------------------------------------------------

  fastify.get(
    '/acreditacionautorizadorusuario/ListarByUser',
    {
      schema: {
        tags,
        summary: 'The session user’s approver rows in the session’s division (kind, order, requirement type)',
        querystring: objectOf({ IdUsuario: field.text(20), IdDivision: id }),
        response: result('[{ IdAutorizador, IdEntidad, Orden, IdTipoRequisito }]'),
      },
    },
    async (request) => ({ result: await approverRows(db, registry, request.principal) }),
  );

  fastify.get(
    '/acreditacionpermisovista/listar',
    {
      schema: {
        tags,
        summary: 'The session profile’s view permissions: which request types and kinds its dashboard shows',
        querystring: objectOf({ IdPerfil: id }),
        response: result('[{ Tipo, IdEntidad, Ver }]'),
      },
    },
    async (request) => {
      const { clientId, profileId } = request.principal;
      if (clientId === undefined || profileId === undefined) throw new ApiError('FORBIDDEN');
      return {
        result: await db
          .selectFrom(registry.require('view-permission').table)
          .select(['Tipo', 'IdEntidad', 'Ver'])
          .where('IdCliente', '=', clientId)
          .where('IdPerfil', '=', profileId)
          .orderBy('Tipo')
          .orderBy('IdEntidad')
          .execute(),
      };
    },
  );
}
