/**
 * The rows the security office's reports answer with, as the server sends them and the console
 * reads them. Type literals, not interfaces: a row is also a plain record for the Excel export.
 */

/** Someone inside now (the evacuation roll call), longest on site first. */
export type RollCallRow = {
  IdPersona: number | null;
  IdVehiculo: number | null;
  Documento: string | null;
  NombreCompleto: string | null;
  Placa: string | null;
  Compania: string | null;
  Zona: string | null;
  /** The instant of the entry that made the holder present (ISO). */
  FechaMarca: string;
  /** Minutes on site since that entry. */
  Permanencia: number;
};

/**
 * Someone of the division away from the site but in the company's care now (on a bus on the road):
 * the roll call lists them apart from those inside, told by the features that know (Feature.whereabouts).
 */
export type AwayRow = {
  IdPersona: number;
  Documento: string | null;
  NombreCompleto: string | null;
  Compania: string | null;
  /** Where they are, in words (the bus's plate and route). */
  Donde: string;
  /** Since when (ISO: the departure). */
  Desde: string | null;
};

/** A holder blocked at the gate by an expired mandatory requirement (one row per requirement). */
export type BlockedRow = {
  IdAcreditacion: number;
  /** T a worker, V a vehicle. */
  IdEntidad: string;
  IdPersona: number | null;
  IdVehiculo: number | null;
  Documento: string | null;
  NombreCompleto: string | null;
  Placa: string | null;
  Compania: string | null;
  NumeroContrato: string | null;
  Requisito: string;
  FechaVencimiento: string;
  DiasVencido: number;
  /** The accreditation's state: A active, S suspended (the expiry job suspends it). */
  Estado: string;
};
