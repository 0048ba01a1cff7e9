import {
  type EntityCode,
  holdsContract,
  PERSON_FIELDS,
  VEHICLE_FIELDS,
} from '../../../../shared/accreditation.js';
import { dmy, requestDateProblems } from '../../../../shared/request-dates.js';
import type { FieldProblem } from '../../../../shared/validation.js';
import type { CrudService } from '../../../crud/service.js';
import type { Row } from '../../../crud/types.js';
import type { Db } from '../../../db/connection.js';
import { keptRead } from '../../../db/kept-reads.js';
import { ApiError } from '../../../errors.js';
import type { Principal } from '../../../principal.js';
import { parameter } from '../../../services/parameters.js';
import { maskedFields } from '../../../services/privacy.js';
import type { Requester } from '../../../services/requester.js';
import type { ProfileDef } from '../catalogue.js';
import type { RequestEngine, Stored } from '../engine/engine.js';
import { type Body, holderIdentity, pick, upper } from '../engine/input.js';

/**
 * What a mobilisation is about, kept from its fields: the worker or vehicle (found by document or
 * plate within the company, or registered), a visit's visitors, and the dates of spec section 5.
 */
export class Holders {
  constructor(private readonly engine: RequestEngine) {}

  /**
   * The dates of spec section 5: a start today or later, within the contract's dates (and for a
   * visit, at most the longest visit). Answers the problems by field.
   */
  async dateProblems(
    db: Db,
    principal: Principal,
    header: { FechaInicio: string; FechaFin: string; IdContrato: number; FechaNacimiento?: string | null },
    profile: ProfileDef,
  ): Promise<Record<string, FieldProblem>> {
    const { engine } = this;
    // A company is accredited in the division, not for a contract: its dates are its own.
    const contract =
      profile.IdEntidad === 'E' ? undefined : await this.contract(db, principal, header.IdContrato);
    const today = await engine.siteToday(db, principal.divisionId as number);
    const problems: Record<string, FieldProblem> = {};
    if (contract && contract.Activo !== 'S')
      problems.IdContrato = { messageKey: 'accreditation.refusals.contractInactive' };
    const longestVisit =
      profile.IdEntidad === 'P'
        ? (profile.MaxDiasVisita ??
          (Number((await parameter(db, engine.registry, principal, 'MAXDIASVISITA'))?.Valor1) || undefined))
        : undefined;
    // The same rules the wizard checks as the dates are typed (src/shared/request-dates.ts).
    const { FechaInicio, FechaFin, FechaNacimiento } = header;
    Object.assign(
      problems,
      requestDateProblems({ FechaInicio, FechaFin, FechaNacimiento }, { today, contract, longestVisit }),
    );
    return problems;
  }

  /**
   * The request's contract, when the caller can see it (another company's or division's is none);
   * read once per `keepingReads` scope.
   */
  private contract(db: Db, principal: Principal, id: number) {
    const { clientId, divisionId, userId } = principal;
    return keptRead(`contract:${clientId}:${divisionId}:${userId}:${id}`, () =>
      this.readContract(db, principal, id),
    );
  }

  private async readContract(db: Db, principal: Principal, id: number) {
    const { engine } = this;
    const visible =
      id === undefined || id === null
        ? []
        : await engine.crud
            .within(db)
            .findKeys(engine.registry.require('contract'), { IdContrato: id }, principal);
    if (!visible.length)
      throw new ApiError('MISSING_REFERENCE', {
        fields: {
          IdContrato: { messageKey: 'validation.referenceMissing', params: { resource: 'contract' } },
        },
      });
    return (await db
      .selectFrom(engine.table('contract'))
      .select(['FechaInicio', 'FechaFin', 'Activo'])
      .where('IdContrato', '=', id)
      .executeTakeFirst()) as { FechaInicio: string; FechaFin: string; Activo: string } | undefined;
  }

  /**
   * The client's setting EMPRESAACREDITADA (S): a worker's or vehicle's mobilisation is filed only
   * for a company accredited in the division today (its company request approved and in force).
   */
  async requireCompanyAccredited(db: Db, requester: Requester, entity: EntityCode): Promise<void> {
    if (!holdsContract(entity)) return;
    const { engine } = this;
    const { principal } = requester;
    if ((await parameter(db, engine.registry, principal, 'EMPRESAACREDITADA'))?.Valor1?.toUpperCase() !== 'S')
      return;
    const today = await engine.siteToday(db, principal.divisionId as number);
    const accredited = await db
      .selectFrom(engine.table('accreditation'))
      .select('IdAcreditacion')
      .where('IdCliente', '=', principal.clientId as number)
      .where('IdDivision', '=', principal.divisionId as number)
      .where('IdEntidad', '=', 'E')
      .where('IdCompania', '=', requester.companyId)
      .where('Estado', '=', 'A')
      .where('FechaInicio', '<=', today)
      .where('FechaFin', '>=', today)
      .executeTakeFirst();
    if (accredited) return;
    const company = (await db
      .selectFrom(engine.table('company'))
      .select('Compania')
      .where('IdCompania', '=', requester.companyId)
      .executeTakeFirst()) as { Compania: string } | undefined;
    throw new ApiError('BUSINESS_RULE', {
      messageKey: 'accreditation.refusals.companyNotAccredited',
      params: { company: company?.Compania ?? String(requester.companyId) },
    });
  }

  /** Refuses a request whose dates break spec section 5's rules (a worker's birth date from `body`). */
  async requireDates(db: Db, principal: Principal, header: Row, profile: ProfileDef, body: Body = {}) {
    const birth =
      profile.IdEntidad === 'T' && typeof body.FechaNacimiento === 'string'
        ? body.FechaNacimiento
        : undefined;
    const problems = await this.dateProblems(
      db,
      principal,
      { ...header, FechaNacimiento: birth } as never,
      profile,
    );
    if (Object.keys(problems).length) throw new ApiError('VALIDATION_FAILED', { fields: problems });
  }

  /**
   * The worker or vehicle a request names, kept up to date from the request's fields: found by its
   * document (or plate) within the company, or the request's own, or else registered.
   */
  async holder(
    crud: CrudService,
    requester: Requester,
    entity: EntityCode,
    body: Body,
    current?: number | null,
  ): Promise<{ IdPersona?: number; IdVehiculo?: number }> {
    if (entity === 'P' || entity === 'E') return {};
    const principal = requester.principal;
    const worker = entity === 'T';
    const resource = this.engine.registry.require(worker ? 'person' : 'vehicle');
    const sent = pick(body, worker ? PERSON_FIELDS : VEHICLE_FIELDS);
    const column = worker ? 'IdPersona' : 'IdVehiculo';
    if (!Object.keys(sent).length && current) return { [column]: current };
    const identity = holderIdentity(worker, sent);
    const [found] = identity ? await crud.findKeys(resource, identity, principal) : current ? [current] : [];
    const fields = { ...sent, IdCompania: requester.companyId };
    if (found !== undefined) {
      const existing = await crud.getOne(resource, found, principal);
      return {
        // What the requester's profile may not read (health data) stays as stored.
        [column]: (
          await crud.update(resource, found, { ...existing, ...fields }, principal, {
            keep: maskedFields(resource, principal),
          })
        ).id as number,
      };
    }
    const defaults = worker ? { Condicion: 'T', Visita: 'N' } : {};
    return { [column]: (await crud.create(resource, { ...defaults, ...fields }, principal)).id as number };
  }

  /**
   * A worker with an indiscipline in force today (recorded by the client, at whatever contractor)
   * is not requested again until its sanction ends: refused on the document, naming it.
   */
  async refuseIndisciplined(db: Db, header: Row, principal: Principal): Promise<void> {
    if (!header.IdPersona) return;
    const { engine } = this;
    const today = await engine.siteToday(db, principal.divisionId as number);
    const found = (await db
      .selectFrom(`${engine.table('person-indiscipline')} as pi`)
      .innerJoin(`${engine.table('indiscipline')} as i`, 'i.IdIndisciplina', 'pi.IdIndisciplina')
      .select(['i.Descripcion', 'pi.Fecha', 'pi.FechaHasta'])
      .where('pi.IdPersona', '=', Number(header.IdPersona))
      .where('pi.IdCliente', '=', principal.clientId as number)
      .where('pi.Activo', '=', 'S')
      .where('pi.Fecha', '<=', today)
      .where('pi.FechaHasta', '>=', today)
      .orderBy('pi.FechaHasta', 'desc')
      .executeTakeFirst()) as { Descripcion: string; Fecha: string; FechaHasta: string } | undefined;
    if (!found) return;
    const problem = {
      messageKey: 'accreditation.refusals.indisciplineInForce',
      params: { kind: found.Descripcion, date: dmy(found.Fecha), until: dmy(found.FechaHasta) },
    };
    throw new ApiError('BUSINESS_RULE', { ...problem, fields: { Documento: problem } });
  }

  /**
   * Another open mobilisation of the same worker or vehicle on the same contract is refused, and
   * of the same company (its own accreditation) in the division.
   */
  async refuseSecondOpen(
    db: Db,
    header: Row,
    principal: Principal,
    exceptId?: number,
    companyId?: number,
  ): Promise<void> {
    const company = header.IdEntidad === 'E';
    const holder = company
      ? 'IdCompania'
      : header.IdPersona
        ? 'IdPersona'
        : header.IdVehiculo
          ? 'IdVehiculo'
          : undefined;
    if (!holder) return;
    // The request's indexes lead with its client and division: said, the holder's index answers.
    let qb = db
      .selectFrom(this.engine.table('request'))
      .select('IdSolicitud')
      .where('IdCliente', '=', principal.clientId as number)
      .where('IdDivision', '=', principal.divisionId as number)
      .where(holder, '=', (company ? companyId : header[holder]) as number)
      .where('TipoSolicitud', '=', 'M')
      .where('EstadoAprobacion', 'in', ['I', 'P', 'O']);
    qb = company ? qb.where('IdEntidad', '=', 'E') : qb.where('IdContrato', '=', header.IdContrato as number);
    if (exceptId) qb = qb.where('IdSolicitud', '<>', exceptId);
    const open = (await qb.executeTakeFirst()) as { IdSolicitud: number } | undefined;
    if (open)
      throw new ApiError('DUPLICATE', {
        messageKey: company
          ? 'accreditation.refusals.companyRequestOpen'
          : 'accreditation.refusals.openRequestExists',
        params: { id: open.IdSolicitud },
      });
  }

  /** A visit's visitors, replaced by the ones sent (kept by document, so their lines stay). */
  async saveVisitors(trx: Db, request: Stored, sent: unknown, principal: Principal): Promise<void> {
    if (sent === undefined) return;
    if (!Array.isArray(sent) || sent.length > 500)
      throw new ApiError('VALIDATION_FAILED', {
        fields: { Visitantes: { messageKey: 'validation.invalid' } },
      });
    const { engine } = this;
    const entity = engine.registry.require('visit-person');
    const stored = await engine.visitors(trx, request.IdSolicitud);
    const keyOf = (v: { IdTipoDocumento: unknown; Documento: unknown }) =>
      `${v.IdTipoDocumento}:${upper(v.Documento, 1000)}`;
    const seen = new Set<string>();
    const crud = engine.crud.within(trx);
    for (const [index, raw] of (sent as Body[]).entries()) {
      const values = { ...raw, IdSolicitud: request.IdSolicitud };
      const key = keyOf(engine.crud.prepare(entity, values) as never);
      if (seen.has(key))
        throw new ApiError('VALIDATION_FAILED', {
          fields: { [`Visitantes.${index}`]: { messageKey: 'accreditation.refusals.visitorTwice' } },
        });
      seen.add(key);
      const existing = stored.find((s) => keyOf(s) === key);
      if (existing)
        await crud.update(entity, existing.IdVisitaPersona, { ...existing, ...values }, principal);
      else await crud.create(entity, values, principal);
    }
    for (const gone of stored.filter((s) => !seen.has(keyOf(s))))
      for (const name of ['request-detail', 'visit-person'])
        await trx
          .deleteFrom(engine.table(name))
          .where('IdVisitaPersona', '=', gone.IdVisitaPersona)
          .execute();
  }
}
