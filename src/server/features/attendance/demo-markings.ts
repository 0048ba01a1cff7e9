import { localTime, markingClock } from '../../../shared/access/decision.js';
import type { Plan } from '../../../shared/attendance.js';
import { instantAt, timeZoneOf } from '../../../shared/dates.js';
import type { Db } from '../../db/connection.js';
import { t } from '../../i18n.js';
import { ACCESS_TABLES } from '../../services/site/tables.js';

const DAY = 86_400_000;
/** How many days back a rostered worker's markings go. */
export const ROSTER_DAYS = 35;
/** Days back of a rostered worker's absence (plus their index modulo 3). */
export const ABSENCE_BACK = 9;

interface Gate {
  division: number;
  client: number;
  timeZone: string;
  entry: { door: number; zone: number; equipment: number | null };
  exit: { door: number; zone: number; equipment: number | null };
}

/**
 * A week of markings at each division's main gate for the demo's accredited workers, so that the
 * headcount and the marking report show something on the first start: day shifts (in about 06:45,
 * out about 19:10) and night shifts (in about 18:45, out about 07:10 the next morning), whoever is
 * on shift now counted present, and a few denials: unknown cards, an inactive card, a person with no
 * accreditation in the division. Presence rows follow the last allowed marking of each worker.
 */
export async function seedDemoMarkings(
  trx: Db,
  clientId: number,
  now = Date.now(),
  /** A worker's plan of a day, when attendance plans their days: their markings follow it for a month. */
  planOf?: (person: number, day: string) => Plan | undefined,
) {
  const divisions = (await trx
    .selectFrom('system_division')
    .select(['IdDivision', 'IdPais'])
    .where('IdCliente', '=', clientId)
    .orderBy('IdDivision')
    .execute()) as Array<{ IdDivision: number; IdPais: string }>;
  const gates: Gate[] = [];
  for (const d of divisions) {
    const doors = (await trx
      .selectFrom('access_door as p')
      .innerJoin('access_zone as z', 'z.IdZona', 'p.IdZona')
      .leftJoin('access_control_point_equipos as e', 'e.IdPuntoControl', 'p.IdPuntoControl')
      .select(['p.IdPuerta', 'p.IdZona', 'p.Sentido', 'e.Valor as IdEquipo'])
      .where('p.IdDivision', '=', d.IdDivision)
      .where('p.Activo', '=', 'S')
      .where('z.IdZonaPadre', 'is', null)
      .orderBy('p.IdPuerta')
      .orderBy('e.Valor')
      .execute()) as Array<{ IdPuerta: number; IdZona: number; Sentido: string; IdEquipo: number | null }>;
    const entry = doors.find((p) => p.Sentido === 'E') ?? doors.find((p) => p.Sentido === 'A');
    const exit = doors.find((p) => p.Sentido === 'S') ?? doors.find((p) => p.Sentido === 'A');
    if (!entry || !exit) continue;
    // A door's devices: the first reads entries, the last exits (a turnstile pair).
    const devices = (door: number) => doors.filter((p) => p.IdPuerta === door).map((p) => p.IdEquipo);
    gates.push({
      division: Number(d.IdDivision),
      client: clientId,
      timeZone: timeZoneOf(d.IdPais),
      entry: { door: entry.IdPuerta, zone: entry.IdZona, equipment: devices(entry.IdPuerta)[0] ?? null },
      exit: {
        door: exit.IdPuerta,
        zone: exit.IdZona,
        equipment:
          (exit.IdPuerta === entry.IdPuerta ? devices(exit.IdPuerta)[0] : devices(exit.IdPuerta).at(-1)) ??
          null,
      },
    });
  }

  const rows: Array<Record<string, unknown>> = [];
  const presence = new Map<string, Record<string, unknown>>();
  let seq = 0;
  const mark = (
    gate: Gate,
    instant: number,
    side: 'E' | 'S',
    who: { IdPersona: number | null; code: string; kind: 'C' | 'T' },
    reason: string,
    params?: Record<string, string>,
  ) => {
    if (instant >= now) return;
    const local = markingClock(new Date(instant), gate.timeZone);
    const door = side === 'E' ? gate.entry : gate.exit;
    const allowed = reason === 'ALLOWED';
    const id = `demo-${gate.division}-${++seq}`;
    rows.push({
      IdCliente: gate.client,
      IdDivision: gate.division,
      IdPersona: who.IdPersona,
      Fecha: local.date,
      Hora: local.time,
      Resultado: allowed ? 'P' : 'D',
      Motivo: allowed ? null : t('es', `gate.reasons.${reason}`, params).toUpperCase().slice(0, 200),
      IdZona: door.zone,
      IdPuerta: door.door,
      IdEquipo: door.equipment,
      Origen: 'E',
      Funcion: side,
      TipoMarcacion: who.kind,
      Automatico: 'S',
      EnLinea: 'S',
      Observacion: who.IdPersona ? null : who.code,
      IdMarcaDispositivo: id,
      FechaHoraDispositivo: new Date(instant).toISOString(),
      FechaHora: new Date(instant).toISOString(),
      HoraDudosa: 'N',
      CodigoMotivo: reason,
      IdUsuarioCreacion: door.equipment ? `EQUIPO:${door.equipment}` : 'SISTEMA',
      FechaCreacion: new Date(now).toISOString(),
    });
    if (allowed && who.IdPersona) {
      const key = `${gate.division}:P:${who.IdPersona}`;
      const last = presence.get(key);
      if (!last || Number(last.Instante) < instant)
        presence.set(key, {
          IdDivision: gate.division,
          Titular: `P:${who.IdPersona}`,
          IdCliente: gate.client,
          IdPersona: who.IdPersona,
          IdVehiculo: null,
          IdZona: door.zone,
          IdPuerta: door.door,
          Funcion: side,
          Instante: instant,
          $device: id,
        });
    }
  };

  // A small jitter that is the same on every load.
  const jitter = (n: number, spread: number) =>
    ((Math.imul(n + 1, 2654435761) >>> 0) % (spread * 2 + 1)) - spread;
  /**
   * A month of a rostered worker's days as their schedule plans them: on their working days in a
   * few minutes either side of the entry and out after the exit, now and then late (about half an
   * hour) or staying on (overtime); rest days and holidays off unmarked; a day of absence picked by
   * their index (the demo justifies some of them).
   */
  const rosterMarkings = (
    gate: Gate,
    w: { IdPersona: number; FechaInicio: string; FechaFin: string },
    who: { IdPersona: number | null; code: string; kind: 'C' | 'T' },
    index: number,
  ) => {
    for (let back = ROSTER_DAYS; back >= 0; back--) {
      const date = localTime(new Date(now - back * DAY), gate.timeZone).date;
      if (date < String(w.FechaInicio).slice(0, 10) || date > String(w.FechaFin).slice(0, 10)) continue;
      const plan = planOf?.(Number(w.IdPersona), date);
      if (!plan?.working || plan.start === undefined || plan.end === undefined) continue;
      if (back === ABSENCE_BACK + (index % 3)) continue;
      const n = index * 41 + back * 7;
      const late = n % 9 === 4 ? 25 + (n % 11) : 0;
      const stay = (index + back) % 6 === 2 ? 40 + (n % 5) * 5 : 0;
      // In up to ten minutes early (or late), out on the hour (or staying on), a few seconds past.
      const start = plan.start - 5 + jitter(n, 5) + late;
      const end = plan.end + stay;
      const seconds = ((Math.imul(n + 9, 40503) >>> 0) % 20) * 1000;
      mark(gate, instantAt(date, start, gate.timeZone) + seconds, 'E', who, 'ALLOWED');
      mark(gate, instantAt(date, end, gate.timeZone) + seconds, 'S', who, 'ALLOWED');
    }
  };
  for (const gate of gates) {
    const workers = (await trx
      .selectFrom('accreditation_accreditation as a')
      .innerJoin('administration_person as p', 'p.IdPersona', 'a.IdPersona')
      .select(['a.IdPersona', 'a.FechaInicio', 'a.FechaFin', 'p.Documento'])
      .where('a.IdDivision', '=', gate.division)
      .where('a.IdEntidad', '=', 'T')
      .where('a.Estado', '=', 'A')
      .orderBy('a.IdPersona')
      .execute()) as Array<{ IdPersona: number; FechaInicio: string; FechaFin: string; Documento: string }>;
    for (const [index, w] of workers.entries()) {
      const card = (await trx
        .selectFrom('identification_credential')
        .select('Numero')
        .where('IdPersona', '=', w.IdPersona)
        .where('Activo', '=', 'S')
        .executeTakeFirst()) as { Numero: string } | undefined;
      const who = card
        ? { IdPersona: Number(w.IdPersona), code: card.Numero, kind: 'C' as const }
        : { IdPersona: Number(w.IdPersona), code: w.Documento, kind: 'T' as const };
      if (planOf?.(Number(w.IdPersona), localTime(new Date(now), gate.timeZone).date)?.IdTipoHorario) {
        rosterMarkings(gate, w, who, index);
        continue;
      }
      const night = index % 3 === 2; // a third of the crew on nights
      for (let back = 7; back >= 0; back--) {
        const date = localTime(new Date(now - back * DAY), gate.timeZone).date;
        if (date < w.FechaInicio || date > w.FechaFin) continue;
        if ((index + back) % 7 === 6) continue; // a rest day a week
        const n = index * 37 + back * 5;
        const start = (night ? 18 * 60 + 45 : 6 * 60 + 45) + jitter(n, 12);
        const end = (night ? 24 * 60 + 7 * 60 + 10 : 19 * 60 + 10) + jitter(n + 3, 15);
        const second = (k: number) => ((Math.imul(n + k, 40503) >>> 0) % 60) * 1000;
        mark(gate, instantAt(date, start, gate.timeZone) + second(1), 'E', who, 'ALLOWED');
        mark(gate, instantAt(date, end, gate.timeZone) + second(2), 'S', who, 'ALLOWED');
      }
    }
    // Denials: unknown cards, someone not accredited here, each a few times over the week.
    const stranger = (await trx
      .selectFrom('administration_person as p')
      .select(['p.IdPersona', 'p.Documento'])
      .where('p.IdCliente', '=', gate.client)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('accreditation_accreditation as a')
              .select('a.IdAcreditacion')
              .whereRef('a.IdPersona', '=', 'p.IdPersona')
              .where('a.IdDivision', '=', gate.division),
          ),
        ),
      )
      .orderBy('p.IdPersona')
      .executeTakeFirst()) as { IdPersona: number; Documento: string } | undefined;
    for (let back = 6; back >= 1; back -= 2) {
      const date = localTime(new Date(now - back * DAY), gate.timeZone).date;
      const code = `FC-9${gate.division}${back}417`;
      mark(
        gate,
        instantAt(date, 7 * 60 + 2 + back, gate.timeZone),
        'E',
        { IdPersona: null, code, kind: 'C' },
        'UNKNOWN',
        {
          code,
        },
      );
      if (stranger)
        mark(
          gate,
          instantAt(date, 8 * 60 + 20 + back, gate.timeZone),
          'E',
          { IdPersona: Number(stranger.IdPersona), code: stranger.Documento, kind: 'T' },
          'NOT_ACCREDITED',
        );
    }
  }

  rows.sort((a, b) => String(a.FechaHora).localeCompare(String(b.FechaHora)));
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 200) {
    const inserted = (await trx
      .insertInto(ACCESS_TABLES.marking)
      .values(rows.slice(i, i + 200))
      .returning('IdMarcacion')
      .execute()) as Array<{ IdMarcacion: number }>;
    ids.push(...inserted.map((r) => Number(r.IdMarcacion)));
  }
  const byDevice = new Map(rows.map((r, i) => [String(r.IdMarcaDispositivo), ids[i]]));
  const states = [...presence.values()].map(({ $device, ...state }) => ({
    ...state,
    IdMarcacion: byDevice.get(String($device)) ?? 0,
  }));
  for (let i = 0; i < states.length; i += 200)
    await trx
      .insertInto(ACCESS_TABLES.presence)
      .values(states.slice(i, i + 200))
      .execute();
  return { marking: rows.length, presence: states.length };
}
