import {
  assignmentOn,
  type DayJustification,
  type DayResult,
  dailyResult,
  daysAround,
  type Holiday,
  type Marking,
  type Plan,
  planOf,
  type ScheduleAssignment,
  type ScheduleDay,
  type ScheduleType,
} from '../../../shared/attendance.js';
import { addDays, siteDate, timeZoneOf } from '../../../shared/dates.js';
import type { Db } from '../../db/connection.js';
import type { Registry } from '../../registry.js';
import { guardCycles } from '../../services/guards.js';
import { ACCESS_TABLES } from '../../services/site/tables.js';
import { ATTENDANCE_TABLES } from './tables.js';

type Row = Record<string, unknown>;
const num = (v: unknown) => (v == null ? undefined : Number(v));
const text = (v: unknown) => (v == null ? undefined : String(v).slice(0, 10));

/** People computed per round: their markings and rows are read in one statement each. */
const CHUNK = 400;
/** Days written per statement. */
const WRITE_ROWS = 1000;

/** The entity tables attendance reads. */
export function attendanceTables(registry: Registry) {
  const table = (name: string) => registry.require(name).table;
  const equipos = registry
    .require('attendance-control-point')
    .references.find((r) => r.field === 'Equipos')?.many;
  if (!equipos) throw new Error('attendance-control-point has no equipment links');
  return {
    client: table('client'),
    person: table('person'),
    company: table('company'),
    division: table('division'),
    scheduleType: table('schedule-type'),
    guard: table('guard'),
    regime: table('regime'),
    scheduleDay: table('schedule-day'),
    assignment: table('schedule-assignment'),
    config: table('attendance-config'),
    specialCondition: table('special-condition'),
    holiday: table('holiday'),
    justification: table('justification'),
    personJustification: table('person-justification'),
    payroll: table('payroll'),
    accreditation: table('accreditation'),
    point: table('attendance-control-point'),
    pointEquipment: equipos.table,
    marking: ACCESS_TABLES.marking,
  };
}
export type AttendanceTables = ReturnType<typeof attendanceTables>;

/** A client's attendance set-up, read once per round: time zone, schedules, holidays, which equipment counts. */
export interface ClientSetup {
  IdCliente: number;
  timeZone: string;
  /** The site's today: later days are not computed yet, and today is no absence until it is over. */
  today: string;
  /** Chunks of people computed at once (more than one on PostgreSQL, whose work runs in its own processes). */
  lanes: number;
  schedules: Map<number, ScheduleType>;
  holidays: Holiday[];
  /** Equipment of active attendance control points, with the directions they record. */
  equipment: Map<number, { entry: boolean; exit: boolean }>;
  /** The client's divisions (a marking is always of one). */
  divisions: number[];
}

/** A client's country, its sites' time zone and today there. */
export async function clientSite(db: Db, tables: AttendanceTables, clientId: number, now: number) {
  const client = (await db
    .selectFrom(tables.client)
    .select(['IdPais'])
    .where('IdCliente', '=', clientId)
    .executeTakeFirst()) as Row | undefined;
  const country = (client?.IdPais as string | null) ?? null;
  return { country, timeZone: timeZoneOf(country), today: siteDate(country, now) };
}

export async function loadClientSetup(
  db: Db,
  tables: AttendanceTables,
  clientId: number,
  now: number = Date.now(),
  lanes = 1,
): Promise<ClientSetup> {
  const { country, timeZone, today } = await clientSite(db, tables, clientId, now);
  const [schedules, weekdays, holidays, points, divisions] = await Promise.all([
    db.selectFrom(tables.scheduleType).selectAll().where('IdCliente', '=', clientId).execute() as Promise<
      Row[]
    >,
    db
      .selectFrom(tables.scheduleDay)
      .select(['IdTipoHorario', 'Dia', 'HoraEntrada', 'HoraSalida', 'InicioRefrigerio', 'FinRefrigerio'])
      .where('IdCliente', '=', clientId)
      .orderBy('Dia')
      .execute() as Promise<Row[]>,
    db
      .selectFrom(tables.holiday)
      .select(['Fecha', 'Descripcion', 'IdPais'])
      .where('IdCliente', '=', clientId)
      .execute() as Promise<Row[]>,
    db
      .selectFrom(`${tables.point} as p`)
      .innerJoin(`${tables.pointEquipment} as e`, 'e.IdPuntoControlAsistencia', 'p.IdPuntoControlAsistencia')
      .select(['e.Valor', 'p.RegistraEntrada', 'p.RegistraSalida'])
      .where('p.IdCliente', '=', clientId)
      .where('p.Activo', '=', 'S')
      .execute() as Promise<Row[]>,
    db
      .selectFrom(tables.division)
      .select('IdDivision')
      .where('IdCliente', '=', clientId)
      .execute() as Promise<Row[]>,
  ]);
  const equipment = new Map<number, { entry: boolean; exit: boolean }>();
  for (const p of points) {
    const id = Number(p.Valor);
    const held = equipment.get(id) ?? { entry: false, exit: false };
    equipment.set(id, {
      entry: held.entry || p.RegistraEntrada === 'S',
      exit: held.exit || p.RegistraSalida === 'S',
    });
  }
  return {
    IdCliente: clientId,
    timeZone,
    today,
    lanes,
    schedules: new Map(
      schedules
        .filter((s) => s.Activo === 'S')
        .map((s) => [
          Number(s.IdTipoHorario),
          {
            IdTipoHorario: Number(s.IdTipoHorario),
            Descripcion: String(s.Descripcion),
            Tipo: s.Tipo as ScheduleType['Tipo'],
            TurnoDiario: s.TurnoDiario as 'D' | 'N',
            DiasTrabajo: num(s.DiasTrabajo) ?? null,
            DiasDescanso: num(s.DiasDescanso) ?? null,
            MinutosFlexibles: Number(s.MinutosFlexibles ?? 0),
            HoraEntrada: (s.HoraEntrada as string | null) ?? null,
            HoraSalida: (s.HoraSalida as string | null) ?? null,
            InicioRefrigerio: (s.InicioRefrigerio as string | null) ?? null,
            FinRefrigerio: (s.FinRefrigerio as string | null) ?? null,
            ToleranciaMinutos: Number(s.ToleranciaMinutos ?? 0),
            HorasExtraAntes: Number(s.HorasExtraAntes ?? 0),
            HorasExtraDespues: Number(s.HorasExtraDespues ?? 0),
            // A weekly schedule's weekdays at their own hours.
            ...(s.Tipo === 'S' && {
              Dias: weekdays
                .filter((d) => Number(d.IdTipoHorario) === Number(s.IdTipoHorario))
                .map((d) => ({
                  Dia: Number(d.Dia) as ScheduleDay['Dia'],
                  HoraEntrada: String(d.HoraEntrada),
                  HoraSalida: String(d.HoraSalida),
                  InicioRefrigerio: (d.InicioRefrigerio as string | null) ?? null,
                  FinRefrigerio: (d.FinRefrigerio as string | null) ?? null,
                })),
            }),
          } satisfies ScheduleType,
        ]),
    ),
    // The client's holidays of its country (or of none named).
    holidays: holidays
      .filter((h) => h.IdPais == null || h.IdPais === country)
      .map((h) => ({ Fecha: String(h.Fecha).slice(0, 10), Descripcion: String(h.Descripcion) })),
    equipment,
    divisions: divisions.map((d) => Number(d.IdDivision)),
  };
}

interface PersonRows {
  IdPersona: number;
  IdCompania?: number;
  assignments: ScheduleAssignment[];
  /** The first day of the person's guard's cycle, when they have one. */
  guardStart?: string;
}
interface CompanyConfig extends ScheduleAssignment {
  FechaFin?: string | null;
  IdPlanilla: number | null;
  tolerance: number;
  tracked: boolean;
}

/** The schedule a person follows on a day: their own assignment, else their company's configuration. */
function scheduleOn(
  setup: ClientSetup,
  person: PersonRows,
  configs: Map<number, CompanyConfig[]>,
  day: string,
): { schedule?: ScheduleType; assignment?: ScheduleAssignment; config?: CompanyConfig } {
  const own = assignmentOn(person.assignments, day);
  const config =
    person.IdCompania !== undefined ? assignmentOn(configs.get(person.IdCompania) ?? [], day) : undefined;
  if (config && !config.tracked) return {};
  const chosen = own ?? (config?.IdTipoHorario ? config : undefined);
  const schedule = chosen && setup.schedules.get(chosen.IdTipoHorario);
  // A cycle counts from the person's own first day, else from their guard's (guards A, B, C of one
  // 14×7 rotate apart), else from the company's or the assignment's.
  const anchored =
    chosen && schedule?.Tipo === 'C' && person.guardStart && !own?.FechaAncla
      ? { ...chosen, FechaAncla: person.guardStart }
      : chosen;
  return { schedule, assignment: anchored, config };
}

function planFor(
  setup: ClientSetup,
  person: PersonRows,
  configs: Map<number, CompanyConfig[]>,
  day: string,
): Plan {
  const { schedule, assignment, config } = scheduleOn(setup, person, configs, day);
  const plan = planOf(day, schedule, assignment, setup.holidays);
  // The company's tolerance on entry, when it sets one, over the schedule's.
  return config?.tolerance ? { ...plan, tolerance: config.tolerance } : plan;
}

/** The payroll a person's day is closed in: their company's configuration's on that day. */
const payrollOn = (person: PersonRows, configs: Map<number, CompanyConfig[]>, day: string) =>
  person.IdCompania !== undefined
    ? (assignmentOn(configs.get(person.IdCompania) ?? [], day)?.IdPlanilla ?? null)
    : null;

/** A day's result as its row. */
function rowOf(
  clientId: number,
  companyId: number | undefined,
  payrollId: number | null | undefined,
  result: DayResult,
  holiday: string | undefined,
  at: string,
) {
  return {
    IdPersona: 0,
    Fecha: result.day,
    IdCliente: clientId,
    IdCompania: companyId ?? null,
    IdPlanilla: payrollId ?? null,
    IdTipoHorario: result.IdTipoHorario ?? null,
    Estado: result.status,
    EntradaPlan: result.plannedEntry ?? null,
    SalidaPlan: result.plannedExit ?? null,
    PrimeraEntrada: result.firstEntry ?? null,
    UltimaSalida: result.lastExit ?? null,
    MinutosTrabajados: result.workedMinutes,
    MinutosRefrigerio: result.breakMinutes,
    MinutosTardanza: result.lateMinutes,
    MinutosSalidaTemprana: result.earlyLeaveMinutes,
    MinutosExtraAntes: result.overtimeBeforeMinutes,
    MinutosExtraDespues: result.overtimeAfterMinutes,
    MinutosJustificados: result.justifiedMinutes,
    MinutosJustificadosPagados: result.paidJustifiedMinutes,
    Marcas: result.markings.length,
    Alertas: result.flags.length ? result.flags.join(',') : null,
    Feriado: holiday ?? null,
    Cerrado: 'N',
    Pendiente: 'N',
    CalculadoEn: at,
  };
}
export type DayRow = ReturnType<typeof rowOf>;

const UPDATED: Array<keyof DayRow> = [
  'IdCliente',
  'IdCompania',
  'IdPlanilla',
  'IdTipoHorario',
  'Estado',
  'EntradaPlan',
  'SalidaPlan',
  'PrimeraEntrada',
  'UltimaSalida',
  'MinutosTrabajados',
  'MinutosRefrigerio',
  'MinutosTardanza',
  'MinutosSalidaTemprana',
  'MinutosExtraAntes',
  'MinutosExtraDespues',
  'MinutosJustificados',
  'MinutosJustificadosPagados',
  'Marcas',
  'Alertas',
  'Feriado',
  'CalculadoEn',
];

/**
 * Recomputes the given days of the given people of a client, from what the database holds now
 * (so the result never depends on the order markings arrived in), and writes them. A closed day
 * keeps its figures; if they would change, it is marked Pendiente for the next period. Answers how
 * many days were written.
 */
export async function recomputeDays(
  db: Db,
  tables: AttendanceTables,
  setup: ClientSetup,
  days: Map<number, Set<string>>,
  at: string = new Date().toISOString(),
): Promise<number> {
  const { lanes } = setup;
  const ids = [...days.keys()].sort((a, b) => a - b);
  const chunks: number[][] = [];
  for (let i = 0; i < ids.length; i += CHUNK) chunks.push(ids.slice(i, i + CHUNK));
  // Chunks in `lanes` at once: on PostgreSQL one chunk's reading and writing overlaps another's computing.
  let next = 0;
  const counts = await Promise.all(
    Array.from({ length: Math.max(1, Math.min(lanes, chunks.length)) }, async () => {
      let written = 0;
      while (next < chunks.length)
        written += await recomputeChunk(db, tables, setup, days, chunks[next++], at);
      return written;
    }),
  );
  return counts.reduce((a, b) => a + b, 0);
}

async function recomputeChunk(
  db: Db,
  tables: AttendanceTables,
  setup: ClientSetup,
  days: Map<number, Set<string>>,
  chunk: number[],
  at: string,
): Promise<number> {
  {
    let from = '9999-12-31';
    let to = '0000-01-01';
    for (const id of chunk)
      for (const day of days.get(id) ?? []) {
        if (day < from) from = day;
        if (day > to) to = day;
      }
    const [{ byPerson, configs, candidates }, markings, closed, justified] = await Promise.all([
      peopleRows(db, tables, setup, chunk),
      // A day's window reaches from the evening before to the morning after next.
      db
        .selectFrom(tables.marking)
        .select(['IdMarcacion', 'IdPersona', 'Fecha', 'FechaHora', 'Funcion', 'IdEquipo'])
        // The marking's index leads with client and division: named, it is sought, not scanned.
        .where('IdCliente', '=', setup.IdCliente)
        .where('IdDivision', 'in', setup.divisions.length ? setup.divisions : [0])
        .where('IdPersona', 'in', chunk)
        .where('Fecha', '>=', addDays(from, -1))
        .where('Fecha', '<=', addDays(to, 2))
        .where('Resultado', '=', 'P')
        .execute() as Promise<Row[]>,
      db
        .selectFrom(ATTENDANCE_TABLES.day)
        .selectAll()
        .where('IdPersona', 'in', chunk)
        .where('Fecha', '>=', from)
        .where('Fecha', '<=', to)
        .where('Cerrado', '=', 'S')
        .execute() as Promise<Row[]>,
      db
        .selectFrom(`${tables.personJustification} as pj`)
        .innerJoin(`${tables.justification} as j`, 'j.IdJustificacion', 'pj.IdJustificacion')
        .select(['pj.IdPersona', 'pj.Fecha', 'pj.IdJustificacion', 'pj.Tipo', 'pj.Horas', 'j.Pagado'])
        .where('pj.IdPersona', 'in', chunk)
        .where('pj.Fecha', '>=', from)
        .where('pj.Fecha', '<=', to)
        .execute() as Promise<Row[]>,
    ]);
    // Each person's markings by local date: a day reads those of the day before to the day after.
    const marksOf = new Map<number, Map<string, Marking[]>>();
    for (const m of markings) {
      // Manual markings (no equipment) count; a device's only at an attendance point recording that direction.
      const equipment = num(m.IdEquipo);
      if (equipment !== undefined) {
        const point = setup.equipment.get(equipment);
        if (!point || !(m.Funcion === 'E' ? point.entry : point.exit)) continue;
      }
      if (!m.FechaHora) continue;
      const person = Number(m.IdPersona);
      const dates = marksOf.get(person) ?? marksOf.set(person, new Map()).get(person);
      const date = String(m.Fecha).slice(0, 10);
      const list = dates?.get(date) ?? [];
      list.push({
        at: String(m.FechaHora),
        direction: m.Funcion === 'S' ? 'S' : 'E',
        id: Number(m.IdMarcacion),
      });
      dates?.set(date, list);
    }
    const justificationsOf = new Map<string, DayJustification[]>();
    for (const j of justified) {
      const key = `${j.IdPersona}|${String(j.Fecha).slice(0, 10)}`;
      const list = justificationsOf.get(key) ?? justificationsOf.set(key, []).get(key) ?? [];
      list.push({
        IdJustificacion: Number(j.IdJustificacion),
        Tipo: j.Tipo as DayJustification['Tipo'],
        Minutos: j.Horas == null ? null : Math.round(Number(j.Horas) * 60),
        Pagado: j.Pagado === 'S' ? 'S' : 'N',
      });
    }
    const closedDays = new Map(closed.map((c) => [`${c.IdPersona}|${String(c.Fecha).slice(0, 10)}`, c]));

    const rows: DayRow[] = [];
    const pending: Array<{ IdPersona: number; Fecha: string }> = [];
    for (const id of chunk) {
      const person = byPerson.get(id);
      if (!person) continue;
      const personMarks = marksOf.get(id);
      const plans = new Map<string, Plan>();
      const planOn = (day: string) =>
        plans.get(day) ?? (plans.set(day, planFor(setup, person, configs, day)).get(day) as Plan);
      for (const day of [...(days.get(id) ?? [])].sort()) {
        if (day > setup.today) continue;
        const plan = planOn(day);
        const next = planOn(addDays(day, 1));
        const around = daysAround(day).flatMap((d) => personMarks?.get(d) ?? []);
        const result = dailyResult({
          day,
          timeZone: setup.timeZone,
          plan,
          next,
          markings: around,
          justifications: justificationsOf.get(`${id}|${day}`),
          candidates: person.IdCompania !== undefined ? (candidates.get(person.IdCompania) ?? []) : [],
        });
        // Nothing to keep of a day with no schedule and no marking, nor of today's absence before it is over.
        if (result.status === 'NO_SCHEDULE' && !result.markings.length) continue;
        if (day === setup.today && result.status === 'ABSENT') continue;
        const row = {
          ...rowOf(
            setup.IdCliente,
            person.IdCompania,
            payrollOn(person, configs, day),
            result,
            plan.holiday,
            at,
          ),
          IdPersona: id,
        };
        const kept = closedDays.get(`${id}|${day}`);
        if (kept) {
          if (UPDATED.some((k) => k !== 'CalculadoEn' && String(kept[k] ?? '') !== String(row[k] ?? '')))
            pending.push({ IdPersona: id, Fecha: day });
          continue;
        }
        rows.push(row);
      }
    }
    const written = await writeRows(db, rows);
    for (const p of pending)
      await db
        .updateTable(ATTENDANCE_TABLES.day)
        .set({ Pendiente: 'S' })
        .where('IdPersona', '=', p.IdPersona)
        .where('Fecha', '=', p.Fecha)
        .execute();
    return written;
  }
}

/** People of a client with their own schedule assignments, their companies' configurations and an automatic schedule's candidates. */
async function peopleRows(db: Db, tables: AttendanceTables, setup: ClientSetup, ids: number[]) {
  const [people, assignments] = await Promise.all([
    db
      .selectFrom(tables.person)
      .select(['IdPersona', 'IdCompania'])
      .where('IdPersona', 'in', ids)
      .where('IdCliente', '=', setup.IdCliente)
      .execute() as Promise<Row[]>,
    db
      .selectFrom(tables.assignment)
      .select(['IdPersona', 'IdTipoHorario', 'FechaInicio', 'FechaFin', 'FechaAncla'])
      .where('IdPersona', 'in', ids)
      .where('Activo', '=', 'S')
      .execute() as Promise<Row[]>,
  ]);
  const companies = [
    ...new Set(people.map((p) => num(p.IdCompania)).filter((c): c is number => c !== undefined)),
  ];
  const configs = await companyConfigs(db, tables, setup.IdCliente, companies);
  const guards = await guardCycles(db, tables, { clientId: setup.IdCliente, ids });
  // A round's chunks share their companies: each company's candidates are read once a round.
  const kept = keptCandidates.get(setup) ?? keptCandidates.set(setup, new Map()).get(setup);
  const missing = companies.filter((c) => !kept?.has(c));
  if (missing.length)
    for (const [company, list] of await companyCandidates(db, tables, setup, missing, configs))
      kept?.set(company, list);
  for (const company of missing) if (!kept?.has(company)) kept?.set(company, []);
  const candidates = kept as Map<number, ScheduleType[]>;
  const byPerson = new Map<number, PersonRows>();
  for (const p of people)
    byPerson.set(Number(p.IdPersona), {
      IdPersona: Number(p.IdPersona),
      IdCompania: num(p.IdCompania),
      assignments: [],
      guardStart: guards.get(Number(p.IdPersona))?.start,
    });
  for (const a of assignments)
    byPerson.get(Number(a.IdPersona))?.assignments.push({
      IdTipoHorario: Number(a.IdTipoHorario),
      FechaInicio: String(a.FechaInicio).slice(0, 10),
      FechaFin: text(a.FechaFin) ?? null,
      FechaAncla: text(a.FechaAncla) ?? null,
    });
  return { byPerson, configs, candidates };
}

/**
 * What some people are planned to work each day (their own assignment, else their company's
 * configuration): the demo's markings follow it.
 */
export async function planReader(db: Db, tables: AttendanceTables, setup: ClientSetup, ids: number[]) {
  const { byPerson, configs } = await peopleRows(db, tables, setup, ids);
  return (id: number, day: string): Plan | undefined => {
    const person = byPerson.get(id);
    return person && planFor(setup, person, configs, day);
  };
}

async function writeRows(db: Db, rows: DayRow[]): Promise<number> {
  // A thousand rows of 29 columns a statement: within both databases' limits on parameters.
  for (let i = 0; i < rows.length; i += WRITE_ROWS)
    await db
      .insertInto(ATTENDANCE_TABLES.day)
      .values(rows.slice(i, i + WRITE_ROWS))
      .onConflict((oc) =>
        oc
          .columns(['IdPersona', 'Fecha'])
          .doUpdateSet(
            (eb) =>
              Object.fromEntries(UPDATED.map((k) => [k, eb.ref(`excluded.${k}`)])) as Record<string, never>,
          ),
      )
      .execute();
  return rows.length;
}

async function companyConfigs(
  db: Db,
  tables: AttendanceTables,
  clientId: number,
  companies: number[],
): Promise<Map<number, CompanyConfig[]>> {
  const out = new Map<number, CompanyConfig[]>();
  if (!companies.length) return out;
  const rows = (await db
    .selectFrom(tables.config)
    .select([
      'IdCompania',
      'IdPlanilla',
      'IdTipoHorario',
      'FechaAncla',
      'FechaInicio',
      'FechaFin',
      'ToleranciaMinutos',
      'ControlaAsistencia',
    ])
    .where('IdCliente', '=', clientId)
    .where('IdCompania', 'in', companies)
    .where('Activo', '=', 'S')
    .execute()) as Row[];
  for (const r of rows) {
    const list = out.get(Number(r.IdCompania)) ?? [];
    list.push({
      IdTipoHorario: Number(r.IdTipoHorario ?? 0),
      IdPlanilla: num(r.IdPlanilla) ?? null,
      FechaInicio: String(r.FechaInicio).slice(0, 10),
      FechaFin: text(r.FechaFin) ?? null,
      FechaAncla: text(r.FechaAncla) ?? null,
      tolerance: Number(r.ToleranciaMinutos ?? 0),
      tracked: r.ControlaAsistencia === 'S',
    });
    out.set(Number(r.IdCompania), list);
  }
  return out;
}

/** The candidates read for a set-up (a round), by company. */
const keptCandidates = new WeakMap<ClientSetup, Map<number, ScheduleType[]>>();

/** An automatic schedule's candidates: the schedules a company's people or its configuration follow. */
async function companyCandidates(
  db: Db,
  tables: AttendanceTables,
  setup: ClientSetup,
  companies: number[],
  configs: Map<number, CompanyConfig[]>,
): Promise<Map<number, ScheduleType[]>> {
  const out = new Map<number, Set<number>>();
  if (!companies.length) return new Map();
  const rows = (await db
    .selectFrom(`${tables.assignment} as a`)
    .innerJoin(`${tables.person} as p`, 'p.IdPersona', 'a.IdPersona')
    .select(['p.IdCompania', 'a.IdTipoHorario'])
    .distinct()
    .where('p.IdCompania', 'in', companies)
    .where('a.Activo', '=', 'S')
    .execute()) as Row[];
  for (const r of rows) {
    const set = out.get(Number(r.IdCompania)) ?? new Set<number>();
    set.add(Number(r.IdTipoHorario));
    out.set(Number(r.IdCompania), set);
  }
  for (const [company, list] of configs)
    for (const c of list)
      if (c.IdTipoHorario)
        (out.get(company) ?? out.set(company, new Set()).get(company))?.add(c.IdTipoHorario);
  return new Map(
    [...out].map(([company, set]) => [
      company,
      [...set]
        .map((id) => setup.schedules.get(id))
        .filter((s): s is ScheduleType => Boolean(s && s.Tipo !== 'A')),
    ]),
  );
}

/** The people of a client whose attendance is kept: those with a schedule assigned, or of a company whose configuration tracks it. */
export async function trackedPeople(
  db: Db,
  tables: AttendanceTables,
  clientId: number,
  from: string,
  to: string,
) {
  const [assigned, configured] = await Promise.all([
    db
      .selectFrom(tables.assignment)
      .select('IdPersona')
      .distinct()
      .where('IdCliente', '=', clientId)
      .where('Activo', '=', 'S')
      .where('FechaInicio', '<=', to)
      .where((eb) => eb.or([eb('FechaFin', 'is', null), eb('FechaFin', '>=', from)]))
      .execute() as Promise<Row[]>,
    db
      .selectFrom(`${tables.person} as p`)
      .innerJoin(`${tables.config} as c`, 'c.IdCompania', 'p.IdCompania')
      .select('p.IdPersona')
      .where('c.IdCliente', '=', clientId)
      .where('p.IdCliente', '=', clientId)
      .where('c.Activo', '=', 'S')
      .where('c.ControlaAsistencia', '=', 'S')
      .where('c.IdTipoHorario', 'is not', null)
      .where('p.Inactivo', '<>', 'S')
      .execute() as Promise<Row[]>,
  ]);
  return [...new Set([...assigned, ...configured].map((r) => Number(r.IdPersona)))];
}

/** Every day of a period for the people tracked (or those given): what closing a period and the bench compute. */
export async function computePeriod(
  db: Db,
  tables: AttendanceTables,
  setup: ClientSetup,
  from: string,
  to: string,
  people?: number[],
): Promise<number> {
  const ids = people ?? (await trackedPeople(db, tables, setup.IdCliente, from, to));
  const dates: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) dates.push(d);
  const days = new Map(ids.map((id) => [id, new Set(dates)]));
  return recomputeDays(db, tables, setup, days);
}

/** How many chunks of people a dialect computes at once. */
export const lanesOf = (dialect: 'sqlite' | 'postgres') => (dialect === 'postgres' ? 3 : 1);
