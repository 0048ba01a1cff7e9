import { CONTRACT_HOLDERS, ENTITY_CODES, type EntityCode, HOLDER_TYPES } from './accreditation.js';

/**
 * A kind of request (TipoSolicitud, spec section 3): what it is called, where its screens live,
 * whether it carries requirement lines evaluated one by one, and which holders it concerns. The
 * server's kinds, the console's screens, the dashboards, queries and exports read this one table.
 */
export interface RequestKindDef {
  /** The area segment of its screens and menu routes (/movilizacion/solicitante/persona, …). */
  area: string;
  /** Its requests carry requirement lines, each evaluated, observed or rejected on its own. */
  lines: boolean;
  /**
   * Its requests renew some requirements of an accreditation: they are evaluated on the profile's
   * requirements they carry lines for, not on the whole profile.
   */
  renews?: boolean;
  /** The holders it concerns. */
  holders: readonly EntityCode[];
}

/** The request kinds: M mobilisation, D demobilisation, A requirement update, E contract extension, C contract change. */
export const REQUEST_KINDS = {
  M: { area: 'movilizacion', lines: true, holders: ENTITY_CODES },
  D: { area: 'desmovilizacion', lines: false, holders: CONTRACT_HOLDERS },
  A: {
    area: 'requisito',
    lines: true,
    renews: true,
    holders: ENTITY_CODES.filter((e) => HOLDER_TYPES[e].renewed),
  },
  E: { area: 'contrato', lines: false, holders: CONTRACT_HOLDERS },
  C: { area: 'contrato', lines: false, holders: CONTRACT_HOLDERS },
} as const satisfies Record<string, RequestKindDef>;

export type RequestKind = keyof typeof REQUEST_KINDS;
export const REQUEST_KIND_CODES = Object.keys(REQUEST_KINDS) as RequestKind[];

/** The kinds whose requests carry requirement lines, evaluated one by one. */
export const LINE_KINDS: ReadonlySet<RequestKind> = new Set(
  REQUEST_KIND_CODES.filter((k) => REQUEST_KINDS[k].lines),
);

/** The kinds with a dashboard tab (spec section 2): mobilisation, demobilisation, requirement update. */
export type DashboardKind = Extract<RequestKind, 'M' | 'D' | 'A'>;
