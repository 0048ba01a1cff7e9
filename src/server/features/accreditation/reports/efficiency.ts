import type { Attended, EfficiencyReport } from '../../../../shared/efficiency.js';
import type { Database } from '../../../db/connection.js';
import type { Registry } from '../../../registry.js';

/** The efficiency report's question: a year, a month range of it, optionally one request type and kind. */
export interface EfficiencyAsk {
  clientId: number;
  divisionId: number;
  year: number;
  from: number;
  to: number;
  kind?: string;
  entity?: string;
}

interface Cell {
  count: number;
  minutes: number;
  longest: number;
}

const percent = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 10 : 0);
const hours = (minutes: number) => Math.round((minutes / 60) * 10) / 10;

/** Sums attention cells by outcome into a report row. */
function attended(cells: Map<string, Cell>): Attended {
  const by = (outcome: string) => cells.get(outcome)?.count ?? 0;
  const all = [...cells.values()];
  const decisions = all.reduce((n, c) => n + c.count, 0);
  const minutes = all.reduce((n, c) => n + c.minutes, 0);
  const longest = all.reduce((n, c) => Math.max(n, c.longest), 0);
  return {
    Decisiones: decisions,
    Aprobadas: by('A'),
    Observadas: by('O'),
    Rechazadas: by('R'),
    Devueltas: by('I'),
    PorcentajeAprobadas: percent(by('A'), decisions),
    PorcentajeObservadas: percent(by('O'), decisions),
    PorcentajeRechazadas: percent(by('R'), decisions),
    PromedioHoras: decisions ? hours(minutes / decisions) : null,
    MaximoHoras: decisions ? hours(longest) : null,
  };
}

/** Adds a cell's figures into a map of outcome cells. */
function add(cells: Map<string, Cell>, outcome: string, cell: Cell) {
  const known = cells.get(outcome) ?? { count: 0, minutes: 0, longest: 0 };
  known.count += cell.count;
  known.minutes += cell.minutes;
  known.longest = Math.max(known.longest, cell.longest);
  cells.set(outcome, known);
}

/**
 * The efficiency of approval (spec section 2, /reporte) for a year and a month range: the
 * requests sent each month, the share of decisions that approved, observed and rejected, and the
 * average and longest attention time (from sending to decision, and from a correction back to the
 * next decision); also per authoriser and per requirement (where do requests wait?). Read from the
 * attention table the engine keeps in each decision's transaction: a few hundred rows whatever
 * the number of requests.
 */
export async function efficiency(
  database: Database,
  registry: Registry,
  ask: EfficiencyAsk,
): Promise<EfficiencyReport> {
  const months: string[] = [];
  for (let m = ask.from; m <= ask.to; m++) months.push(`${ask.year}-${String(m).padStart(2, '0')}`);
  const t = (name: string) => registry.require(name).table;
  let qb = database.db
    .selectFrom(t('request-attention'))
    .select((eb) => [
      'Mes',
      'Eje',
      'Clave',
      'Resultado',
      eb.fn.sum<number | string>('Cantidad').as('Cantidad'),
      eb.fn.sum<number | string>('MinutosTotal').as('MinutosTotal'),
      eb.fn.max<number | string>('MinutosMax').as('MinutosMax'),
    ])
    .where('IdCliente', '=', ask.clientId)
    .where('IdDivision', '=', ask.divisionId)
    .where('Mes', 'in', months);
  if (ask.kind) qb = qb.where('TipoSolicitud', '=', ask.kind);
  if (ask.entity) qb = qb.where('IdEntidad', '=', ask.entity);
  const rows = (await qb.groupBy(['Mes', 'Eje', 'Clave', 'Resultado']).execute()) as Array<{
    Mes: string;
    Eje: string;
    Clave: string;
    Resultado: string;
    Cantidad: number | string;
    MinutosTotal: number | string;
    MinutosMax: number | string;
  }>;
  const sent = new Map<string, number>();
  const byMonth = new Map(months.map((m) => [m, new Map<string, Cell>()]));
  const total = new Map<string, Cell>();
  const byUser = new Map<string, Map<string, Cell>>();
  const byRequirement = new Map<string, Map<string, Cell>>();
  for (const r of rows) {
    const cell = {
      count: Number(r.Cantidad),
      minutes: Number(r.MinutosTotal),
      longest: Number(r.MinutosMax),
    };
    if (r.Eje === 'S') sent.set(r.Mes, (sent.get(r.Mes) ?? 0) + cell.count);
    else if (r.Eje === 'U') {
      add(byMonth.get(r.Mes) as Map<string, Cell>, r.Resultado, cell);
      add(total, r.Resultado, cell);
      if (!byUser.has(r.Clave)) byUser.set(r.Clave, new Map());
      add(byUser.get(r.Clave) as Map<string, Cell>, r.Resultado, cell);
    } else {
      if (!byRequirement.has(r.Clave)) byRequirement.set(r.Clave, new Map());
      add(byRequirement.get(r.Clave) as Map<string, Cell>, r.Resultado, cell);
    }
  }
  const users = byUser.size
    ? ((await database.db
        .selectFrom(t('user'))
        .select(['IdUsuario', 'Nombre', 'Apellido'])
        .where('IdUsuario', 'in', [...byUser.keys()])
        .execute()) as Array<{ IdUsuario: string; Nombre: string; Apellido: string }>)
    : [];
  const requirementIds = [...byRequirement.keys()].map(Number).filter(Number.isInteger);
  const requirements = requirementIds.length
    ? ((await database.db
        .selectFrom(t('requirement'))
        .select(['IdRequisito', 'Requisito'])
        .where('IdRequisito', 'in', requirementIds)
        .execute()) as Array<{ IdRequisito: number; Requisito: string }>)
    : [];
  const slowestFirst = (a: Attended, b: Attended) => (b.PromedioHoras ?? 0) - (a.PromedioHoras ?? 0);
  return {
    Anio: ask.year,
    MesDesde: ask.from,
    MesHasta: ask.to,
    meses: months.map((Mes) => ({
      Mes,
      Solicitudes: sent.get(Mes) ?? 0,
      ...attended(byMonth.get(Mes) as Map<string, Cell>),
    })),
    total: { Solicitudes: [...sent.values()].reduce((n, v) => n + v, 0), ...attended(total) },
    autorizadores: [...byUser.entries()]
      .map(([IdUsuario, cells]) => {
        const user = users.find((u) => u.IdUsuario === IdUsuario);
        return {
          IdUsuario,
          Nombre: user ? `${user.Nombre} ${user.Apellido}` : IdUsuario,
          ...attended(cells),
        };
      })
      .sort(slowestFirst),
    requisitos: [...byRequirement.entries()]
      .map(([key, cells]) => ({
        IdRequisito: Number(key),
        Requisito: requirements.find((q) => String(q.IdRequisito) === key)?.Requisito ?? key,
        ...attended(cells),
      }))
      .sort(slowestFirst),
  };
}
