import { holdsContract } from '../../../../shared/accreditation.js';
import { dmy } from '../../../../shared/request-dates.js';
import type { FieldProblem } from '../../../../shared/validation.js';
import type { Row } from '../../../crud/types.js';
import type { Db } from '../../../db/connection.js';
import { ApiError } from '../../../errors.js';
import type { Requester } from '../../../services/requester.js';
import type { RequestEngine, Stored } from '../engine/engine.js';
import { type Body, idList, idOf, rowsStopped, upper } from '../engine/input.js';
import type { Authoriser } from '../roles.js';
import { companyAccreditations } from './company-accreditations.js';
import { Endowment } from './endowment.js';
import { type AccreditationRow, accreditationOf } from './revoke.js';

/** The kinds filed for accredited holders, one request per accreditation selected. */
export type AccreditedKind = 'D' | 'E' | 'C';

interface Contract {
  IdContrato: number;
  FechaInicio: string;
  FechaFin: string;
  Activo: string;
  IdCompaniaContratista: number;
}

/** What a filing asks, once read from the body: the rows, the date or end, the target contract. */
interface Filing {
  kind: AccreditedKind;
  selected: number[];
  observation: string;
  /** D: the demobilisation's date (today by default); E, C: the new end. */
  date: string;
  /** C: the contract the accreditations move to. */
  target?: Contract;
  today: string;
}

const outside = (contract: { FechaInicio: string; FechaFin: string }): FieldProblem => ({
  messageKey: 'accreditation.refusals.outsideContract',
  params: { start: dmy(contract.FechaInicio), end: dmy(contract.FechaFin) },
});

/**
 * Requests about an accredited worker or vehicle (spec sections 2, 4 and 5): demobilisation (D),
 * contract extension (E) and contract change (C). A requester selects accreditations of its
 * company in the session's division; one request per row is filed and sent at once (P), all or
 * nothing, the rows that stop it named. They carry no lines: the authoriser decides each whole
 * (the engine's Decisions) and approval ends, extends or moves the accreditation.
 */
export class AccreditedChanges {
  private readonly endowment: Endowment;

  constructor(private readonly engine: RequestEngine) {
    this.endowment = new Endowment(engine);
  }

  /**
   * The accreditations a requester may demobilise: its company's, in the session's division, of
   * the kinds it requests, active or suspended, with no demobilisation open for the same holder
   * and contract. `contract` narrows them to one contract.
   */
  async candidates(requester: Requester, entity: 'T' | 'V', contract?: number): Promise<Row[]> {
    const t = (name: string) => this.engine.table(name);
    let qb = companyAccreditations(this.engine, requester, entity).where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom(`${t('request')} as r`)
            .select('r.IdSolicitud')
            .whereRef('r.IdContrato', '=', 'a.IdContrato')
            .where('r.TipoSolicitud', '=', 'D')
            .where('r.EstadoAprobacion', 'in', ['I', 'P', 'O'])
            .where((eb) =>
              eb.or([
                eb.and([eb('a.IdPersona', 'is not', null), eb('r.IdPersona', '=', eb.ref('a.IdPersona'))]),
                eb.and([eb('a.IdVehiculo', 'is not', null), eb('r.IdVehiculo', '=', eb.ref('a.IdVehiculo'))]),
              ]),
            ),
        ),
      ),
    );
    if (contract !== undefined) qb = qb.where('a.IdContrato', '=', contract);
    return (await qb.orderBy('a.IdAcreditacion').limit(2000).execute()) as Row[];
  }

  /**
   * POST crear (D): one demobilisation per accreditation selected (Acreditaciones, or
   * IdAcreditacion), with the observation required and the date (FechaDesmovilizacion, today by
   * default) today or later and within the accreditation; `attachment`: a letter every request
   * carries, already kept in the file store.
   */
  demobilise(
    requester: Requester,
    body: Body,
    attachment?: { ClaveArchivo: string; NombreArchivo: string; TipoArchivo: string },
  ) {
    const observation = upper(body.Observacion);
    const problems: Record<string, FieldProblem> = {};
    if (!observation) problems.Observacion = { messageKey: 'demobilisation.refusals.observationRequired' };
    const selected = idList(body.Acreditaciones ?? body.IdAcreditacion, 'Acreditaciones');
    if (!selected.length) problems.Acreditaciones = { messageKey: 'demobilisation.refusals.selectionEmpty' };
    else if (new Set(selected).size !== selected.length)
      problems.Acreditaciones = { messageKey: 'demobilisation.refusals.selectedTwice' };
    if (Object.keys(problems).length) throw new ApiError('VALIDATION_FAILED', { fields: problems });
    return this.fileFor(
      requester,
      'D',
      selected,
      observation,
      async (today) => {
        const date = body.FechaDesmovilizacion === undefined ? today : String(body.FechaDesmovilizacion);
        if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || date < today)
          throw new ApiError('VALIDATION_FAILED', {
            fields: {
              FechaDesmovilizacion: {
                messageKey: 'accreditation.refusals.startBeforeToday',
                params: { today: dmy(today) },
              },
            },
          });
        return { date };
      },
      attachment,
    );
  }

  /**
   * POST ampliar / cambiar (E, C): one request per accreditation selected to extend its end
   * (FechaFin, later than today's end and within its contract) or to move it to another contract
   * of the company (IdContrato, different from the current one, active, with the end within it).
   */
  changeContract(requester: Requester, body: Body, kind: 'E' | 'C') {
    const selected = idList(body.Acreditaciones ?? body.IdAcreditacion, 'Acreditaciones');
    if (!selected.length)
      throw new ApiError('VALIDATION_FAILED', {
        fields: { Acreditaciones: { messageKey: 'demobilisation.refusals.selectionEmpty' } },
      });
    const end = String(body.FechaFin ?? '');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(end))
      throw new ApiError('VALIDATION_FAILED', {
        fields: { FechaFin: { messageKey: 'validation.required' } },
      });
    const targetId = kind === 'C' ? idList(body.IdContrato, 'IdContrato')[0] : undefined;
    if (kind === 'C' && targetId === undefined)
      throw new ApiError('VALIDATION_FAILED', {
        fields: { IdContrato: { messageKey: 'validation.required' } },
      });
    return this.fileFor(requester, kind, selected, upper(body.Observacion), async (_today, trx) => {
      if (targetId === undefined) return { date: end };
      const visible = await this.engine.crud
        .within(trx)
        .findKeys(this.engine.registry.require('contract'), { IdContrato: targetId }, requester.principal);
      const target = visible.length ? await this.contract(trx, targetId) : undefined;
      if (!target || target.IdCompaniaContratista !== requester.companyId)
        throw new ApiError('MISSING_REFERENCE', {
          fields: {
            IdContrato: { messageKey: 'validation.referenceMissing', params: { resource: 'contract' } },
          },
        });
      if (target.Activo !== 'S')
        throw new ApiError('VALIDATION_FAILED', {
          fields: { IdContrato: { messageKey: 'accreditation.refusals.contractInactive' } },
        });
      return { date: end, target };
    });
  }

  private async contract(db: Db, id: number) {
    return (await db
      .selectFrom(this.engine.table('contract'))
      .select(['IdContrato', 'FechaInicio', 'FechaFin', 'Activo', 'IdCompaniaContratista'])
      .where('IdContrato', '=', id)
      .executeTakeFirst()) as Contract | undefined;
  }

  /** What stops one selected accreditation, if anything, for the filing's kind. */
  private async problemOf(
    db: Db,
    filing: Filing,
    row: AccreditationRow | undefined,
    id: number,
    open: Array<{
      IdSolicitud: number;
      IdPersona: number | null;
      IdVehiculo: number | null;
      IdContrato: number;
    }>,
  ): Promise<FieldProblem | undefined> {
    if (!row || (row.Estado !== 'A' && row.Estado !== 'S'))
      return { messageKey: 'demobilisation.refusals.notAccredited', params: { id } };
    const { kind, date, target, today } = filing;
    if (kind === 'D' && date > row.FechaFin) return outside(row);
    if (kind === 'E' && date <= row.FechaFin)
      return { messageKey: 'contractRequest.refusals.notLater', params: { end: row.FechaFin } };
    if (kind === 'C' && target?.IdContrato === row.IdContrato)
      return { messageKey: 'contractRequest.refusals.sameContract' };
    if (kind !== 'D') {
      const contract = target ?? (await this.contract(db, row.IdContrato));
      if (contract && (date > contract.FechaFin || date < today || date < contract.FechaInicio))
        return outside(contract);
    }
    // A demobilisation is open per holder and contract; an extension or change per holder.
    const twin = open.find(
      (o) =>
        (kind !== 'D' || o.IdContrato === row.IdContrato) &&
        ((row.IdPersona && o.IdPersona === row.IdPersona) ||
          (row.IdVehiculo && o.IdVehiculo === row.IdVehiculo)),
    );
    return twin
      ? { messageKey: 'accreditation.refusals.openRequestExists', params: { id: twin.IdSolicitud } }
      : undefined;
  }

  /** The request a filing makes for one accreditation: its header, and the values the server sets. */
  private headerOf(filing: Filing, row: AccreditationRow, profile: number | undefined): [Row, Row] {
    const { kind, date, target, today, observation } = filing;
    const holder = row.IdPersona ? { IdPersona: row.IdPersona } : { IdVehiculo: row.IdVehiculo };
    // A demobilisation's date, kept within the accreditation; an extension or change runs from today.
    const start = kind === 'D' ? (date < row.FechaInicio ? row.FechaInicio : date) : today;
    const header: Row = {
      TipoSolicitud: kind,
      IdEntidad: row.IdEntidad,
      IdContrato: target?.IdContrato ?? row.IdContrato,
      IdPerfilAcreditacion: profile,
      FechaInicio: start,
      FechaFin: kind === 'D' ? start : date,
      Observacion: observation || null,
      ...holder,
    };
    return [header, { SolicitudCompleta: 'S', IdContratoAnterior: kind === 'C' ? row.IdContrato : null }];
  }

  /**
   * Files and sends one request of `kind` per selected accreditation, all or nothing: `prepare`
   * reads the filing's date (and target contract) at the site's today, inside the transaction.
   */
  private async fileFor(
    requester: Requester,
    kind: AccreditedKind,
    selected: number[],
    observation: string,
    prepare: (today: string, trx: Db) => Promise<{ date: string; target?: Contract }>,
    attachment?: Row,
  ): Promise<{ Solicitudes: Row[] }> {
    const { engine } = this;
    const { principal } = requester;
    const created = await engine.filing(async (trx) => {
      const today = await engine.siteToday(trx, principal.divisionId as number);
      const filing: Filing = { kind, selected, observation, today, ...(await prepare(today, trx)) };
      const rows = (await trx
        .selectFrom(engine.table('accreditation'))
        .selectAll()
        .where('IdAcreditacion', 'in', selected)
        .where('IdCliente', '=', principal.clientId as number)
        .where('IdDivision', '=', principal.divisionId as number)
        .where('IdCompania', '=', requester.companyId)
        .where('IdEntidad', 'in', requester.entities.filter(holdsContract))
        .execute()) as AccreditationRow[];
      const open = (await trx
        .selectFrom(engine.table('request'))
        .select(['IdSolicitud', 'IdPersona', 'IdVehiculo', 'IdContrato'])
        .where('TipoSolicitud', '=', kind)
        .where('EstadoAprobacion', 'in', ['I', 'P', 'O'])
        .where('IdCliente', '=', principal.clientId as number)
        .where('IdCompania', '=', requester.companyId)
        .execute()) as Parameters<AccreditedChanges['problemOf']>[4];
      const byId = new Map(rows.map((r) => [r.IdAcreditacion, r]));
      const problems: Record<string, FieldProblem> = {};
      for (const [index, id] of selected.entries()) {
        const problem = await this.problemOf(trx, filing, byId.get(id), id, open);
        if (problem) problems[`Acreditaciones.${index}`] = problem;
      }
      const refusal = rowsStopped(problems);
      if (refusal) throw refusal;
      // The workers a change moves count against the new contract's endowment.
      const over =
        kind === 'C' && filing.target
          ? await this.endowment.check(trx, principal, {
              contract: filing.target.IdContrato,
              people: rows.flatMap((r) => (r.IdEntidad === 'T' && r.IdPersona ? [r.IdPersona] : [])),
            })
          : 'N';
      const out: Row[] = [];
      for (const id of selected) {
        const row = byId.get(id) as AccreditationRow;
        const origin = (await trx
          .selectFrom(engine.table('request'))
          .select('IdPerfilAcreditacion')
          .where('IdSolicitud', '=', row.IdSolicitud)
          .executeTakeFirst()) as { IdPerfilAcreditacion: number } | undefined;
        const [header, set] = this.headerOf(filing, row, origin?.IdPerfilAcreditacion);
        const made = await engine.file(trx, header, principal, {
          ...set,
          ...attachment,
          ExcedeDotacion: over,
        });
        const status = await engine.send(trx, made, principal, undefined, observation);
        out.push({ ...made, EstadoAprobacion: status, IdAcreditacion: id });
      }
      return out;
    });
    for (const request of created) await engine.notices.sent(request as Stored);
    return {
      Solicitudes: created.map((r) => ({
        IdSolicitud: r.IdSolicitud,
        IdAcreditacion: r.IdAcreditacion,
        EstadoAprobacion: r.EstadoAprobacion,
      })),
    };
  }

  /** One request of `kinds` with its accreditation, history and what its approval revoked. */
  async read(who: Requester | Authoriser, rawId: unknown, kinds: readonly AccreditedKind[]): Promise<Row> {
    const id = idOf(rawId, 'IdSolicitud');
    const { engine } = this;
    const db = engine.database.db;
    const request = await engine.load(db, who, id, false, kinds);
    const history = await db
      .selectFrom(engine.table('request-history'))
      .select(['Fecha', 'IdUsuario', 'Evento', 'EstadoAnterior', 'EstadoNuevo', 'Motivo'])
      .where('IdSolicitud', '=', id)
      .orderBy('IdHistorial')
      .execute();
    const revoked = await db
      .selectFrom(engine.table('revocation'))
      .select(['Recurso', 'IdRegistro', 'IdAcreditacion', 'Descripcion', 'Fecha'])
      .where('IdSolicitud', '=', id)
      .orderBy('IdRevocacion')
      .execute();
    // Whom it is for, as the lists name them.
    const holder = (
      request.IdPersona
        ? await db
            .selectFrom(engine.table('person'))
            .select(['Apellido', 'Nombre', 'Documento'])
            .where('IdPersona', '=', request.IdPersona)
            .executeTakeFirst()
        : await db
            .selectFrom(engine.table('vehicle'))
            .select(['Placa'])
            .where('IdVehiculo', '=', request.IdVehiculo as number)
            .executeTakeFirst()
    ) as Row | undefined;
    return {
      ...request,
      Nombres: holder ? (holder.Placa ?? `${holder.Apellido} ${holder.Nombre}`) : null,
      Documento: holder ? (holder.Placa ?? holder.Documento) : null,
      acreditacion: (await accreditationOf(engine, db, request)) ?? null,
      historial: history,
      revocados: revoked,
    };
  }
}
