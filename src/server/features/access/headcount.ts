import type { RollCallRow } from '../../../shared/access.js';
import type { Language } from '../../../shared/constants.js';
import { addDays, instantAt, siteDate, timeZoneOf } from '../../../shared/dates.js';
import type { Db } from '../../db/connection.js';
import { ApiError, badQuery } from '../../errors.js';
import { t } from '../../i18n.js';
import { queryJson } from '../../plugins/input.js';
import type { Principal } from '../../principal.js';
import { requesterOf } from '../../services/requester.js';
import { ACCESS_TABLES } from '../../services/site/tables.js';

export type HeadcountEntity = 'T' | 'V' | 'P';
export type HeadcountMode = 'C' | 'O' | 'N';

/** A headcount row of spec section 3 (Dashboard rows), with the group the division's mode counts by. */
export interface HeadcountRow {
  IdPersona: number | null;
  IdVehiculo: number | null;
  Documento: string | null;
  NombreCompleto: string | null;
  Placa: string | null;
  Marca: string | null;
  IdContrato: number | null;
  Contrato: string | null;
  Zona: string | null;
  /** The instant of the entry that made the holder present (ISO). */
  FechaMarca: string | null;
  /** Minutes on site since that entry. */
  Permanencia: number | null;
  /** The contract or organisational unit the row is counted under (null: mode N). */
  Grupo: string | null;
}

/** Who may see whose headcount: a contractor its company's, a client profile its whole division. */
export interface HeadcountScope {
  clientId: number;
  divisionId: number;
  companyId?: number;
}

export function headcountScope(principal: Principal): HeadcountScope {
  if (principal.clientId === undefined || principal.divisionId === undefined) throw new ApiError('FORBIDDEN');
  const grants = principal.grants?.resources;
  // A contractor sees its company's with the mobilisation permission (spec: the headcount tab uses it);
  // the client's security office, which reads markings, the whole division.
  if (principal.companyId !== undefined) {
    const requester = requesterOf(principal);
    return { clientId: principal.clientId, divisionId: principal.divisionId, companyId: requester.companyId };
  }
  if (!grants?.get('marking')) throw new ApiError('FORBIDDEN');
  return { clientId: principal.clientId, divisionId: principal.divisionId };
}

/**
 * The day a headcount is of (spec sections 2 and 7: the requester dashboard's year and months): none
 * (today, as the gates have it now) without CantYear and CantMonth; else the last day of the latest
 * month CantMonth names (comma-separated, 1 to 12; December without it) of CantYear (this year
 * without it), or today when that month has not ended yet. A bad year or month is refused.
 */
export function headcountDay(
  query: { CantYear?: unknown; CantMonth?: unknown },
  today: string,
): string | undefined {
  const given = (v: unknown) => v !== undefined && v !== null && String(v).trim() !== '';
  if (!given(query.CantYear) && !given(query.CantMonth)) return undefined;
  let year = Number(today.slice(0, 4));
  if (given(query.CantYear)) {
    const text = String(query.CantYear).trim();
    year = Number(text);
    if (!/^\d{4}$/.test(text) || year < 2000 || year > 2100) throw badQuery('CantYear', 'headcount.badYear');
  }
  let month = 12;
  if (given(query.CantMonth)) {
    const parts = String(query.CantMonth)
      .split(',')
      .map((m) => m.trim());
    if (parts.some((m) => !/^\d{1,2}$/.test(m) || Number(m) < 1 || Number(m) > 12))
      throw badQuery('CantMonth', 'headcount.badMonth');
    month = Math.max(...parts.map(Number));
  }
  const last = addDays(
    `${month === 12 ? year + 1 : year}-${String((month % 12) + 1).padStart(2, '0')}-01`,
    -1,
  );
  return last < today ? last : undefined;
}

const str = (v: unknown) => (v == null ? null : String(v));
const num = (v: unknown) => (v == null ? null : Number(v));

/**
 * Present: the holder's last allowed marking in the division is an entry (the presence table, moved
 * in each marking's transaction, holds it: one row per holder, never a scan of markings). Absent:
 * accredited today (state A, within its dates) and not present. Visits count through the persons a
 * visit request registered.
 *
 * As of a past day (`headcountDay`): accredited that day (an accreditation whose dates include it,
 * active, suspended or ended since: its state then is not kept, and a demobilisation moved its end
 * to its date), and present when its last allowed, trustworthy marking in the division before that
 * day ended was an entry (read from the markings, per holder, by its index).
 */
export class Headcount {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  private async division(scope: HeadcountScope) {
    const row = await this.db
      .selectFrom('system_division')
      .select(['IdPais', 'ModoDotacion'])
      .where('IdDivision', '=', scope.divisionId)
      .executeTakeFirst();
    return { country: str(row?.IdPais), mode: (str(row?.ModoDotacion) ?? 'C') as HeadcountMode };
  }

  /** Every accredited holder of one kind with whether, where and since when it is present. */
  async rows(
    scope: HeadcountScope,
    entity: HeadcountEntity,
    division?: { country: string | null | undefined; mode: HeadcountMode },
    asOf?: string,
  ): Promise<HeadcountRow[]> {
    const { country, mode } = division ?? (await this.division(scope));
    const today = siteDate(country, this.now());
    // A past day's headcount, or today's (the presence the gates keep).
    const past = asOf !== undefined && asOf < today ? asOf : undefined;
    const day = past ?? today;
    let q = this.db
      .selectFrom('accreditation_accreditation as a')
      .leftJoin('administration_contract as c', 'c.IdContrato', 'a.IdContrato')
      .leftJoin('accreditation_request as r', 'r.IdSolicitud', 'a.IdSolicitud')
      .leftJoin('administration_organisational_unit as u', 'u.IdUnidadOrganizativa', 'r.IdUnidadOrganizativa')
      .where('a.IdCliente', '=', scope.clientId)
      .where('a.IdDivision', '=', scope.divisionId)
      .where('a.IdEntidad', '=', entity)
      .where('a.Estado', 'in', past ? ['A', 'S', 'T'] : ['A'])
      .where('a.FechaInicio', '<=', day)
      .where('a.FechaFin', '>=', day);
    if (scope.companyId !== undefined) q = q.where('a.IdCompania', '=', scope.companyId);
    const common = ['a.IdContrato', 'c.NumeroContrato', 'u.Descripcion as Unidad'] as const;
    // biome-ignore lint/suspicious/noExplicitAny: the three shapes are read alike below
    let raw: any[];
    if (entity === 'V')
      raw = await q
        .innerJoin('administration_vehicle as v', 'v.IdVehiculo', 'a.IdVehiculo')
        .leftJoin('administration_brand as b', 'b.IdMarca', 'v.IdMarca')
        .select([...common, 'v.IdVehiculo', 'v.Placa', 'b.Descripcion as Marca'])
        .execute();
    else if (entity === 'T')
      raw = await q
        .innerJoin('administration_person as p', 'p.IdPersona', 'a.IdPersona')
        .select([...common, 'p.IdPersona', 'p.Documento', 'p.Apellido', 'p.Nombre'])
        .execute();
    else
      raw = await q
        .innerJoin('accreditation_visit_person as p', 'p.IdSolicitud', 'a.IdSolicitud')
        .select([...common, 'p.IdPersona', 'p.Documento', 'p.Apellido', 'p.Nombre'])
        .execute();

    const end = past ? instantAt(addDays(past, 1), 0, timeZoneOf(country)) : undefined;
    const present = end
      ? await this.insideBefore(scope, entity, raw, end)
      : await this.db
          .selectFrom(`${ACCESS_TABLES.presence} as s`)
          .leftJoin('access_zone as z', 'z.IdZona', 's.IdZona')
          .select(['s.Titular', 's.Instante', 'z.Descripcion as Zona'])
          .where('s.IdDivision', '=', scope.divisionId)
          .where('s.Funcion', '=', 'E')
          .where('s.Titular', 'like', entity === 'V' ? 'V:%' : 'P:%')
          .execute();
    const inside = new Map(present.map((p) => [String(p.Titular), p]));
    // Time on site up to now, or up to the end of the past day asked.
    const at = end ?? this.now();
    const seen = new Set<string>();
    const rows: HeadcountRow[] = [];
    for (const r of raw) {
      const key =
        entity === 'V' ? `V:${r.IdVehiculo}` : r.IdPersona != null ? `P:${r.IdPersona}` : `D:${r.Documento}`;
      if (seen.has(key)) continue; // accredited under two contracts: counted once
      seen.add(key);
      const here = inside.get(key);
      const instant = here ? Number(here.Instante) : null;
      rows.push({
        IdPersona: num(r.IdPersona),
        IdVehiculo: num(r.IdVehiculo),
        Documento: str(r.Documento),
        NombreCompleto: r.Apellido != null ? `${r.Apellido} ${r.Nombre ?? ''}`.trim() : null,
        Placa: str(r.Placa),
        Marca: str(r.Marca),
        IdContrato: num(r.IdContrato),
        Contrato: str(r.NumeroContrato),
        Zona: here ? str(here.Zona) : null,
        FechaMarca: instant == null ? null : new Date(instant).toISOString(),
        Permanencia: instant == null ? null : Math.max(0, Math.floor((at - instant) / 60_000)),
        Grupo: mode === 'C' ? str(r.NumeroContrato) : mode === 'O' ? str(r.Unidad) : null,
      });
    }
    return rows;
  }

  /**
   * The holders among `raw` inside the division at `end` (epoch ms): whose last allowed, trustworthy
   * marking there before it is an entry, as the presence table's rows would have read then.
   */
  private async insideBefore(
    scope: HeadcountScope,
    entity: HeadcountEntity,
    // biome-ignore lint/suspicious/noExplicitAny: the rows read above
    raw: any[],
    end: number,
  ): Promise<Array<{ Titular: string; Instante: number; Zona: string | null }>> {
    const column = entity === 'V' ? 'IdVehiculo' : 'IdPersona';
    const ids = [
      ...new Set(
        raw
          .map((r) => r[column])
          .filter((v) => v != null)
          .map(Number),
      ),
    ];
    const before = new Date(end).toISOString();
    const out: Array<{ Titular: string; Instante: number; Zona: string | null }> = [];
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      const last = this.db
        .selectFrom(ACCESS_TABLES.marking)
        .select([column, (eb) => eb.fn.max('FechaHora').as('Ultima')])
        .where('IdCliente', '=', scope.clientId)
        .where('IdDivision', '=', scope.divisionId)
        .where('Resultado', '=', 'P')
        .where('HoraDudosa', '=', 'N')
        .where('FechaHora', '<', before)
        .where(column, 'in', chunk)
        .groupBy(column)
        .as('l');
      const rows = await this.db
        .selectFrom(`${ACCESS_TABLES.marking} as m`)
        .innerJoin(last, (join) =>
          join.onRef(`l.${column}`, '=', `m.${column}`).onRef('l.Ultima', '=', 'm.FechaHora'),
        )
        .leftJoin('access_zone as z', 'z.IdZona', 'm.IdZona')
        .select([`m.${column} as Id`, 'm.Funcion', 'm.FechaHora', 'z.Descripcion as Zona'])
        .where('m.IdCliente', '=', scope.clientId)
        .where('m.IdDivision', '=', scope.divisionId)
        .where('m.Resultado', '=', 'P')
        .where('m.HoraDudosa', '=', 'N')
        .execute();
      const byHolder = new Map<number, (typeof rows)[number]>();
      // Two markings at the same instant: an exit wins (not inside unless surely so).
      for (const row of rows) {
        const id = Number(row.Id);
        if (!byHolder.has(id) || row.Funcion !== 'E') byHolder.set(id, row);
      }
      for (const [id, row] of byHolder)
        if (row.Funcion === 'E')
          out.push({
            Titular: `${entity === 'V' ? 'V' : 'P'}:${id}`,
            Instante: new Date(row.FechaHora as string | Date).getTime(),
            Zona: str(row.Zona),
          });
    }
    return out;
  }

  /**
   * `dashboarddotacion`: [summary, worker rows, vehicle rows, visit rows, groups]: the summary counts of
   * spec section 3, a present and an absent card row per kind, and the counts per contract or
   * organisational unit (the division's headcount mode; none for mode N). With CantYear and
   * CantMonth, as of the end of that month (`headcountDay`).
   */
  async dashboard(scope: HeadcountScope, language: Language, period: Record<string, unknown> = {}) {
    const division = await this.division(scope);
    const { mode } = division;
    const asOf = headcountDay(period, siteDate(division.country, this.now()));
    const kinds: HeadcountEntity[] = ['T', 'V', 'P'];
    const all = await Promise.all(kinds.map((k) => this.rows(scope, k, division, asOf)));
    const counts = all.map((rows) => ({
      present: rows.filter((r) => r.FechaMarca).length,
      total: rows.length,
    }));
    const summary = {
      TotalTrabajadores: counts[0].total,
      TotalVehiculo: counts[1].total,
      TotalVisita: counts[2].total,
      PermanenciaTrabajadores: counts[0].present,
      PermanenciaVehiculo: counts[1].present,
      PermanenciaVisita: counts[2].present,
      ModoDotacion: mode,
    };
    const cards = kinds.map((kind, i) =>
      (['P', 'A'] as const).map((state, index) => {
        const total = state === 'P' ? counts[i].present : counts[i].total - counts[i].present;
        const text = t(language, `headcount.${state === 'P' ? 'present' : 'absent'}`);
        return {
          ENTIDAD: kind,
          ESTADO: state,
          DESCRIPCION: text,
          DESCRIPCION2: t(language, `headcount.entities.${kind}`),
          TOTAL: total,
          Value: state,
          Text: text,
          Index: index,
        };
      }),
    );
    const groups: Array<{ IdEntidad: HeadcountEntity; Grupo: string; Presentes: number; Ausentes: number }> =
      [];
    if (mode !== 'N')
      kinds.forEach((kind, i) => {
        const byGroup = new Map<string, { Presentes: number; Ausentes: number }>();
        for (const row of all[i]) {
          const name = row.Grupo ?? t(language, 'headcount.noGroup');
          const entry = byGroup.get(name) ?? { Presentes: 0, Ausentes: 0 };
          if (row.FechaMarca) entry.Presentes++;
          else entry.Ausentes++;
          byGroup.set(name, entry);
        }
        for (const [Grupo, c] of [...byGroup].sort(([a], [b]) => a.localeCompare(b)))
          groups.push({ IdEntidad: kind, Grupo, ...c });
      });
    return [[summary], ...cards, groups];
  }

  /**
   * The evacuation roll call: everyone inside now (the last allowed marking an entry), in the given
   * zone and the zones inside it, or in the whole division; longest on site first.
   */
  async rollCall(scope: HeadcountScope, zoneId?: number): Promise<RollCallRow[]> {
    const zones = (await this.db
      .selectFrom('access_zone')
      .select(['IdZona', 'IdZonaPadre', 'Descripcion'])
      .where('IdCliente', '=', scope.clientId)
      .where('IdDivision', '=', scope.divisionId)
      .execute()) as Array<{ IdZona: number; IdZonaPadre: number | null; Descripcion: string }>;
    const within = new Set<number>();
    if (zoneId !== undefined) {
      if (!zones.some((z) => Number(z.IdZona) === zoneId))
        throw badQuery('IdZona', 'query.filterField', { field: 'IdZona' });
      const add = (id: number) => {
        if (within.has(id)) return;
        within.add(id);
        for (const z of zones) if (Number(z.IdZonaPadre) === id) add(Number(z.IdZona));
      };
      add(zoneId);
    }
    let q = this.db
      .selectFrom(`${ACCESS_TABLES.presence} as s`)
      .leftJoin('administration_person as p', 'p.IdPersona', 's.IdPersona')
      .leftJoin('administration_vehicle as v', 'v.IdVehiculo', 's.IdVehiculo')
      .leftJoin('administration_company as c', (join) =>
        join.on((eb) =>
          eb.or([
            eb('c.IdCompania', '=', eb.ref('p.IdCompania')),
            eb('c.IdCompania', '=', eb.ref('v.IdCompania')),
          ]),
        ),
      )
      .select([
        's.IdPersona',
        's.IdVehiculo',
        's.IdZona',
        's.Instante',
        'p.Documento',
        'p.Apellido',
        'p.Nombre',
        'v.Placa',
        'c.Compania',
        'c.IdCompania',
      ])
      .where('s.IdCliente', '=', scope.clientId)
      .where('s.IdDivision', '=', scope.divisionId)
      .where('s.Funcion', '=', 'E');
    if (zoneId !== undefined) q = q.where('s.IdZona', 'in', [...within]);
    if (scope.companyId !== undefined) q = q.where('c.IdCompania', '=', scope.companyId);
    const rows = await q.orderBy('s.Instante').execute();
    const at = this.now();
    const zoneName = new Map(zones.map((z) => [Number(z.IdZona), z.Descripcion]));
    return rows.map((r) => ({
      IdPersona: num(r.IdPersona),
      IdVehiculo: num(r.IdVehiculo),
      Documento: str(r.Documento),
      NombreCompleto: r.Apellido != null ? `${r.Apellido} ${r.Nombre ?? ''}`.trim() : null,
      Placa: str(r.Placa),
      Compania: str(r.Compania),
      Zona: zoneName.get(Number(r.IdZona)) ?? null,
      FechaMarca: new Date(Number(r.Instante)).toISOString(),
      Permanencia: Math.max(0, Math.floor((at - Number(r.Instante)) / 60_000)),
    }));
  }

  /** `dashboarddotaciondetalle`: one page of present (P) or absent (A) holders of a kind (of a past month's end, as the dashboard). */
  async detail(scope: HeadcountScope, query: Record<string, unknown>) {
    const kind = String(query.TipoEntidad ?? 'T');
    const state = String(query.TipoConsulta ?? 'P');
    if (!['T', 'V', 'P'].includes(kind)) throw badQuery('TipoEntidad', 'query.filterField', { field: kind });
    if (!['P', 'A'].includes(state)) throw badQuery('TipoConsulta', 'query.filterField', { field: state });
    const json = (name: string): unknown => {
      const raw = query[name];
      if (raw === undefined || raw === '') return undefined;
      return queryJson(name, String(raw));
    };
    const skip = query.skip === undefined ? 0 : Number(query.skip);
    const take = query.take === undefined ? HEADCOUNT_PAGE : Number(query.take);
    if (!Number.isSafeInteger(skip) || skip < 0) throw badQuery('skip', 'query.rangeShape');
    if (!Number.isSafeInteger(take) || take < 1 || take > 1000)
      throw badQuery('take', 'query.rangeTooLarge', { max: 1000 });
    const division = await this.division(scope);
    const asOf = headcountDay(query, siteDate(division.country, this.now()));
    let rows = (await this.rows(scope, kind as HeadcountEntity, division, asOf)).filter((r) =>
      state === 'P' ? r.FechaMarca : !r.FechaMarca,
    );
    const contains: Array<[keyof HeadcountRow, string]> = [];
    const visit = (node: unknown): void => {
      if (node == null) return;
      if (!Array.isArray(node)) throw badQuery('filter', 'query.filterShape');
      if (node.length === 3 && typeof node[0] === 'string' && typeof node[1] === 'string') {
        const [name, op, value] = node as [string, string, unknown];
        if (
          !FILTERABLE.has(name) ||
          !['contains', '='].includes(op) ||
          typeof value !== 'string' ||
          value.length > 100
        )
          throw badQuery('filter', 'query.filterField', { field: name.slice(0, 40) });
        contains.push([name as keyof HeadcountRow, value.trim().toLocaleUpperCase('es')]);
        return;
      }
      node.forEach((part, index) => {
        if (index % 2 === 1) {
          if (typeof part !== 'string' || part.toLowerCase() !== 'and')
            throw badQuery('filter', 'query.filterShape');
        } else visit(part);
      });
    };
    visit(json('filter'));
    const search = query.searchValue;
    if (typeof search === 'string' && search.trim())
      contains.push(['NombreCompleto', search.trim().toLocaleUpperCase('es')]);
    rows = rows.filter((r) =>
      contains.every(([name, value]) =>
        String(r[name] ?? '')
          .toLocaleUpperCase('es')
          .includes(value),
      ),
    );
    const sortSpec = json('sort');
    const first = (Array.isArray(sortSpec) ? sortSpec[0] : sortSpec) as
      | { selector?: unknown; desc?: unknown }
      | undefined;
    const selector =
      first?.selector == null ? (kind === 'V' ? 'Placa' : 'NombreCompleto') : String(first.selector);
    if (!SORTABLE.has(selector)) throw badQuery('sort', 'query.sortField', { field: selector.slice(0, 40) });
    const desc = first?.desc === true ? -1 : 1;
    const key = selector as keyof HeadcountRow;
    rows.sort((a, b) => {
      const x = a[key];
      const y = b[key];
      if (x == null || y == null) return x == null ? (y == null ? 0 : 1) : -1;
      return (
        (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))) * desc
      );
    });
    const page = rows.slice(skip, skip + take);
    const totalCount =
      query.requireTotalCount === true || query.requireTotalCount === 'true' ? rows.length : -1;
    return { data: page, totalCount };
  }
}

export const HEADCOUNT_PAGE = 15;
const FILTERABLE = new Set(['Documento', 'NombreCompleto', 'Placa', 'Marca', 'Zona', 'Contrato', 'Grupo']);
const SORTABLE = new Set([...FILTERABLE, 'FechaMarca', 'Permanencia']);
