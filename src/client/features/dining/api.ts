import type { MealReason } from '../../../shared/dining.js';
import { downloadFile } from '../../files.js';
import { apiCall, queryString } from '../../session/http.js';
import { activeCompanies, restList } from '../../session/records.js';

type YesNo = 'S' | 'N';

export interface DiningServiceChoice {
  IdServicio: number;
  Descripcion: string;
  HoraInicio: string;
  HoraFin: string;
  Costo: number;
  Activo: YesNo;
}

export interface DiningRoomChoice {
  IdComedor: number;
  Descripcion: string;
  Activo: YesNo;
  servicios: DiningServiceChoice[];
}

/** The division's dining rooms and their services, and the division's today. */
export interface DiningChoices {
  hoy: string;
  comedores: DiningRoomChoice[];
}

/** Served, voided and refused (by reason) meals of a sitting, or of no sitting. */
export interface MealCounts {
  servidos: number;
  anulados: number;
  rechazos: Partial<Record<MealReason, number>>;
}

export interface SittingToday extends MealCounts {
  IdServicio: number;
  Descripcion: string;
  HoraInicio: string;
  HoraFin: string;
  Costo: number;
  NumeroConsumos: number;
  abierto: boolean;
}

/** One of a room's last meals of the day, served or refused. */
export interface LastMeal {
  IdConsumo: number;
  Hora: string;
  IdServicio: number | null;
  Servicio: string | null;
  Resultado: 'P' | 'D';
  CodigoMotivo: string;
  Motivo: string | null;
  Origen: 'E' | 'M' | 'I';
  Anulado: YesNo;
  MotivoAnulacion: string | null;
  Observacion: string | null;
  ImporteTotal: number | null;
  Documento: string | null;
  Nombres: string | null;
  Compania: string | null;
}

/** A room's day as its supervisor follows it. */
export interface RoomDay {
  comedor: { IdComedor: number; Descripcion: string; Activo: YesNo };
  fecha: string;
  capacidad: number | null;
  servicios: SittingToday[];
  sinServicio: MealCounts;
  ultimos: LastMeal[];
}

/** What a meal registered by hand answers. */
export interface MealRegistered {
  allow: boolean;
  reason: string;
  message: string;
  IdConsumo: number | null;
  persona: { Nombres: string; Documento: string; Compania?: string } | null;
}

export interface ReportFilters {
  desde: string;
  hasta: string;
  IdComedor?: number;
  IdServicio?: number;
  IdCompania?: number;
  IdPersona?: number;
}

/** A served meal of the report; amounts in cents. */
export interface ReportRow {
  IdConsumo: number;
  Fecha: string;
  Hora: string;
  Comedor: string | null;
  Servicio: string | null;
  Documento: string | null;
  Nombres: string | null;
  Compania: string | null;
  Origen: string;
  ImporteTotal: number;
  ImporteCompania: number;
  ImporteTrabajador: number;
  PorcentajeCompania: number | null;
  Categoria: string | null;
  Observacion: string | null;
}

/** Totals of the report, in cents (and the number of meals). */
export interface ReportTotals {
  consumos: number;
  importe: number;
  compania: number;
  trabajador: number;
}

/** The client's currency, as its amounts are shown (null: none configured, two decimals and no symbol). */
export interface Currency {
  IdMoneda: string;
  Simbolo: string;
  Decimales: number;
}

export interface Report {
  data: ReportRow[];
  moneda: Currency | null;
  totalCount: number;
  totales: ReportTotals;
  porDia: Array<{ Fecha: string; IdServicio: number; Servicio: string; consumos: number }>;
}

export type { CompanyChoice } from '../../session/records.js';

const BASE = '/api/comedor';

/** The dining halls' calls as the console's screens make them. */
export const diningApi = {
  rooms: () => apiCall<DiningChoices>('GET', `${BASE}/comedores`),
  day: (IdComedor: number) => apiCall<RoomDay>('GET', `${BASE}/gestion?${queryString({ IdComedor })}`),
  register: (body: { IdComedor: number; IdServicio: number; Documento: string; Observacion: string }) =>
    apiCall<MealRegistered>('POST', `${BASE}/consumos`, body),
  voidMeal: (id: number, Motivo: string) =>
    apiCall<{ IdConsumo: number; Anulado: 'S' }>('POST', `${BASE}/consumos/${id}/anular`, { Motivo }),
  report: (filters: ReportFilters, page: { skip: number; take: number }) =>
    apiCall<Report>('GET', `${BASE}/reporte?${queryString({ ...filters, ...page })}`),
  /** The report as an Excel workbook, saved as the browser saves downloads. */
  excel: (filters: ReportFilters) =>
    downloadFile(`${BASE}/reporte/excel?${queryString({ ...filters })}`, 'consumos.xlsx'),
  /** The active companies, for the report's filter (a contractor's profile has its own only). */
  companies: activeCompanies,
  /** The person with this document, among those the session reads. */
  person: async (document: string): Promise<number | null> => {
    const wanted = document.trim().toUpperCase();
    const found = await restList<{ IdPersona: number; Documento: string }>('person', { q: wanted });
    return found.find((p) => p.Documento.toUpperCase() === wanted)?.IdPersona ?? null;
  },
};
