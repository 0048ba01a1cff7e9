/**
 * What the identification screen and its calls share: a row of the accredited people, or of the
 * accredited vehicles, with their active credential (GET /api/identificacion/titulares).
 */

/** Whom a credential is for: a person (P) or a vehicle (V, its windscreen card). */
export type HolderKind = 'P' | 'V';
export const HOLDER_KINDS: readonly HolderKind[] = ['P', 'V'];

export interface HolderRow {
  /** P:<IdPersona> or V:<IdVehiculo>. */
  Titular: string;
  TipoTitular: HolderKind;
  IdPersona: number | null;
  IdVehiculo: number | null;
  /** A person's document, or a vehicle's plate. */
  Documento: string;
  /** A person's surnames and names, or a vehicle's type, brand and model. */
  Nombres: string;
  Compania: string | null;
  /** Whether the person has a photo (a badge without one prints a placeholder); a vehicle's card has none. */
  Foto: boolean;
  AcreditacionInicio: string;
  AcreditacionFin: string;
  IdCredencial: number | null;
  Numero: string | null;
  TipoCredencial: string | null;
  FechaInicio: string | null;
  FechaFin: string | null;
  Impreso: 'S' | 'N' | null;
}
