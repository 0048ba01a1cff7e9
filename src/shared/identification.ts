/**
 * What the identification screen and its calls share: a row of the accredited people with their
 * active credential (GET /api/identificacion/titulares).
 */
export interface HolderRow {
  IdPersona: number;
  Documento: string;
  Nombres: string;
  Compania: string | null;
  /** Whether the person has a photo (a badge without one prints a placeholder). */
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
