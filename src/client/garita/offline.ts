/**
 * The gate app's offline judgement: the signed allow-list a control point's device downloads, its
 * signature checked in the browser, its versions merged, and each presentation (a badge's token or a
 * document) decided with the server's own decision function (src/shared/access/decision.ts) over rows
 * rebuilt from the list. Pure: no DOM, no storage; the clock and the list are given.
 */

import type { AllowEntry, DeniedEntry, ListDoor } from '../../shared/access/allow-list.js';
import {
  type AccessAssignment,
  type Credential,
  type DecisionInput,
  type Direction,
  type Door,
  type Driver,
  decide,
  type HeldQualification,
  type Holder,
  type Presented,
  type ReasonCode,
  type RequiredQualification,
  reasonMessageKey,
  type SiteAccess,
} from '../../shared/access/decision.js';
import { presentedByReading, type ReadingConfig } from '../../shared/access/reading.js';
import { fromBase64url, TOKEN_PREFIX, verifyToken } from '../../shared/badge-token.js';
import type { MessageParams } from '../../shared/errors.js';

/** What every payload carries, whole or a diff. */
interface PayloadHead {
  puntoControl: number;
  version: number;
  generado: string;
  zonaHoraria: string;
  cliente: number;
  division: number;
  descripcion: string;
  avisoHoras: number;
  limiteHoras: number;
  puertas: ListDoor[];
  denegados: DeniedEntry[];
  /** The equipment's reading configuration: how a scanned or typed code is cut and what it names. */
  lectura?: ReadingConfig | null;
}
export type Payload = PayloadHead &
  (
    | { completo: true; entradas: AllowEntry[] }
    | { completo: false; desde: number; cambios: AllowEntry[]; retirados: string[] }
  );

/** The list as the device keeps it: the last payload's head and every entry. */
export type AllowList = PayloadHead & { entradas: AllowEntry[] };

/** Reasons of the gate app's own, beside the decision's. */
const GATE_REASONS = ['TOKEN_MALFORMED', 'TOKEN_FORGED', 'TOKEN_OTHER_CLIENT', 'LIST_TOO_OLD'] as const;
export type GateReason = ReasonCode | (typeof GATE_REASONS)[number];

export interface GateAnswer {
  allow: boolean;
  reason: GateReason;
  messageKey: string;
  params?: MessageParams;
  lenientExit?: true;
  /** The holder's name, when the list knows who was presented. */
  name?: string;
  /** What the marking sends: the credential number, the document or the plate; none for a token not genuine. */
  marking?: ({ Credencial: string } | { Documento: string } | { Placa: string }) & { Conductor?: string };
}

/** Whether `signature` (base64) is the Ed25519 signature of the payload's text. */
export async function payloadGenuine(payload: string, signature: string, key: CryptoKey): Promise<boolean> {
  const bytes = fromBase64url(signature.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, ''));
  if (bytes?.length !== 64) return false;
  return crypto.subtle.verify(
    { name: 'Ed25519' },
    key,
    bytes as BufferSource,
    new TextEncoder().encode(payload) as BufferSource,
  );
}

/**
 * The list after a verified payload: a whole one replaces it; a diff is merged into the version it
 * names. Undefined when a diff does not follow the list held (then the whole list is asked again).
 */
export function applyPayload(held: AllowList | undefined, payload: Payload): AllowList | undefined {
  const { completo: _, ...head } = payload;
  if (payload.completo) {
    const { entradas } = payload;
    return { ...stripBody(head), entradas };
  }
  if (!held || held.puntoControl !== payload.puntoControl || held.version !== payload.desde) return undefined;
  const changed = new Map(payload.cambios.map((e) => [e.Titular, e]));
  const removed = new Set(payload.retirados);
  const entradas = held.entradas
    .filter((e) => !removed.has(e.Titular) && !changed.has(e.Titular))
    .concat(payload.cambios)
    .sort((a, b) => a.Titular.localeCompare(b.Titular));
  return { ...stripBody(head), entradas };
}

function stripBody(head: Record<string, unknown>): PayloadHead {
  const { entradas: _e, cambios: _c, retirados: _r, desde: _d, ...rest } = head;
  return rest as unknown as PayloadHead;
}

/** A list's lookups by credential number, by a person's document and by a vehicle's plate, made once per version. */
export interface IndexedList {
  list: AllowList;
  byCard: Map<string, { entry: AllowEntry; active: boolean } | { denied: DeniedEntry }>;
  byDocument: Map<string, { entry: AllowEntry } | { denied: DeniedEntry }>;
  byPlate: Map<string, { entry: AllowEntry } | { denied: DeniedEntry }>;
}

export function indexList(list: AllowList): IndexedList {
  const byCard: IndexedList['byCard'] = new Map();
  const byDocument: IndexedList['byDocument'] = new Map();
  const byPlate: IndexedList['byPlate'] = new Map();
  for (const denied of list.denegados) {
    for (const card of denied.Credenciales) byCard.set(card, { denied });
    if (denied.Documento) byDocument.set(denied.Documento, { denied });
    if (denied.Placa) byPlate.set(denied.Placa, { denied });
  }
  for (const entry of list.entradas) {
    for (const card of entry.Inactivas ?? []) byCard.set(card, { entry, active: false });
    for (const card of entry.Credenciales) byCard.set(card, { entry, active: true });
    if (entry.Documento) byDocument.set(entry.Documento, { entry });
    if (entry.Placa) byPlate.set(entry.Placa, { entry });
  }
  return { list, byCard, byDocument, byPlate };
}

const isVehicle = (titular: string) => titular.startsWith('V:');

/** Hours since the server made the list (by this device's clock). */
export const listAgeHours = (list: AllowList, now: Date) =>
  (now.getTime() - new Date(list.generado).getTime()) / 3_600_000;

/** How the list's age stands against the control point's limits. */
export function listFreshness(list: AllowList, now: Date): 'fresh' | 'old' | 'expired' {
  const age = listAgeHours(list, now);
  const limit = list.limiteHoras;
  if (age > limit) return 'expired';
  return age > Math.min(list.avisoHoras, limit) ? 'old' : 'fresh';
}

const EVER = '0000-01-01';
const NEVER = '9999-12-31';

/** What the entry's doors require (each its own door's) and what the holder holds of it, until when. */
function qualificationsOf(entry: AllowEntry): {
  required: RequiredQualification[];
  held: HeldQualification[];
} {
  const here = entry.Puertas.flatMap((d) => (d.Requiere ?? []).map((r) => ({ ...r, door: d.IdPuerta })));
  return {
    required: here.map((r) => ({ kind: r.Tipo, id: r.Id, name: r.Nombre, doors: [r.door], zones: [] })),
    held: here.flatMap((r) => (r.Vence ? [{ kind: r.Tipo, id: r.Id, until: r.Vence }] : [])),
  };
}

/** The person's or vehicle's rows as the decision reads them, rebuilt from an allowed entry of the list. */
function allowedRows(list: AllowList, entry: AllowEntry): { holder: Holder; site: SiteAccess } {
  const id = Number(entry.Titular.slice(2));
  const doors = entry.Puertas;
  const { required, held } = qualificationsOf(entry);
  const assignments: AccessAssignment[] = doors.map((_, i) => ({
    IdPerfilAcceso: i + 1,
    FechaInicio: EVER,
    FechaFin: NEVER,
    Temporal: 'N',
    Activo: 'S',
  }));
  const site: SiteAccess = {
    profiles: doors.map((_, i) => ({
      IdPerfilAcceso: i + 1,
      Grupos: [i + 1],
      ValidarRequisitos: entry.Requisito ? 'S' : 'N',
      Activo: 'S',
    })),
    groups: doors.map((d, i) => ({
      IdGrupoAcceso: i + 1,
      IdHorario: i + 1,
      Puertas: [d.IdPuerta],
      Activo: 'S',
    })),
    schedules: doors.map((_, i) => ({ IdHorario: i + 1, Activo: 'S' })),
    intervals: doors.flatMap((d, i) =>
      d.Intervalos.map((interval) => ({
        IdHorario: i + 1,
        Dia: interval.Dia as 1,
        HoraInicio: interval.HoraInicio,
        HoraFin: interval.HoraFin,
        Activo: 'S' as const,
      })),
    ),
    zones: [],
    qualifications: required,
  };
  const rows: Pick<Holder, 'requirements' | 'accreditations' | 'assignments'> = {
    // The list names only the first mandatory requirement to expire: enough to deny past its day.
    requirements: entry.Requisito
      ? [
          {
            IdRequisito: 1,
            Requisito: entry.Requisito.Nombre,
            Obligatorio: 'S',
            FechaVencimiento: entry.Requisito.Vence,
          },
        ]
      : [],
    accreditations: [
      {
        IdDivision: list.division,
        IdContrato: 0,
        FechaInicio: entry.Desde || EVER,
        FechaFin: entry.Hasta,
        Estado: 'A',
      },
    ],
    assignments,
  };
  const holder: Holder = isVehicle(entry.Titular)
    ? {
        kind: 'vehicle',
        vehicle: { IdVehiculo: id, Estado: 'A' },
        ...rows,
        maintenance: entry.Mantenimiento
          ? [{ Tipo: entry.Mantenimiento.Nombre, Vence: entry.Mantenimiento.Vence }]
          : [],
        ...(entry.LicenciaInterna && { licenceType: entry.LicenciaInterna }),
      }
    : {
        kind: 'person',
        person: {
          IdPersona: id,
          Condicion: 'T',
          Inactivo: 'N',
          ValidarRequisitosAcceso: entry.Requisito ? 'S' : 'N',
        },
        exonerations: [],
        restrictions: [],
        qualifications: held,
        ...rows,
      };
  return { holder, site };
}

/** Someone (or a vehicle) the list names as suspended or demobilised: an accreditation in that state, no access. */
function deniedRows(list: AllowList, denied: DeniedEntry): Holder {
  const id = Number(denied.Titular.slice(2));
  const rows: Pick<Holder, 'requirements' | 'accreditations' | 'assignments'> = {
    requirements: [],
    accreditations: [
      { IdDivision: list.division, IdContrato: 0, FechaInicio: EVER, FechaFin: NEVER, Estado: denied.Estado },
    ],
    assignments: [],
  };
  return isVehicle(denied.Titular)
    ? { kind: 'vehicle', vehicle: { IdVehiculo: id, Estado: 'A' }, ...rows }
    : {
        kind: 'person',
        person: { IdPersona: id, Condicion: 'T', Inactivo: 'N', ValidarRequisitosAcceso: 'N' },
        exonerations: [],
        restrictions: [],
        ...rows,
      };
}

const EMPTY_SITE: SiteAccess = { profiles: [], groups: [], schedules: [], intervals: [], zones: [] };

/** The door of the control point a direction goes through: one used that way, else the first. */
export function doorFor(list: AllowList, direction: Direction): ListDoor | undefined {
  return (
    list.puertas.find((d) => d.Activo === 'S' && d.Sentido === direction) ??
    list.puertas.find((d) => d.Activo === 'S' && d.Sentido === 'A') ??
    list.puertas[0]
  );
}

const gateOnly = (reason: (typeof GATE_REASONS)[number], params?: MessageParams): GateAnswer => ({
  allow: false,
  reason,
  messageKey: `gateApp.reasons.${reason}`,
  ...(params && { params }),
});

/**
 * What the camera or the keyboard gave: a badge's token, or a code: a person's document or a
 * vehicle's plate (typed, or read from a badge's barcode), told apart by the list.
 */
export type Reading =
  | { kind: 'token'; token: string }
  | { kind: 'document'; Documento: string }
  /** A card's number, as a device configured to read cards (or a QR code or fingerprint's number) gives it. */
  | { kind: 'card'; Numero: string };

/**
 * The reading configuration a phone's camera honours: a document's barcode (D) or a plate (P), what
 * a camera reads as that equipment's reader would; a card, fingerprint or badge-QR reader's (T, B,
 * Q) is the hardware's, and the camera goes on reading badges and documents.
 */
export function cameraReading(config: ReadingConfig | null | undefined): ReadingConfig | undefined {
  return config && (config.TipoLectura === 'D' || config.TipoLectura === 'P') ? config : undefined;
}

/**
 * What a scanned or typed code is: a signed badge always; else, with the equipment's reading
 * configuration, its part the configuration keeps, named as it says (a card's number, a document
 * or a plate); without one, a document or plate as typed.
 */
export function readingOf(text: string, config?: ReadingConfig | null): Reading | undefined {
  const value = text.trim();
  if (value.startsWith(`${TOKEN_PREFIX}.`)) return { kind: 'token', token: value };
  if (config) {
    const presented = presentedByReading(value, config);
    if (!presented) return undefined;
    if (presented.kind === 'credential') return { kind: 'card', Numero: presented.Numero };
    return {
      kind: 'document',
      Documento: presented.kind === 'plate' ? presented.Placa : presented.Documento,
    };
  }
  const document = value.toUpperCase();
  return /^[A-Z0-9-]{4,20}$/.test(document) ? { kind: 'document', Documento: document } : undefined;
}

/**
 * Decides a reading at the list's door for `direction`, offline. A token is checked first (genuine,
 * this client's); a list older than the control point's limit denies everyone (fail closed); then
 * the decision function judges the rows rebuilt from the list.
 */
/** The entry a reading names (a signed badge's card, a card number, a document or a plate), if the list has it. */
async function entryOf(indexed: IndexedList, reading: Reading, key: CryptoKey) {
  let code: string;
  if (reading.kind === 'token') {
    const verified = await verifyToken(reading.token, key);
    if (!verified.ok) return undefined;
    code = verified.claims.Numero;
  } else code = reading.kind === 'card' ? reading.Numero : reading.Documento;
  const found =
    indexed.byCard.get(code) ?? indexed.byDocument.get(code) ?? indexed.byPlate.get(code) ?? undefined;
  return { code, entry: found && 'entry' in found ? found.entry : undefined };
}

/** The driver a second reading names, with the internal licences the list carries for them. */
async function driverOf(indexed: IndexedList, reading: Reading, key: CryptoKey) {
  const found = await entryOf(indexed, reading, key);
  if (!found) return undefined;
  const driver: Driver = {
    Nombre: found.entry?.Nombre ?? found.code,
    licences: found.entry?.Licencias ?? [],
  };
  return { code: found.code, driver };
}

/**
 * Whether a reading at the gate, in this direction, is of a vehicle whose type needs its driver's
 * internal licence: the app then asks for the driver before deciding.
 */
export async function needsDriver(
  indexed: IndexedList,
  reading: Reading,
  direction: Direction,
  key: CryptoKey,
): Promise<string | undefined> {
  if (direction !== 'E') return undefined;
  const found = await entryOf(indexed, reading, key);
  return found?.entry?.LicenciaInterna ? found.entry.Nombre : undefined;
}

export async function decideOffline(
  indexed: IndexedList,
  reading: Reading,
  direction: Direction,
  at: Date,
  key: CryptoKey,
  driverReading?: Reading,
): Promise<GateAnswer> {
  const { list } = indexed;
  let presented: Presented;
  let claimsHasta: string | undefined;
  let claimsTitular: string | undefined;
  if (reading.kind === 'token') {
    const verified = await verifyToken(reading.token, key);
    if (!verified.ok) return gateOnly(verified.problem);
    if (verified.claims.IdCliente !== list.cliente) return gateOnly('TOKEN_OTHER_CLIENT');
    presented = { kind: 'credential', Numero: verified.claims.Numero };
    claimsHasta = verified.claims.Hasta;
    claimsTitular = verified.claims.Titular;
  } else if (reading.kind === 'card') presented = { kind: 'credential', Numero: reading.Numero };
  else
    presented =
      !indexed.byDocument.has(reading.Documento) && indexed.byPlate.has(reading.Documento)
        ? { kind: 'plate', Placa: reading.Documento }
        : { kind: 'document', Documento: reading.Documento };
  const driver = driverReading && (await driverOf(indexed, driverReading, key));
  const marking: GateAnswer['marking'] = {
    ...(presented.kind === 'credential'
      ? { Credencial: presented.Numero }
      : presented.kind === 'plate'
        ? { Placa: presented.Placa }
        : { Documento: presented.Documento }),
    ...(driver && { Conductor: driver.code }),
  };

  const found =
    presented.kind === 'credential'
      ? indexed.byCard.get(presented.Numero)
      : presented.kind === 'plate'
        ? indexed.byPlate.get(presented.Placa)
        : indexed.byDocument.get(presented.Documento);
  const name = found && ('denied' in found ? found.denied.Nombre : found.entry.Nombre);
  if (listFreshness(list, at) === 'expired')
    return { ...gateOnly('LIST_TOO_OLD', { hours: list.limiteHoras }), marking, ...(name && { name }) };

  const listDoor = doorFor(list, direction);
  const door: Door = listDoor
    ? {
        IdPuerta: listDoor.IdPuerta,
        IdDivision: listDoor.IdDivision,
        IdZona: listDoor.IdZona,
        Sentido: listDoor.Sentido,
        Activo: listDoor.Activo,
      }
    : { IdPuerta: 0, IdDivision: list.division, IdZona: 0, Sentido: direction, Activo: 'N' };
  const input: DecisionInput = {
    door,
    direction,
    at,
    timeZone: list.zonaHoraria,
    presented,
    site: EMPTY_SITE,
    ...(driver && { driver: driver.driver }),
  };
  const titular = found && ('denied' in found ? found.denied.Titular : found.entry.Titular);
  // A token naming another holder than the one the list has under its number is no card of theirs.
  if (found && (!claimsTitular || claimsTitular === titular)) {
    if ('denied' in found) input.holder = deniedRows(list, found.denied);
    else {
      const rows = allowedRows(list, found.entry);
      input.holder = rows.holder;
      input.site = rows.site;
    }
    if (presented.kind === 'credential') {
      const owner = Number(String(titular).slice(2));
      const credential: Credential = {
        ...(isVehicle(String(titular)) ? { IdVehiculo: owner } : { IdPersona: owner }),
        Numero: presented.Numero,
        FechaInicio: EVER,
        FechaFin: claimsHasta ?? NEVER,
        // A card of the list is active or not as it says; a suspended holder's cards stay active
        // (the suspension is the reason), a demobilised one's were inactivated with it.
        Activo: ('denied' in found ? found.denied.Estado === 'S' : 'active' in found && found.active)
          ? 'S'
          : 'N',
      };
      input.credential = credential;
    }
  }
  const decision = decide(input);
  return {
    allow: decision.allow,
    reason: decision.reason,
    messageKey: reasonMessageKey(decision.reason),
    ...(decision.params && { params: decision.params }),
    ...(decision.lenientExit && { lenientExit: true as const }),
    ...(name && input.holder && { name }),
    marking,
  };
}
