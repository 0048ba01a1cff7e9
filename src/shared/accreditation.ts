/**
 * The accreditation module's rules that the server and the console both apply: the kinds of
 * holder and their routes, request numbers, requirement values by data type, and files.
 */
import { REQUEST_NUMBER_DIGITS } from './constants.js';

/**
 * The kinds of holder (spec section 3): T worker, V vehicle, P visit, and E a contractor company
 * itself (spec section 2: requests and approvals of companies), accredited in a division before
 * or beside its people.
 */
export type EntityCode = 'T' | 'V' | 'P' | 'E';

/** What the server, the console, the dashboards and the queries need to know of a kind of holder. */
export interface HolderType {
  /** The route segment of its screens (spec section 2: movilizacion/solicitante/persona, …). */
  route: 'persona' | 'vehiculo' | 'visita' | 'empresa';
  /** The column that names the holder where one is kept (a visit's visitors are people). */
  column: 'IdPersona' | 'IdVehiculo' | 'IdCompania';
  /**
   * Accredited for a contract: a demobilisation ends its accreditation, an extension or a contract
   * change moves it (a visit ends with its days; a company is accredited in the division).
   */
  contract: boolean;
  /** A requirement update renews it (the contract's holders, a visit's visitors, and a company's own requirements). */
  renewed: boolean;
  /**
   * A dashboard summary's counts of observed requests past a correction deadline: of the
   * dashboard's months (counted in its Observed row too), and of the months outside them.
   */
  overdue: string;
  overdueElsewhen: string;
}

/** The kinds of holder, in the order the product shows them; one row each, read everywhere. */
export const HOLDER_TYPES: Readonly<Record<EntityCode, HolderType>> = {
  T: {
    route: 'persona',
    column: 'IdPersona',
    contract: true,
    renewed: true,
    overdue: 'CORRECCION_VENCIDA_TRABAJADORES',
    overdueElsewhen: 'CORRECCION_VENCIDA_OTROS_MESES_TRABAJADORES',
  },
  V: {
    route: 'vehiculo',
    column: 'IdVehiculo',
    contract: true,
    renewed: true,
    overdue: 'CORRECCION_VENCIDA_VEHICULOS',
    overdueElsewhen: 'CORRECCION_VENCIDA_OTROS_MESES_VEHICULOS',
  },
  P: {
    route: 'visita',
    column: 'IdPersona',
    contract: false,
    renewed: true,
    overdue: 'CORRECCION_VENCIDA_VISITAS',
    overdueElsewhen: 'CORRECCION_VENCIDA_OTROS_MESES_VISITAS',
  },
  E: {
    route: 'empresa',
    column: 'IdCompania',
    contract: false,
    renewed: true,
    overdue: 'CORRECCION_VENCIDA_EMPRESAS',
    overdueElsewhen: 'CORRECCION_VENCIDA_OTROS_MESES_EMPRESAS',
  },
};

export const ENTITY_CODES: readonly EntityCode[] = Object.keys(HOLDER_TYPES) as EntityCode[];

const byHolder = <T>(pick: (holder: HolderType) => T): Record<EntityCode, T> =>
  Object.fromEntries(ENTITY_CODES.map((code) => [code, pick(HOLDER_TYPES[code])])) as Record<EntityCode, T>;

/** What a company's own request shows of it (its data are the company's, kept by the administration). */
export const COMPANY_FIELDS = [
  'Documento',
  'Compania',
  'Alias',
  'Direccion',
  'NombreContacto',
  'TelefonoContacto',
  'CorreoContacto',
] as const;

/** The kinds accredited for a contract (HolderType.contract): workers and vehicles. */
export const holdsContract = (entity: EntityCode): entity is 'T' | 'V' => HOLDER_TYPES[entity].contract;
export const CONTRACT_HOLDERS: readonly EntityCode[] = ENTITY_CODES.filter(holdsContract);

/**
 * The holders a request type concerns (a dashboard tab's cards): every kind is mobilised, workers
 * and vehicles are demobilised, and workers, vehicles, visits (each visitor) and companies have
 * requirements renewed.
 */
export const typeConcerns = (type: 'M' | 'D' | 'A', entity: EntityCode): boolean =>
  type === 'M' || (type === 'D' ? HOLDER_TYPES[entity].contract : HOLDER_TYPES[entity].renewed);

/** The column that names a holder of each kind where one is kept (a visit's visitors are people). */
export const HOLDER_COLUMN = byHolder((h) => h.column);

/** A dashboard summary's count of observed requests past a correction deadline, per kind. */
export const OVERDUE_NAMES = byHolder((h) => h.overdue);
export const OVERDUE_ELSEWHEN_NAMES = byHolder((h) => h.overdueElsewhen);

/** The route segment of each kind (spec section 2: movilizacion/solicitante/persona, /vehiculo, /visita, /empresa). */
export const ENTITY_ROUTE = byHolder((h) => h.route);

/** The kind of holder a route segment names (persona → T, …, empresa → E). */
export const KIND_OF_SEGMENT: Readonly<Record<string, EntityCode>> = Object.fromEntries(
  Object.entries(ENTITY_ROUTE).map(([entity, segment]) => [segment, entity as EntityCode]),
);

/** The routes a profile's menu must hold to work on requests of a kind, as requester or authoriser. */
export function requestRoute(side: 'solicitante' | 'autorizador', entity: EntityCode): string {
  return `/movilizacion/${side}/${ENTITY_ROUTE[entity]}`;
}

export function isEntityCode(value: unknown): value is EntityCode {
  return typeof value === 'string' && Object.hasOwn(HOLDER_TYPES, value);
}

/** A request number as the spec shows it: padded to 8 digits. */
export function requestNumber(id: number | string): string {
  return String(id).padStart(REQUEST_NUMBER_DIGITS, '0');
}

/** Card ordering index of a status on the dashboards (spec section 4): P is 1, R is 3, any other 2. */
export function cardIndex(status: string): number {
  if (status === 'P') return 1;
  if (status === 'R') return 3;
  return 2;
}

/** Requirement data types (spec section 3): N number, T text, F date, L list, G group header, A/R text areas, B yes or no. */
export type DatumType = 'N' | 'T' | 'F' | 'L' | 'G' | 'A' | 'R' | 'B';

/** Longest value of each data type (spec section 5: text 50, number 200, area 1000). */
export const DATUM_MAX_LENGTH: Record<DatumType, number> = {
  N: 200,
  T: 50,
  F: 10,
  L: 20,
  G: 0,
  A: 1000,
  R: 1000,
  B: 1,
};

export interface DatumRule {
  Tipo: DatumType;
  /** The list's choices (IdDato), for a list datum. */
  choices?: readonly string[];
}

/**
 * A requirement value as it is kept: trimmed and upper-cased (spec section 5), dates from the
 * spec's yyyyMMdd or ISO to ISO, checked against the datum's type. An empty value is undefined.
 */
export function normaliseValue(
  rule: DatumRule,
  raw: unknown,
): { value?: string; problem?: { messageKey: string; params?: Record<string, number> } } {
  if (raw === undefined || raw === null) return {};
  const text = String(raw).trim().toLocaleUpperCase('es');
  if (!text || rule.Tipo === 'G') return {};
  const max = DATUM_MAX_LENGTH[rule.Tipo];
  switch (rule.Tipo) {
    case 'N':
      if (!/^-?\d+([.,]\d+)?$/.test(text)) return { problem: { messageKey: 'validation.type.number' } };
      break;
    case 'F': {
      const iso = /^\d{8}$/.test(text) ? `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6)}` : text;
      const date = new Date(`${iso}T00:00:00Z`);
      if (
        !/^\d{4}-\d{2}-\d{2}$/.test(iso) ||
        Number.isNaN(date.getTime()) ||
        date.toISOString().slice(0, 10) !== iso
      )
        return { problem: { messageKey: 'validation.format.date' } };
      return { value: iso };
    }
    case 'L':
      if (!rule.choices?.includes(text)) return { problem: { messageKey: 'validation.enum' } };
      break;
    case 'B':
      if (text !== 'S' && text !== 'N') return { problem: { messageKey: 'validation.enum' } };
      break;
  }
  if (text.length > max) return { problem: { messageKey: 'validation.maxLength', params: { limit: max } } };
  return { value: text };
}

/** The kinds of file a request takes, known by their first bytes, never by their name. */
export type FileKind = 'pdf' | 'png' | 'jpeg';

export function fileKindOf(bytes: Uint8Array): FileKind | undefined {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return 'pdf';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (starts(0xff, 0xd8, 0xff)) return 'jpeg';
  return undefined;
}

export const MIME_OF: Record<FileKind, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
};

/** Width and height of a PNG or JPEG, read from its header; undefined when it cannot be read. */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const kind = fileKindOf(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (kind === 'png' && bytes.length >= 24) return { width: view.getUint32(16), height: view.getUint32(20) };
  if (kind !== 'jpeg') return undefined;
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1];
    const length = view.getUint16(offset + 2);
    // Start-of-frame markers carry the size (not the DHT, JPG and DAC markers among them).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { height: view.getUint16(offset + 5), width: view.getUint16(offset + 7) };
    offset += 2 + length;
  }
  return undefined;
}

/** The person's fields a worker's request carries (spec section 3, request record): who the worker is. */
export const PERSON_FIELDS = [
  'IdTipoDocumento',
  'Documento',
  'Apellido',
  'Nombre',
  'Sexo',
  'FechaNacimiento',
  'IdPaisNacimiento',
  'LugarNacimiento',
  'IdUbigeoNacimiento',
  'IdPaisResidencia',
  'LugarResidencia',
  'IdUbigeoResidencia',
  'Direccion',
  'IdTipoSangre',
  'IdEstadoCivil',
  'NumeroHijos',
  'Alergia',
  'Discapacidad',
  'IdPaisLicenciaConducir',
  'IdLicenciaConducir',
  'NumeroLicenciaConducir',
  'TelefonoMovil',
  'TelefonoFijo',
  'Email',
  'EmergenciaNombre',
  'EmergenciaTelefono',
] as const;

/** A visitor's fields on a visit's request (visit-person): who the visitor is. */
export const VISITOR_FIELDS = ['IdTipoDocumento', 'Documento', 'Apellido', 'Nombre', 'Email'] as const;

/** The vehicle's fields a vehicle's request carries. */
export const VEHICLE_FIELDS = [
  'Placa',
  'IdTipoVehiculo',
  'IdMarca',
  'Modelo',
  'IdColor',
  'Serie',
  'IdCombustible',
  'Potencia',
  'Anio',
  'NumeroPasajeros',
  'Caracteristicas',
  'ModoMarcacion',
] as const;

/** The request's own fields a requester writes. */
export const HEADER_FIELDS = [
  'IdEntidad',
  'IdContrato',
  'IdPerfilAcreditacion',
  'IdResponsable',
  'MotivoVisita',
  'NumeroVisitantes',
  'IdUnidadOrganizativa',
  'IdCentroCosto',
  'IdPosicion',
  'IdFuncion',
  'LugarSolicitud',
  'FechaInicio',
  'FechaFin',
  'Observacion',
] as const;
