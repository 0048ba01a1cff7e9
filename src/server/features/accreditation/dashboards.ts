import {
  cardIndex,
  ENTITY_CODES,
  type EntityCode,
  OVERDUE_ELSEWHEN_NAMES,
  OVERDUE_NAMES,
  typeConcerns,
} from '../../../shared/accreditation.js';
import type { Language } from '../../../shared/constants.js';
import type { DashboardKind } from '../../../shared/request-kinds.js';
import type { Db } from '../../db/connection.js';
import { t } from '../../i18n.js';
import type { Principal } from '../../principal.js';
import type { Registry } from '../../registry.js';
import type { Requester } from '../../services/requester.js';
import { divisionToday } from '../../site.js';
import { monthsOf } from './counts.js';
import type { Span } from './period.js';
import type { Authoriser } from './roles.js';

/** A request type (TipoSolicitud): M mobilisation, D demobilisation, A requirement update. */

/** A status row of a dashboard card (spec section 3, dashboard rows). */
export interface CardRow {
  ENTIDAD: EntityCode;
  ESTADO: string;
  DESCRIPCION: string;
  DESCRIPCION2: string;
  TOTAL: number;
  Value: string;
  Text: string;
  Index: number;
}

/** Observed requests past a correction deadline of one kind: of the dashboard's months, and of others. */
type Overdue = { IdEntidad: EntityCode; n: number | string; other: number | string };

const TOTAL_NAMES: Record<EntityCode, string> = {
  T: 'TOTAL_TRABAJADORES',
  V: 'TOTAL_VEHICULOS',
  P: 'TOTAL_VISITAS',
  E: 'TOTAL_EMPRESAS',
};

/** The requester's statuses (every one) and the authoriser's (from the sending on). */
const REQUESTER_STATUSES = ['I', 'P', 'O', 'R', 'A'];
const AUTHORISER_STATUSES = ['P', 'O', 'R', 'A'];

/**
 * The dashboards' counts of mobilisation requests per kind and status over a period (spec
 * sections 2 and 7), answered as the spec's positional arrays: the summary, then the worker,
 * vehicle and visit rows. One grouped count on the request table's covering indexes.
 */
export class Dashboards {
  constructor(
    private readonly db: Db,
    private readonly registry: Registry,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Observed requests with a line still observed after its correction deadline, per kind, in the
   * division and, for a requester, its company: `n` of the dashboard's months (a part of its
   * Observed count) and `other` of any other month (a lapse stays flagged until corrected).
   */
  private async overdue(
    principal: Principal,
    entities: EntityCode[],
    spans: Span[],
    kind: DashboardKind,
    company?: number,
  ): Promise<Overdue[]> {
    if (!entities.length) return [];
    const today = await divisionToday(this.db, this.registry, principal.divisionId as number, this.now());
    let qb = this.db
      .selectFrom(`${this.registry.require('request').table} as r`)
      .innerJoin(`${this.registry.require('request-detail').table} as d`, 'd.IdSolicitud', 'r.IdSolicitud')
      .select((eb) => {
        const inPeriod = eb.or(
          spans.map((s) => eb.and([eb('r.FechaSolicitud', '>=', s.from), eb('r.FechaSolicitud', '<', s.to)])),
        );
        const when = (yes: boolean) =>
          eb
            .case()
            .when(yes ? inPeriod : eb.not(inPeriod))
            .then(eb.ref('r.IdSolicitud'))
            .end();
        return [
          'r.IdEntidad',
          eb.fn.count(when(true)).distinct().as('n'),
          eb.fn.count(when(false)).distinct().as('other'),
        ];
      })
      .where('r.IdCliente', '=', principal.clientId as number)
      .where('r.IdDivision', '=', principal.divisionId as number)
      .where('r.EstadoAprobacion', '=', 'O')
      .where('r.TipoSolicitud', '=', kind)
      .where('r.IdEntidad', 'in', entities)
      .where('d.IdCliente', '=', principal.clientId as number)
      .where('d.EstadoAprobacion', '=', 'O')
      .where('d.FechaLimiteCorreccion', '<', today);
    if (company !== undefined) qb = qb.where('r.IdCompania', '=', company);
    return (await qb.groupBy('r.IdEntidad').execute()) as Overdue[];
  }

  /**
   * The grouped count of a dashboard, as a query (the benchmark runs this same statement on the
   * driver): a sum over the request counts of the months asked, not a count of the requests.
   */
  countsQuery(
    principal: Principal,
    entities: EntityCode[],
    spans: Span[],
    company?: number,
    kind: DashboardKind = 'M',
  ) {
    let qb = this.db
      .selectFrom(this.registry.require('request-count').table)
      .select(['IdEntidad', 'EstadoAprobacion', (eb) => eb.fn.sum('Cantidad').as('n')])
      .where('IdCliente', '=', principal.clientId as number)
      .where('IdDivision', '=', principal.divisionId as number);
    if (company !== undefined) qb = qb.where('IdCompania', '=', company);
    qb = qb
      .where('TipoSolicitud', '=', kind)
      .where('Mes', 'in', monthsOf(spans))
      .where('IdEntidad', 'in', entities);
    if (company === undefined) qb = qb.where('EstadoAprobacion', '<>', 'I');
    return qb.groupBy(['IdEntidad', 'EstadoAprobacion']);
  }

  private async counts(
    principal: Principal,
    entities: EntityCode[],
    spans: Span[],
    company?: number,
    kind: DashboardKind = 'M',
  ) {
    if (!entities.length) return [];
    return (await this.countsQuery(principal, entities, spans, company, kind).execute()) as Array<{
      IdEntidad: EntityCode;
      EstadoAprobacion: string;
      n: number | string;
    }>;
  }

  private answer(
    language: Language,
    shown: EntityCode[],
    statuses: string[],
    counts: Array<{ IdEntidad: EntityCode; EstadoAprobacion: string; n: number | string }>,
    overdue: Overdue[],
  ): [Record<string, number>[], ...CardRow[][]] {
    const count = (entity: EntityCode, status: string) =>
      Number(counts.find((c) => c.IdEntidad === entity && c.EstadoAprobacion === status)?.n ?? 0);
    const summary = Object.fromEntries([
      ...ENTITY_CODES.map((e) => [TOTAL_NAMES[e], statuses.reduce((sum, s) => sum + count(e, s), 0)]),
      ...ENTITY_CODES.flatMap((e) => {
        const found = overdue.find((o) => o.IdEntidad === e);
        return [
          [OVERDUE_NAMES[e], Number(found?.n ?? 0)],
          [OVERDUE_ELSEWHEN_NAMES[e], Number(found?.other ?? 0)],
        ];
      }),
    ]);
    const rows = ENTITY_CODES.map((entity) =>
      shown.includes(entity)
        ? statuses
            .map((status) => {
              const text = t(language, `enums.requestStatus.${status}`);
              return {
                ENTIDAD: entity,
                ESTADO: status,
                DESCRIPCION: text,
                DESCRIPCION2: t(language, `accreditation.entities.${entity}`),
                TOTAL: count(entity, status),
                Value: status,
                Text: text,
                Index: cardIndex(status),
              };
            })
            .sort((a, b) => a.Index - b.Index)
        : [],
    );
    return [[summary], ...rows];
  }

  /** The kinds the requester's profile may see on its dashboard: its menu's, and the view permissions' (Tipo M, Ver S). */
  async shownToRequester(requester: Requester, kind: DashboardKind = 'M'): Promise<EntityCode[]> {
    const { principal } = requester;
    const rows = (await this.db
      .selectFrom(this.registry.require('view-permission').table)
      .select(['IdEntidad', 'Ver'])
      .where('IdCliente', '=', principal.clientId as number)
      .where('IdPerfil', '=', principal.profileId as number)
      .where('Tipo', '=', kind)
      .execute()) as Array<{ IdEntidad: EntityCode; Ver: string }>;
    return requester.entities.filter((e) => rows.some((r) => r.IdEntidad === e && r.Ver === 'S'));
  }

  async requester(requester: Requester, spans: Span[], language: Language, kind: DashboardKind = 'M') {
    const shown = (await this.shownToRequester(requester, kind)).filter((e) => typeConcerns(kind, e));
    const counts = await this.counts(requester.principal, shown, spans, requester.companyId, kind);
    const overdue = await this.overdue(requester.principal, shown, spans, kind, requester.companyId);
    return this.answer(language, shown, REQUESTER_STATUSES, counts, overdue);
  }

  async authoriser(authoriser: Authoriser, spans: Span[], language: Language, kind: DashboardKind = 'M') {
    // Demobilisation is for workers and vehicles only; requirement update for every renewed kind.
    const shown = authoriser.entities.filter((e) => typeConcerns(kind, e));
    const counts = await this.counts(authoriser.principal, shown, spans, undefined, kind);
    const overdue = await this.overdue(authoriser.principal, shown, spans, kind);
    return this.answer(language, shown, AUTHORISER_STATUSES, counts, overdue);
  }
}
