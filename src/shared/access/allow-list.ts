/**
 * The offline allow-list's entries as the server signs them and the gate app reads them
 * (GET /api/acceso/listapermitidos): who may pass which door and when, who to turn away by name,
 * and the doors of the control point.
 */

import type { QualificationKind } from './decision.js';

/** One holder a gate may let through while offline, and where and when. */
export interface AllowEntry {
  /** P:<IdPersona> or V:<IdVehiculo>. */
  Titular: string;
  Credenciales: string[];
  Documento: string | null;
  Placa: string | null;
  /** The holder's name (surnames, names) or the vehicle's plate, for the gate's screen. */
  Nombre: string;
  /** The first day (yyyy-mm-dd, site calendar) of the accreditation in force. */
  Desde: string;
  /** The last day (yyyy-mm-dd, site calendar) the accreditation and access hold. */
  Hasta: string;
  /** The holder's inactive credential numbers (a card lost and reissued): a gate denies them by name. */
  Inactivas?: string[];
  /**
   * The first mandatory requirement of the holder's to expire (not waived today), when the gate
   * checks requirements for them: a gate offline past that day denies with the requirement's name.
   */
  Requisito?: { Nombre: string; Vence: string };
  /**
   * A vehicle's maintenance of a kind that blocks it, the first to fall due: a gate offline past
   * that day denies it, naming the kind.
   */
  Mantenimiento?: { Nombre: string; Vence: string };
  /** A vehicle's type that needs its driver's internal licence: the gate asks for the driver. */
  LicenciaInterna?: { IdTipoVehiculo: number; Tipo: string };
  /** A person's internal licences (vehicle type, last valid day), for when they drive a vehicle in. */
  Licencias?: Array<{ IdTipoVehiculo: number; Vence: string }>;
  /** Per door of the control point: the schedule intervals (Dia 1–7, HH:mm) that open it. */
  Puertas: AllowDoor[];
}

/** A door of the control point as it opens to one holder. */
export interface AllowDoor {
  IdPuerta: number;
  Intervalos: Array<{ Dia: number; HoraInicio: string; HoraFin: string }>;
  /**
   * What the door requires of the person (a specific induction), with the last day they hold it
   * (`Vence`, absent when they do not): a gate offline denies without it, or past that day, naming it.
   */
  Requiere?: RequiredHere[];
}

/** A qualification a door requires (kind, id among its kind's, name) and until when the holder holds it. */
export interface RequiredHere {
  Tipo: QualificationKind;
  Id: number;
  Nombre: string;
  Vence?: string;
}

/**
 * Someone (or a vehicle) of the division a gate must turn away by name while offline: accreditation suspended or
 * ended (demobilised) within the last 90 days, with every credential number they held.
 */
export interface DeniedEntry {
  Titular: string;
  Nombre: string;
  Documento: string | null;
  /** A vehicle's plate. */
  Placa?: string;
  Credenciales: string[];
  /** S suspended, T terminated (demobilised). */
  Estado: 'S' | 'T';
}

/** A door of the control point, as the list names it. */
export interface ListDoor {
  IdPuerta: number;
  Descripcion: string;
  IdDivision: number;
  IdZona: number;
  Sentido: 'E' | 'S' | 'A';
  Activo: 'S' | 'N';
}
