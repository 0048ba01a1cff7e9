import type { RequestStatus } from '../../../../../workflows/request.machine.js';
import type { LineStatus } from '../../../../../workflows/requirement-approval.machine.js';
import { HEADER_FIELDS, isEntityCode } from '../../../../shared/accreditation.js';
import type { Row } from '../../../crud/types.js';
import type { Db } from '../../../db/connection.js';
import { ApiError } from '../../../errors.js';
import type { Principal } from '../../../principal.js';
import type { Requester } from '../../../services/requester.js';
import { AdditionalData } from '../additional.js';
import { dataById, loadProfile } from '../catalogue.js';
import type { RequestEngine, Stored } from '../engine/engine.js';
import { type Body, idOf, type KeptFile, parseDetail, pick, upper } from '../engine/input.js';
import { markComplete, saveLines } from '../engine/save-lines.js';
import { missingData, readableInputs, requestFacts, uncarry } from '../lines.js';
import { checkContractTerms } from './contract-terms.js';
import { Endowment } from './endowment.js';
import { Holders } from './holders.js';

/**
 * The request types the requester's editing calls (actualizarsolicitante, UploadSolicitanteArchivo,
 * cerrarsolicitud) handle: a mobilisation, and a requirement update, which is filled and sent as
 * one. A demobilisation, extension or contract change has its own calls.
 */
export const EDITED_KINDS = ['M', 'A'] as const;

/**
 * A requirement update's request fields (contract, profile, dates, the rest of the header) are
 * those of the accreditation it renews: a body that changes any is refused, field by field.
 */
function refuseRenewalChanges(request: Row, body: Body): void {
  const changed = HEADER_FIELDS.filter(
    (field) =>
      field !== 'IdEntidad' &&
      field !== 'Observacion' &&
      body[field] !== undefined &&
      upper(body[field], Number.MAX_SAFE_INTEGER) !== upper(request[field], Number.MAX_SAFE_INTEGER),
  );
  if (changed.length)
    throw new ApiError('VALIDATION_FAILED', {
      messageKey: 'renewal.refusals.fixed',
      fields: Object.fromEntries(changed.map((field) => [field, { messageKey: 'renewal.refusals.fixed' }])),
    });
}

/**
 * Mobilisation (TipoSolicitud M) of a worker, a vehicle or a visit: the requester makes it
 * incomplete with its holder, visitors and lines, saves and attaches to it, and sends it; the
 * editing calls also fill and send a requirement update (A). Its evaluation and approval are the
 * engine's (Decisions, and the grant effect).
 */
export class Mobilisations {
  readonly holders: Holders;
  readonly endowment: Endowment;
  readonly additional: AdditionalData;

  constructor(private readonly engine: RequestEngine) {
    this.holders = new Holders(engine);
    this.endowment = new Endowment(engine);
    this.additional = new AdditionalData(engine.registry);
  }

  /**
   * A worker's request within its contract's terms (its units and cost centres) and endowment:
   * 'S' when let through over the endowment, flagged.
   */
  private async overEndowment(trx: Db, principal: Principal, request: Row, except?: number) {
    if (request.IdEntidad !== 'T' || !request.IdPersona) return 'N' as const;
    await checkContractTerms(trx, this.engine.registry, request);
    return this.endowment.check(trx, principal, {
      contract: request.IdContrato as number,
      unit: request.IdUnidadOrganizativa as number | null,
      people: [request.IdPersona as number],
      except,
    });
  }

  /**
   * POST crearsolicitante: a new request, incomplete, with its holder, visitors and lines. A bulk
   * upload's row comes through here too, inside its own transaction (`within`) and with its mass
   * upload code, so it is checked exactly as a single request; it then answers only the id.
   */
  async create(
    requester: Requester,
    body: Body,
    within?: { trx: Db; massCode: string; files?: ReadonlyMap<number, KeptFile> },
  ): Promise<Row> {
    const entity = body.IdEntidad;
    if (!isEntityCode(entity))
      throw new ApiError('VALIDATION_FAILED', {
        fields: { IdEntidad: { messageKey: 'validation.required' } },
      });
    if (!requester.entities.includes(entity)) throw new ApiError('FORBIDDEN');
    const { principal } = requester;
    // A requester files for its own company only: another company's request is refused, not moved.
    if (
      body.IdCompania !== undefined &&
      body.IdCompania !== null &&
      Number(body.IdCompania) !== requester.companyId
    )
      throw new ApiError('FORBIDDEN', { messageKey: 'accreditation.refusals.otherCompany' });
    const inputs = parseDetail(body.Detalle);
    const { engine, holders } = this;
    // A second open mobilisation of the holder is refused even when both are written at once.
    const id = await engine.filing(async (trx, crud) => {
      const header: Row = { ...pick(body, HEADER_FIELDS), TipoSolicitud: 'M' };
      // A company's own request names no contract.
      if (entity === 'E') header.IdContrato = undefined;
      await holders.requireCompanyAccredited(trx, requester, entity);
      const profile = await loadProfile(
        trx,
        engine.registry,
        principal.clientId as number,
        idOf(header.IdPerfilAcreditacion, 'IdPerfilAcreditacion'),
        { entity, divisionId: principal.divisionId },
      );
      Object.assign(header, await holders.holder(crud, requester, entity, body));
      const checked = engine.crud.prepare(engine.registry.require('request'), header);
      await holders.requireDates(trx, principal, checked, profile, body);
      await holders.refuseSecondOpen(trx, checked, principal, undefined, requester.companyId);
      await holders.refuseIndisciplined(trx, checked, principal);
      const over = await this.overEndowment(trx, principal, { ...checked, IdEntidad: entity });
      const created = await engine.file(trx, header, principal, {
        SolicitudCompleta: 'N',
        ExcedeDotacion: over,
        ...(within ? { CodigoCargaMasiva: within.massCode } : {}),
      });
      if (entity === 'P') await holders.saveVisitors(trx, created, body.Visitantes, principal);
      await this.additional.save(trx, created, body.DatosAdicionales);
      await saveLines(engine, trx, created, profile, inputs, within?.files);
      return created.IdSolicitud;
    }, within?.trx);
    return within ? { IdSolicitud: id } : engine.summary(id);
  }

  /** POST actualizarsolicitante: an incomplete or observed request saved again. */
  async update(requester: Requester, body: Body): Promise<Row> {
    const id = idOf(body.IdSolicitud, 'IdSolicitud');
    const { principal } = requester;
    const inputs = parseDetail(body.Detalle);
    const { engine, holders } = this;
    await engine.transaction(async (trx, crud) => {
      const request = await engine.load(trx, requester, id, true, EDITED_KINDS);
      engine.requireEditable(request, 'UPDATE');
      // A requirement update renews one requirement's data and file: the rest is its accreditation's.
      const renewal = request.TipoSolicitud === 'A';
      if (renewal) refuseRenewalChanges(request, body);
      const header: Row = {
        ...pick(request, HEADER_FIELDS),
        ...pick(body, HEADER_FIELDS),
        IdEntidad: request.IdEntidad,
        TipoSolicitud: request.TipoSolicitud,
        // A request's kind and profile stay what they were: a new profile is a new request.
        IdPerfilAcreditacion: request.IdPerfilAcreditacion,
        ...(request.IdEntidad === 'E' ? { IdContrato: null } : {}),
      };
      const profile = await engine.profileOf(trx, request);
      Object.assign(
        header,
        renewal
          ? pick(request, [request.IdPersona ? 'IdPersona' : 'IdVehiculo'])
          : await holders.holder(
              crud,
              requester,
              request.IdEntidad,
              body,
              request.IdPersona ?? request.IdVehiculo,
            ),
      );
      const checked = engine.crud.prepare(engine.registry.require('request'), header);
      await holders.requireDates(trx, principal, checked, profile, body);
      await holders.refuseSecondOpen(trx, checked, principal, id, request.IdCompania);
      // A renewal keeps its accreditation's contract: only a mobilisation is counted again.
      const over = renewal ? undefined : await this.overEndowment(trx, principal, checked, id);
      await crud.update(engine.registry.require('request'), id, header, principal);
      if (over !== undefined && over !== request.ExcedeDotacion)
        await trx
          .updateTable(engine.table('request'))
          .set({ ExcedeDotacion: over })
          .where('IdSolicitud', '=', id)
          .execute();
      // A visitor's renewal keeps the visitor it renews.
      if (request.IdEntidad === 'P' && !renewal)
        await holders.saveVisitors(trx, request, body.Visitantes, principal);
      await this.additional.save(trx, request, body.DatosAdicionales);
      await saveLines(engine, trx, request, profile, readableInputs(inputs, profile, principal.sensitive));
      await engine.history(trx, request, principal, 'UPDATE', request.EstadoAprobacion);
    });
    return engine.summary(id);
  }

  /** The facts the request machine decides on, from what is stored now. */
  async facts(trx: Db, request: Stored, principal: Principal) {
    const { engine } = this;
    const profile = await engine.profileOf(trx, request);
    const lines = await engine.lines(trx, request.IdSolicitud);
    const visitors = profile.IdEntidad === 'P' ? await engine.visitors(trx, request.IdSolicitud) : [];
    const complete =
      missingData(profile, lines).length === 0 && (profile.IdEntidad !== 'P' || visitors.length > 0);
    const dates = await this.holders.dateProblems(trx, principal, request, profile);
    return {
      profile,
      lines,
      facts: requestFacts(lines, { complete, datesValid: Object.keys(dates).length === 0 }),
      dates,
    };
  }

  /** POST cerrarsolicitud: the request sent for evaluation, when complete and its dates hold. */
  async send(requester: Requester, rawId: unknown): Promise<Row> {
    const id = idOf(rawId, 'IdSolicitud');
    const { engine } = this;
    const request = await engine.transaction(async (trx) => {
      const request = await engine.load(trx, requester, id, true, EDITED_KINDS);
      // What the features' records prove now (an induction passed since the lines were saved) counts.
      if (request.EstadoAprobacion === 'I' || request.EstadoAprobacion === 'O')
        await saveLines(engine, trx, request, await engine.profileOf(trx, request), []);
      const { facts, lines, profile, dates } = await this.facts(trx, request, requester.principal);
      if (request.EstadoAprobacion === 'I' || request.EstadoAprobacion === 'O') {
        if (!facts.complete)
          throw new ApiError('BUSINESS_RULE', {
            messageKey: 'accreditation.refusals.incomplete',
            fields: Object.fromEntries(
              missingData(profile, lines).map((l) => [
                `Detalle.${l.IdDatoEvaluar}`,
                { messageKey: l.ClaveArchivo ? 'validation.required' : 'ACCREDITATION.REQUEST.NOTFILE' },
              ]),
            ),
          });
        if (!facts.datesValid) throw new ApiError('VALIDATION_FAILED', { fields: dates });
        // A mobilisation's additional data (a renewal renews one requirement only).
        const additional = request.TipoSolicitud === 'M' ? await this.additional.missing(trx, request) : {};
        if (Object.keys(additional).length)
          throw new ApiError('BUSINESS_RULE', {
            messageKey: 'accreditation.refusals.incomplete',
            fields: additional,
          });
      }
      const still = request.EstadoAprobacion === 'O' ? 'accreditation.refusals.stillObserved' : undefined;
      const next = await engine.send(trx, request, requester.principal, facts, undefined, still);
      return { ...request, EstadoAprobacion: next as RequestStatus };
    });
    await engine.notices.sent(request);
    return engine.summary(id);
  }

  /**
   * A requirement's file (UploadSolicitanteArchivo) or a visitor's (actualizararchivo): kept in
   * the file store before the line that names it commits. The request must still be editable; a
   * corrected observed line is pending again.
   */
  async attach(
    requester: Requester,
    target: { IdSolicitud?: unknown; IdDatoEvaluar?: unknown; IdVisitaPersona?: unknown },
    file: { bytes: Uint8Array; name: string; mime: string },
  ): Promise<Row> {
    const id = idOf(target.IdSolicitud, 'IdSolicitud');
    const datum = idOf(target.IdDatoEvaluar, 'IdDatoEvaluar');
    const visitor =
      target.IdVisitaPersona === undefined || target.IdVisitaPersona === ''
        ? null
        : idOf(target.IdVisitaPersona, 'IdVisitaPersona');
    const { engine } = this;
    return engine.transaction(async (trx) => {
      const request = await engine.load(trx, requester, id, true, EDITED_KINDS);
      engine.requireEditable(request, 'UPDATE');
      const profile = await engine.profileOf(trx, request);
      const found = dataById(profile).get(datum);
      if (found?.datum.AdjuntarArchivo !== 'S' || found.requirement.TipoRequisito !== 'S')
        throw new ApiError('VALIDATION_FAILED', {
          fields: { IdDatoEvaluar: { messageKey: 'accreditation.refusals.noFileHere' } },
        });
      const line = (await engine.lines(trx, id)).find(
        (l) => l.IdDatoEvaluar === datum && l.IdVisitaPersona === visitor,
      );
      if (!line?.IdDetalle)
        throw new ApiError('VALIDATION_FAILED', {
          fields: { IdDatoEvaluar: { messageKey: 'accreditation.refusals.unknownDatum' } },
        });
      const key = await engine.files.put(file.bytes, trx);
      // A new file corrects an observed line, and makes a carried-over one the requester's own.
      if (line.IdSolicitudOrigen) uncarry(line);
      const status: LineStatus | null = line.EstadoAprobacion === 'O' ? 'P' : line.EstadoAprobacion;
      await trx
        .updateTable(engine.table('request-detail'))
        .set({
          ClaveArchivo: key,
          NombreArchivo: file.name.slice(0, 200),
          TipoArchivo: file.mime,
          EstadoAprobacion: status,
          IdSolicitudOrigen: line.IdSolicitudOrigen ?? null,
          IdUsuarioAprobacion: line.IdUsuarioAprobacion,
          FechaAprobacion: line.FechaAprobacion,
        })
        .where('IdDetalle', '=', line.IdDetalle)
        .execute();
      const complete = missingData(profile, await engine.lines(trx, id)).length === 0;
      await markComplete(engine, trx, id, complete);
      return {
        IdSolicitud: id,
        IdDetalle: line.IdDetalle,
        NombreArchivo: file.name,
        SolicitudCompleta: complete ? 'S' : 'N',
      };
    });
  }

  /** crearsolicitantefoto: the worker's photo, checked by the caller, kept with the request. */
  async photo(requester: Requester, rawId: unknown, bytes: Uint8Array): Promise<Row> {
    const id = idOf(rawId, 'IdSolicitud');
    const { engine } = this;
    return engine.transaction(async (trx) => {
      const request = await engine.load(trx, requester, id, true, ['M']);
      engine.requireEditable(request, 'UPDATE');
      const key = await engine.files.put(bytes, trx);
      await engine.crud
        .within(trx)
        .patch(engine.registry.require('request'), id, { ClaveFoto: key }, requester.principal);
      return { IdSolicitud: id, ClaveFoto: key };
    });
  }
}
