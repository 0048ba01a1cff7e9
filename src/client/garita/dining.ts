/**
 * The gate app at a dining hall: an equipment that is a dining room's reader asks the server for each
 * meal (POST /api/comedor/decidir) while it has a network, and without one judges a badge's token here
 * and sends what it did later (POST /api/comedor/marcaciones). Pure: the clock, the reader's rooms and
 * the meals it counted are given.
 */

import { TOKEN_PREFIX, verifyToken } from '../../shared/badge-token.js';
import { addDays } from '../../shared/dates.js';
import { type DiningService, type MealReason, mealMessageKey, sittingAt } from '../../shared/dining.js';
import type { MessageParams } from '../../shared/errors.js';
import type { Reading } from './offline.js';

/** A room this reader serves, as GET /api/comedor/lector gives it. */
export interface ReaderRoom {
  IdComedor: number;
  Descripcion: string;
  IdCliente: number;
  IdDivision: number;
  zonaHoraria: string;
  activo: boolean;
  servicios: Array<
    Pick<DiningService, 'IdServicio' | 'Descripcion' | 'Orden' | 'HoraInicio' | 'HoraFin' | 'NumeroConsumos'>
  >;
}

/** The reader's rooms and when the server last gave them (ISO). */
export interface ReaderData {
  rooms: ReaderRoom[];
  fetchedAt: string;
}

/** Hours the rooms may be old and still let the reader serve with no network: past them it refuses (fail closed). */
export const READER_DATA_HOURS = 24;

/** Reasons of the app's own at a dining hall, beside the meal decision's. */
export const DINING_APP_REASONS = ['DOCUMENT_NEEDS_NETWORK', 'READER_DATA_OLD'] as const;
type AppReason = (typeof DINING_APP_REASONS)[number];

export interface MealAnswer {
  allow: boolean;
  reason: MealReason | AppReason | 'SYSTEM_UNAVAILABLE';
  messageKey: string;
  params?: MessageParams;
  /** The server's words for it, in the language asked (an answer from the server). */
  message?: string;
  /** The person's name (the server's answer), or the card's number (a token read offline). */
  name?: string;
  company?: string;
  /** The service and its day, when one is open. */
  service?: { IdServicio: number; Descripcion: string; Fecha: string };
  used?: { used: number; max: number };
  /** Decided here, with no network. */
  offline?: true;
}

/** A presentation the reader judged offline, waiting to be sent. */
export interface PendingMeal {
  IdMarca: string;
  IdComedor: number;
  FechaHora: string;
  Resultado: 'P' | 'D';
  Credencial?: string;
  Documento?: string;
}

/** The key under which the meals of a card in a sitting are counted on this device. */
export const servedKey = (card: string, IdServicio: number, day: string) => `${card}|${IdServicio}|${day}`;

/** The counts kept: those of the sittings of yesterday and after (older ones can no longer be served). */
export function prunedCounts(counts: Record<string, number>, today: string): Record<string, number> {
  const from = addDays(today, -1);
  return Object.fromEntries(Object.entries(counts).filter(([key]) => (key.split('|')[2] ?? '') >= from));
}

/** What a presentation sends to the server: the token as read (the server checks it again), a card's number, or the document. */
export const presentedOf = (reading: Reading) =>
  reading.kind === 'token'
    ? { Credencial: reading.token }
    : reading.kind === 'card'
      ? { Credencial: reading.Numero }
      : { Documento: reading.Documento };

const answerOf = (reason: MealReason | AppReason, params?: MessageParams): MealAnswer => ({
  allow: reason === 'ALLOWED',
  reason,
  // The app's own words for its reasons and a token's (the console's are not in the app).
  messageKey:
    (DINING_APP_REASONS as readonly string[]).includes(reason) || reason.startsWith('TOKEN_')
      ? `gateApp.reasons.${reason}`
      : mealMessageKey(reason as MealReason),
  ...(params && { params }),
  offline: true,
});

/**
 * A meal decided with no network: only a genuine badge of the room's division, in its dates, at an open
 * service, as many times per sitting as the service's consumption number (the meals this device served).
 * A document cannot be checked without the server; rooms older than READER_DATA_HOURS refuse everyone.
 * What the server later knows (a demobilisation since, a group's hours) is recorded beside the meal.
 */
export async function decideMealOffline(
  data: ReaderData,
  room: ReaderRoom,
  reading: Reading,
  at: Date,
  key: CryptoKey,
  counts: Record<string, number>,
): Promise<{ answer: MealAnswer; counted?: string }> {
  if (at.getTime() - new Date(data.fetchedAt).getTime() > READER_DATA_HOURS * 3_600_000)
    return { answer: answerOf('READER_DATA_OLD', { hours: READER_DATA_HOURS }) };
  if (!room.activo) return { answer: answerOf('ROOM_INACTIVE') };
  if (reading.kind !== 'token' || !reading.token.startsWith(`${TOKEN_PREFIX}.`))
    return { answer: answerOf('DOCUMENT_NEEDS_NETWORK') };
  const verified = await verifyToken(reading.token, key);
  if (!verified.ok) return { answer: answerOf(verified.problem) };
  const { claims } = verified;
  if (claims.IdCliente !== room.IdCliente) return { answer: answerOf('TOKEN_OTHER_CLIENT') };
  const name = claims.Numero;
  const services = room.servicios.map((s) => ({
    ...s,
    Costo: 0,
    Exclusivo: 'N' as const,
    Especial: 'N' as const,
    Activo: 'S' as const,
  }));
  const sitting = sittingAt(services, at, room.zonaHoraria);
  if (!sitting) {
    const time = new Intl.DateTimeFormat('en-GB', {
      timeZone: room.zonaHoraria,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(at);
    return { answer: { ...answerOf('NO_SERVICE', { time }), name } };
  }
  const service = {
    IdServicio: sitting.service.IdServicio,
    Descripcion: sitting.service.Descripcion,
    Fecha: sitting.day,
  };
  const refused = (reason: MealReason, params?: MessageParams) => ({
    answer: { ...answerOf(reason, params), name, service },
  });
  if (claims.IdDivision !== room.IdDivision) return refused('NOT_ACCREDITED');
  if (claims.Hasta < sitting.day) return refused('CREDENTIAL_EXPIRED', { to: claims.Hasta });
  const counted = servedKey(claims.Numero, sitting.service.IdServicio, sitting.day);
  const used = counts[counted] ?? 0;
  const max = sitting.service.NumeroConsumos;
  if (used >= max) return refused('ALREADY_SERVED', { service: sitting.service.Descripcion, used, max });
  return {
    answer: { ...answerOf('ALLOWED'), name, service, used: { used: used + 1, max } },
    counted,
  };
}
