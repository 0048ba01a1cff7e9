/** Decisions and their attention, as a row of the efficiency report (a month, an authoriser, a requirement, the total). */
export interface Attended {
  Decisiones: number;
  Aprobadas: number;
  Observadas: number;
  Rechazadas: number;
  Devueltas: number;
  PorcentajeAprobadas: number;
  PorcentajeObservadas: number;
  PorcentajeRechazadas: number;
  /** Average and longest attention, in hours (one decimal). */
  PromedioHoras: number | null;
  MaximoHoras: number | null;
}

export type AttendedMonth = Attended & { Mes: string; Solicitudes: number };
export type AttendedAuthoriser = Attended & { IdUsuario: string; Nombre: string };
export type AttendedRequirement = Attended & { IdRequisito: number; Requisito: string };

/** The efficiency report as the API answers it (GET /api/reporte/eficiencia). */
export interface EfficiencyReport {
  Anio: number;
  MesDesde: number;
  MesHasta: number;
  meses: AttendedMonth[];
  total: Attended & { Solicitudes: number };
  autorizadores: AttendedAuthoriser[];
  requisitos: AttendedRequirement[];
}
