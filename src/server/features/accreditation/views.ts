import {
  EVENT_FOR_STATUS,
  type LineStatus,
  requirementApprovalMachine,
} from '../../../../workflows/requirement-approval.machine.js';
import {
  COMPANY_FIELDS,
  type EntityCode,
  HOLDER_COLUMN,
  PERSON_FIELDS,
  requestNumber,
  VEHICLE_FIELDS,
} from '../../../shared/accreditation.js';

/** The record each kind of request shows of its holder: the person, the vehicle or the company. */
const HOLDER_VIEW: Partial<Record<EntityCode, { resource: string; fields: string[] }>> = {
  T: { resource: 'person', fields: ['IdPersona', ...PERSON_FIELDS] },
  V: { resource: 'vehicle', fields: ['IdVehiculo', ...VEHICLE_FIELDS] },
  E: { resource: 'company', fields: [...COMPANY_FIELDS] },
};

import type { SensitiveClass } from '../../../shared/data-classes.js';
import type { ApiRecord, Row } from '../../crud/types.js';
import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import type { Registry } from '../../registry.js';
import { answerSensitive, logSensitiveReads, type SensitiveRead } from '../../services/privacy.js';
import type { Requester } from '../../services/requester.js';
import { type Line, lineFacts } from './lines.js';
import type { RequestServices } from './request-services.js';
import type { Authoriser } from './roles.js';

const STATUSES: LineStatus[] = ['P', 'A', 'R', 'O'];

/** What the request screens read: the record with its context, its lines, its files. */
export class RequestViews {
  constructor(
    private readonly db: Db,
    private readonly registry: Registry,
    private readonly services: RequestServices,
  ) {}

  private table(name: string) {
    return this.registry.require(name).table;
  }

  private async one(resource: string, key: string, id: unknown, columns: readonly string[]) {
    if (id === null || id === undefined) return undefined;
    return (await this.db
      .selectFrom(this.table(resource))
      .select([...columns])
      .where(key, '=', id)
      .executeTakeFirst()) as Row | undefined;
  }

  /**
   * obtenersolicitud / obtenersolicitudbyautorizador: the request record of spec section 3 (the
   * worker's fields, the vehicle's or the visitors), its read-only context (companies, division,
   * profile, contract), its history, and the facts the request machine decides the buttons on.
   */
  async record(who: Requester | Authoriser, id: number, origin: string): Promise<Row> {
    const request = await this.services.engine.load(this.db, who, id);
    const contract = await this.one('contract', 'IdContrato', request.IdContrato, [
      'NumeroContrato',
      'Asunto',
      'FechaInicio',
      'FechaFin',
      'IdCompaniaMandante',
    ]);
    const company = (key: unknown) => this.one('company', 'IdCompania', key, ['Compania', 'Documento']);
    const profile = await this.one(
      'accreditation-profile',
      'IdPerfilAcreditacion',
      request.IdPerfilAcreditacion,
      ['Descripcion'],
    );
    const division = await this.one('division', 'IdDivision', request.IdDivision, ['Division']);
    // What the request is about, as its form shows it (a visit's are its visitors, below).
    const shown = HOLDER_VIEW[request.IdEntidad as EntityCode];
    const holder =
      shown &&
      (await this.one(
        shown.resource,
        HOLDER_COLUMN[request.IdEntidad],
        request[HOLDER_COLUMN[request.IdEntidad]],
        shown.fields,
      ));
    // The worker's health data as the caller may read them (masked, or read and logged).
    if (holder && shown)
      await answerSensitive(
        this.db,
        this.registry,
        this.registry.require(shown.resource),
        [holder as ApiRecord],
        who.principal,
        origin,
      );
    const {
      facts,
      profile: evaluated,
      lines,
    } = await this.services.mobilisations.facts(this.db, request, who.principal);
    // For an authoriser, whether the request as a whole is its to decide (and why not).
    const decision =
      'companyId' in who || request.EstadoAprobacion !== 'P'
        ? undefined
        : this.services.decisions.wholeDecisionOf(
            who,
            request,
            evaluated,
            lines,
            await this.services.decisions.approvers(this.db, request),
          );
    const history = await this.db
      .selectFrom(this.table('request-history'))
      .select(['Fecha', 'IdUsuario', 'Evento', 'EstadoAnterior', 'EstadoNuevo', 'Motivo'])
      .where('IdSolicitud', '=', id)
      .orderBy('IdHistorial')
      .execute();
    return {
      ...holder,
      ...request,
      NumeroSolicitud: requestNumber(id),
      Visitantes: request.IdEntidad === 'P' ? await this.services.engine.visitors(this.db, id) : undefined,
      // A company's own request has read its company already.
      CompaniaContratista: ((request.IdEntidad === 'E' ? holder : await company(request.IdCompania))
        ?.Compania ?? null) as string | null,
      CompaniaMandante: (await company(contract?.IdCompaniaMandante))?.Compania ?? null,
      Division: division?.Division ?? null,
      Perfil: profile?.Descripcion ?? null,
      NumeroContrato: contract?.NumeroContrato ?? null,
      Asunto: contract?.Asunto ?? null,
      FechaInicioContrato: contract?.FechaInicio ?? null,
      FechaFinContrato: contract?.FechaFin ?? null,
      DatosAdicionales: await this.services.mobilisations.additional.of(this.db, request),
      hechos: facts,
      Decision: decision,
      historial: history,
    };
  }

  /**
   * acreditacionsolicituddetalle/obtener (and obtenerbyautorizador): the requirement items of
   * the request's form in four arrays, as the spec loads them: the requester's items, the
   * authoriser's, the groups (requirement types) and the lists' choices. Each item says whether
   * it is read-only for the caller and, for an authoriser, which states it may take.
   */
  async detail(
    who: Requester | Authoriser,
    id: number,
    origin: string,
  ): Promise<[Row[], Row[], Row[], Row[]]> {
    const request = await this.services.engine.load(this.db, who, id);
    const reads: SensitiveRead[] = [];
    const lineEntity = this.registry.require('request-detail');
    const profile = await this.services.engine.profileOf(this.db, request);
    const lines = await this.services.engine.lines(this.db, id);
    const asAuthoriser = !('companyId' in who);
    const { evaluable, waits } = asAuthoriser
      ? this.services.decisions.turns(
          who,
          request,
          profile,
          lines,
          await this.services.decisions.approvers(this.db, request),
        )
      : { evaluable: new Set<number>(), waits: new Map<number, Line[]>() };
    // A line named as a person reads it: its requirement and datum.
    const names = new Map(
      profile.requirements.flatMap((r) =>
        r.data.map((d) => [d.IdDatoEvaluar, `${r.Requisito} · ${d.DatoEvaluar}`]),
      ),
    );
    const editable = request.EstadoAprobacion === 'I' || request.EstadoAprobacion === 'O';
    const items = (type: 'S' | 'A') => {
      const out: Row[] = [];
      let index = 0;
      for (const requirement of profile.requirements.filter((r) => r.TipoRequisito === type))
        for (const datum of requirement.data)
          for (const line of lines.filter((l) => l.IdDatoEvaluar === datum.IdDatoEvaluar)) {
            // A requirement's sensitive data (a medical examination's) as the caller may read them.
            const dataClass = requirement.ClaseDato;
            const hidden = dataClass !== null && !who.principal.sensitive?.has(dataClass);
            if (dataClass && !hidden && line.Valor !== null)
              reads.push({ entity: lineEntity, record: line as unknown as Row, field: 'Valor', dataClass });
            const options =
              asAuthoriser && request.EstadoAprobacion === 'P' ? this.options(line, lines, evaluable) : [];
            out.push({
              Index: index++,
              IdSecuencial: line.IdDetalle,
              IdSolicitud: id,
              IdVisitaPersona: line.IdVisitaPersona,
              IdRequisito: requirement.IdRequisito,
              Requisito: requirement.Requisito,
              IdTipoRequisito: requirement.IdTipoRequisito,
              IdDatoEvaluar: datum.IdDatoEvaluar,
              Text: datum.DatoEvaluar,
              Tipo: datum.Tipo,
              Value: hidden ? null : line.Valor,
              Protegido: hidden ? dataClass : null,
              TipoRequisito: requirement.TipoRequisito,
              Obligatorio: requirement.Obligatorio,
              Aprobar: datum.Aprobar,
              AdjuntarArchivo: datum.AdjuntarArchivo,
              DatoOpcional: datum.DatoOpcional,
              Vencimiento: datum.Vencimiento,
              EstadoAprobacion: line.EstadoAprobacion,
              Observacion: line.Observacion,
              NombreArchivo: line.NombreArchivo,
              TieneArchivo: line.ClaveArchivo ? 'S' : 'N',
              IdUsuarioAprobacion: line.IdUsuarioAprobacion,
              FechaAprobacion: line.FechaAprobacion,
              FechaLimiteCorreccion: line.FechaLimiteCorreccion ?? null,
              IdSolicitudOrigen: line.IdSolicitudOrigen ?? null,
              // A value its source proved (a passed induction): the source, its facts, its certificate.
              Fuente: line.Fuente ?? null,
              DetalleFuente: line.DetalleFuente ?? null,
              EnlaceFuente: line.EnlaceFuente ?? null,
              opciones: options,
              // The lines this authoriser's line waits for before it may be approved.
              Espera:
                asAuthoriser && request.EstadoAprobacion === 'P'
                  ? [
                      ...new Set(
                        (waits.get(line.IdDetalle as number) ?? []).map((w) => names.get(w.IdDatoEvaluar)),
                      ),
                    ]
                  : [],
              readOnly:
                hidden ||
                (asAuthoriser
                  ? options.length <= 1 && !(type === 'A' && evaluable.has(line.IdDetalle as number))
                  : !editable ||
                    type === 'A' ||
                    (request.EstadoAprobacion === 'O' && line.EstadoAprobacion === 'A') ||
                    // A value carried over from the holder's accreditation is not asked again.
                    (Boolean(line.IdSolicitudOrigen) && line.EstadoAprobacion !== 'O') ||
                    // Nor one its source proves: the source's record is the evidence.
                    Boolean(line.Fuente)),
            });
          }
      return out;
    };
    const groups = [
      ...new Map(profile.requirements.map((r) => [r.IdTipoRequisito, r.TipoRequisitoDescripcion])),
    ].map(([IdTipoRequisito, Descripcion]) => ({
      IdTipoRequisito,
      Descripcion,
      Requisitos: profile.requirements
        .filter((r) => r.IdTipoRequisito === IdTipoRequisito)
        .map((r) => r.IdRequisito),
    }));
    const lists = profile.requirements.flatMap((r) =>
      r.data.flatMap((d) => d.choices.map((c) => ({ IdDatoEvaluar: d.IdDatoEvaluar, ...c }))),
    );
    const result: [Row[], Row[], Row[], Row[]] = [items('S'), items('A'), groups, lists];
    await logSensitiveReads(
      this.db,
      this.registry,
      await this.aboutWhom(request, reads),
      who.principal,
      origin,
    );
    return result;
  }

  /** The states a line may take for this authoriser: its own, and those the approval machine allows. */
  private options(line: Line, lines: Line[], evaluable: Set<number>): LineStatus[] {
    if (line.EstadoAprobacion === null || !evaluable.has(line.IdDetalle as number)) return [];
    const snapshot = requirementApprovalMachine.resolveState({
      value: line.EstadoAprobacion,
      context: lineFacts(line, lines),
    });
    return STATUSES.filter((s) => s === line.EstadoAprobacion || snapshot.can({ type: EVENT_FOR_STATUS[s] }));
  }

  /**
   * The person each read is about: the request's worker, or the visitor whose line it is (the
   * visitor's person once registered).
   */
  private async aboutWhom(request: Row, reads: SensitiveRead[]): Promise<SensitiveRead[]> {
    if (!reads.length) return reads;
    const visitors = new Map<number, number | null>();
    if (reads.some((r) => r.record.IdVisitaPersona != null))
      for (const v of await this.services.engine.visitors(this.db, Number(request.IdSolicitud)))
        visitors.set(Number(v.IdVisitaPersona), v.IdPersona == null ? null : Number(v.IdPersona));
    return reads.map((read) => ({
      ...read,
      person:
        read.record.IdVisitaPersona != null
          ? (visitors.get(Number(read.record.IdVisitaPersona)) ?? null)
          : ((request.IdPersona as number | null) ?? null),
    }));
  }

  /**
   * downloadFileBase64: a line's file, base64, for a caller who may see the request. The file of a
   * requirement holding sensitive data (a medical examination) only for a profile that reads that
   * class, and the read logged.
   */
  async download(who: Requester | Authoriser, id: number, lineId: number, origin: string) {
    const request = await this.services.engine.load(this.db, who, id);
    const line = (await this.services.engine.lines(this.db, id)).find((l) => l.IdDetalle === lineId);
    if (!line) throw new ApiError('NOT_FOUND', { params: { resource: 'request-detail', id: lineId } });
    const requirement = await this.one('requirement', 'IdRequisito', line.IdRequisito, ['ClaseDato']);
    const dataClass = (requirement?.ClaseDato ?? null) as SensitiveClass | null;
    if (dataClass && !who.principal.sensitive?.has(dataClass))
      throw new ApiError('FORBIDDEN', { messageKey: `privacy.fileProtected.${dataClass}` });
    if (dataClass && line.ClaveArchivo) {
      const entity = this.registry.require('request-detail');
      const read = { entity, record: line as unknown as Row, field: 'ClaveArchivo', dataClass };
      await logSensitiveReads(
        this.db,
        this.registry,
        await this.aboutWhom(request, [read]),
        who.principal,
        origin,
      );
    }
    const bytes = line.ClaveArchivo ? await this.services.engine.files.get(line.ClaveArchivo) : undefined;
    if (!bytes) throw new ApiError('NOT_FOUND', { messageKey: 'ACCREDITATION.REQUEST.NOTFILE' });
    return { file: bytes.toString('base64'), name: line.NombreArchivo, type: line.TipoArchivo };
  }

  /** The request's photo, base64. */
  async photo(who: Requester | Authoriser, id: number) {
    const request = await this.services.engine.load(this.db, who, id);
    const bytes = request.ClaveFoto
      ? await this.services.engine.files.get(String(request.ClaveFoto))
      : undefined;
    if (!bytes) throw new ApiError('NOT_FOUND', { messageKey: 'ACCREDITATION.REQUEST.NOTFILE' });
    return { file: bytes.toString('base64'), name: `foto-${requestNumber(id)}`, type: null };
  }
}
