import { siteDate } from '../../../shared/dates.js';
import type { Candidate, SessionFields, SessionState } from '../../../shared/induction.js';
import { apiCall, queryString } from '../../session/http.js';
import { restList } from '../../session/records.js';
import { session } from '../../session/store.js';

export type { Candidate, SessionState };

export type BookingState = 'R' | 'A' | 'D' | 'N' | 'X';
export type YesNo = 'S' | 'N';

/** A session as the generic list answers it (the calendar's). */
export interface TrainingSession extends SessionFields {
  Idioma: string;
}

/** A course of the division's catalogue. */
export interface Course {
  IdCurso: number;
  Codigo: string;
  Nombre: string;
  NombreIngles: string;
  Modalidad: 'P' | 'V';
  Idiomas: string;
  Activo: YesNo;
}

/** A user who may give a session. */
export interface Trainer {
  IdUsuario: string;
  Nombre: string | null;
  Apellido: string | null;
}

/** A worker booked on a session, with its attendance, score and (passed) record. */
export interface Booking {
  IdInscripcion: number;
  IdPersona: number;
  Documento: string;
  Persona: string;
  Compania: string;
  Estado: BookingState;
  Asistio: YesNo;
  Nota: number | null;
  Observacion: string | null;
  IdRegistro: number | null;
  VenceEl: string | null;
  EstadoRegistro: 'V' | 'R' | null;
}

/** A session's page: the session, its course's rules, its trainer and its bookings. */
export interface SessionDetail extends Omit<TrainingSession, 'Idioma'> {
  Curso: string;
  CursoIngles: string;
  NotaMinima: number;
  VigenciaMeses: number;
  Modalidad: 'P' | 'V';
  Instructor: string;
  reservas: Booking[];
}

/** One booking's attendance and score as the trainer enters them. */
export interface ResultLine {
  IdInscripcion: number;
  Asistio: YesNo;
  Nota: number | null;
}

/** Booked, attended, passed and failed, and the pass rate (null with nobody settled). */
export interface Tally {
  reservados: number;
  asistieron: number;
  aprobados: number;
  desaprobados: number;
  tasaAprobacion: number | null;
}

export interface ExpiringInduction {
  IdRegistro: number;
  VenceEl: string;
  Documento: string;
  Persona: string;
  Compania: string;
  Codigo: string;
  Curso: string;
  CursoIngles: string;
}

export interface InductionReport extends Tally {
  desde: string;
  hasta: string;
  sesiones: number;
  porCompania: Array<Tally & { Compania: string }>;
  porCurso: Array<Tally & { Codigo: string; Curso: string; CursoIngles: string }>;
  porDia: Array<Tally & { Fecha: string }>;
  porVencer: ExpiringInduction[];
}

export interface Base64File {
  fileBase64: string;
  fileName: string;
  fileType?: string;
}

/** Today at the division's site (the server's "past" for a new session). */
export const siteToday = () => siteDate(session.siteCountry());

/** A name in the console's language: the English one in English, when there is one. */
export const inLanguage = (locale: string, spanish: string, english: string | null | undefined) =>
  locale === 'en' && english ? english : spanish;

const BASE = '/api/induccion';

/** The trainer's calls of the Inductions module, and the generic records its screens read and create. */
export const inductionApi = {
  sessions: (from: string, to: string) =>
    restList<TrainingSession>('training-session', { Fecha_gte: from, Fecha_lte: to }, '[0,999]'),
  courses: () => restList<Course>('course', {}, '[0,499]'),
  trainers: () => restList<Trainer>('user', { Activo: 'S', Contratista: 'N' }, '[0,499]'),
  /** A new session through the generic resource (its field refusals in the error's body). */
  createSession: (body: Record<string, unknown>) =>
    apiCall<unknown>('POST', '/api/rest/training-session', body),
  session: (id: number) => apiCall<SessionDetail>('GET', `${BASE}/sesiones/${id}`),
  markPresent: (id: number, codigo: string) =>
    apiCall<{ IdInscripcion: number; Persona: string }>('POST', `${BASE}/sesiones/${id}/asistencia`, {
      codigo,
    }),
  saveResults: (id: number, resultados: ResultLine[]) =>
    apiCall<{ guardados: number }>('PUT', `${BASE}/sesiones/${id}/resultados`, { resultados }),
  close: (id: number) =>
    apiCall<{ aprobados: number; desaprobados: number; ausentes: number }>(
      'POST',
      `${BASE}/sesiones/${id}/cerrar`,
      {},
    ),
  cancel: (id: number, Motivo: string) =>
    apiCall<unknown>('POST', `${BASE}/sesiones/${id}/cancelar`, { Motivo }),
  amend: (bookingId: number, body: { Asistio: YesNo; Nota: number | null; Motivo: string }) =>
    apiCall<unknown>('PUT', `${BASE}/reservas/${bookingId}/resultado`, body),
  certificate: (recordId: number) => apiCall<Base64File>('GET', `${BASE}/registros/${recordId}/certificado`),
  report: (desde: string, hasta: string) =>
    apiCall<InductionReport>('GET', `${BASE}/reporte?${queryString({ desde, hasta })}`),
  reportExcel: (desde: string, hasta: string) =>
    apiCall<Base64File>('GET', `${BASE}/reporte/excel?${queryString({ desde, hasta })}`),
};

/** Where a crew comes from: a search, a contract's people, a bulk request's. */
export type CrewQuery = { buscar: string } | { IdContrato: number } | { IdCargaMasiva: number };

/** A contract the requester picks a crew from. */
export interface CrewSource {
  id: number;
  label: string;
}

/** A passed induction of one of the session's people. */
export interface PassedInduction {
  IdRegistro: number;
  IdPersona: number;
  Documento: string;
  Persona: string;
  Codigo: string;
  Curso: string;
  CursoIngles: string;
  Fecha: string;
  Nota: number;
  VenceEl: string;
  Estado: 'V' | 'R';
  Vigente: boolean;
  PorVencer: boolean;
}

/** A booking still open, or settled without a pass (failed, absent). */
export interface WorkerBooking {
  IdInscripcion: number;
  IdSesion: number;
  IdPersona: number;
  Documento: string;
  Persona: string;
  Codigo: string;
  Curso: string;
  CursoIngles: string;
  Modalidad: 'P' | 'V';
  Estado: BookingState;
  Fecha: string;
  HoraInicio: string;
  Sala: string;
}

export interface WorkersInductions {
  registros: PassedInduction[];
  reservas: WorkerBooking[];
}

/** An online test as the worker's link opens it: the questions come without their answers. */
export interface TestSheet {
  Persona: string;
  Curso: string;
  CursoIngles: string;
  NotaMinima: number;
  Estado: BookingState;
  Nota: number | null;
  proximoIntento: string | null;
  preguntas: Array<{
    IdPregunta: number;
    Pregunta: string;
    OpcionA: string;
    OpcionB: string;
    OpcionC: string;
    OpcionD: string;
  }>;
}

export interface TestScore {
  Nota: number;
  aprobado: boolean;
  correctas: number;
  preguntas: number;
  proximoIntento: string | null;
}

/** The requester's calls: sessions to come, its crews, booking, its workers' inductions; and the worker's test. */
export const bookingApi = {
  /** The division's scheduled sessions from `today` on. */
  upcoming: (today: string) =>
    restList<TrainingSession>('training-session', { Estado: 'P', Fecha_gte: today }, '[0,499]'),
  contracts: async (): Promise<CrewSource[]> =>
    (
      await restList<{ IdContrato: number; NumeroContrato: string; Asunto: string | null }>('contract', {
        Activo: 'S',
      })
    ).map((c) => ({
      id: c.IdContrato,
      label: c.Asunto ? `${c.NumeroContrato} · ${c.Asunto}` : c.NumeroContrato,
    })),
  /** A bulk request of the requester's company, by the code its upload was given (its progress call). */
  bulkRequest: (code: string) =>
    apiCall<{ IdCargaMasiva: number; CodigoCargaMasiva: string }>(
      'GET',
      `/api/acreditacionsolicitud/progresomasivo?${queryString({ CodigoCargaMasiva: code })}`,
    ),
  candidates: (query: CrewQuery) =>
    apiCall<Candidate[]>(
      'GET',
      `${BASE}/candidatos?${queryString(query as Record<string, string | number>)}`,
    ),
  book: (sessionId: number, IdPersonas: number[]) =>
    apiCall<{ IdSesion: number; reservados: Array<{ IdInscripcion: number }> }>(
      'POST',
      `${BASE}/sesiones/${sessionId}/reservas`,
      { IdPersonas },
    ),
  cancel: (bookingId: number) => apiCall<unknown>('DELETE', `${BASE}/reservas/${bookingId}`),
  testLink: (bookingId: number) =>
    apiCall<{ IdInscripcion: number; enlace: string }>('GET', `${BASE}/reservas/${bookingId}/enlace`),
  workers: () => apiCall<WorkersInductions>('GET', `${BASE}/personal`),
  testSheet: (token: string) => apiCall<TestSheet>('GET', `${BASE}/prueba/${encodeURIComponent(token)}`),
  takeTest: (token: string, respuestas: Array<{ IdPregunta: number; Respuesta: string }>) =>
    apiCall<TestScore>('POST', `${BASE}/prueba/${encodeURIComponent(token)}`, { respuestas }),
};
