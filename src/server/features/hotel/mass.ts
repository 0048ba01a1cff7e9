import ExcelJS from 'exceljs';
import type { Language } from '../../../shared/constants.js';
import {
  halvesOf,
  type LodgingTurn,
  MASS_MAX_PEOPLE,
  nightsOf,
  noBedReason,
  type PlacementPerson,
  type ProposalLine,
  placePeople,
} from '../../../shared/hotel.js';
import { dmy } from '../../../shared/request-dates.js';
import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import { t } from '../../i18n.js';
import type { Registry } from '../../registry.js';
import { campBeds, heldNights, holdOverstays, roomTypeName } from './beds.js';
import { inChunks, isRefusal, type Lodger, lodgers } from './eligibility.js';
import type { CampOffice } from './office.js';
import type { Placed, Stays } from './stays.js';

/** Whom a mass reservation is for: a contract's people, or a list of documents. */
export interface CrewQuery {
  IdCampamento: number;
  IdContrato?: number;
  Documentos?: string[];
  /** An Excel workbook (base64) whose first sheet's first column holds the documents. */
  ArchivoBase64?: string;
  FechaInicio: string;
  FechaFin: string;
  Turno?: LodgingTurn;
  IdTipoHabitacion?: number;
}

export interface Assignment {
  IdPersona: number;
  IdCama: number;
}

type Row = Record<string, unknown>;

/** The documents in the first column of a workbook's first sheet (a header row is skipped). */
export async function documentsInWorkbook(base64: string): Promise<string[]> {
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(Buffer.from(base64, 'base64') as unknown as ArrayBuffer);
  } catch {
    throw new ApiError('BAD_REQUEST', { messageKey: 'hotel.refusals.badWorkbook' });
  }
  const sheet = book.worksheets[0];
  const out: string[] = [];
  sheet?.eachRow((row) => {
    const value = row.getCell(1).text?.trim().toUpperCase();
    if (value && /^[A-Z0-9-]{4,20}$/.test(value)) out.push(value);
  });
  return out;
}

/**
 * Mass reservation (spec section 2 Hotel): proposes beds for a crew — a contract's people in the
 * division, or the people of a list of documents — for the same nights, respecting each person's
 * grounds, the camp profile's room type, the blocks' sex, exclusive beds and turns; then books a
 * proposal all or nothing.
 */
export class MassReservation {
  constructor(
    private readonly db: Db,
    private readonly registry: Registry,
    private readonly stays: Stays,
  ) {}

  private table(name: string) {
    return this.registry.require(name).table;
  }

  /** The crew's people: a contract's accredited or mobilising people, or those of the documents. */
  private async crew(office: CampOffice, query: CrewQuery): Promise<{ ids: number[]; unknown: string[] }> {
    if (query.IdContrato !== undefined) {
      const accredited = (await this.db
        .selectFrom(this.table('accreditation'))
        .select('IdPersona')
        .where('IdCliente', '=', office.clientId)
        .where('IdDivision', '=', office.divisionId)
        .where('IdContrato', '=', query.IdContrato)
        .where('IdPersona', 'is not', null)
        .where('Estado', 'in', ['A', 'S'])
        .execute()) as Row[];
      const mobilising = (await this.db
        .selectFrom(this.table('request'))
        .select('IdPersona')
        .where('IdCliente', '=', office.clientId)
        .where('IdDivision', '=', office.divisionId)
        .where('IdContrato', '=', query.IdContrato)
        .where('TipoSolicitud', '=', 'M')
        .where('EstadoAprobacion', 'in', ['P', 'O'])
        .where('IdPersona', 'is not', null)
        .execute()) as Row[];
      const ids = [...new Set([...accredited, ...mobilising].map((r) => Number(r.IdPersona)))];
      if (!ids.length) throw new ApiError('BUSINESS_RULE', { messageKey: 'hotel.refusals.emptyContract' });
      return { ids, unknown: [] };
    }
    const documents = [
      ...new Set(
        [
          ...(query.Documentos ?? []),
          ...(query.ArchivoBase64 ? await documentsInWorkbook(query.ArchivoBase64) : []),
        ]
          .map((d) => d.trim().toUpperCase())
          .filter(Boolean),
      ),
    ];
    if (!documents.length) throw new ApiError('BUSINESS_RULE', { messageKey: 'hotel.refusals.noCrew' });
    if (documents.length > MASS_MAX_PEOPLE)
      throw new ApiError('BUSINESS_RULE', {
        messageKey: 'hotel.refusals.crewTooLarge',
        params: { max: MASS_MAX_PEOPLE },
      });
    const found = await inChunks(
      documents,
      (chunk) =>
        this.db
          .selectFrom(this.table('person'))
          .select(['IdPersona', 'Documento'])
          .where('IdCliente', '=', office.clientId)
          .where('Documento', 'in', chunk)
          .execute() as Promise<Row[]>,
    );
    const known = new Set(found.map((r) => String(r.Documento)));
    return { ids: found.map((r) => Number(r.IdPersona)), unknown: documents.filter((d) => !known.has(d)) };
  }

  /** The proposal: a bed for each person placed, and the reason of each person not placed. */
  async propose(office: CampOffice, query: CrewQuery, language: Language): Promise<ProposalLine[]> {
    const today = await this.stays.today(office);
    const { FechaInicio: from, FechaFin: to } = query;
    if (!(to > from)) throw new ApiError('CONFLICT', { messageKey: 'hotel.refusals.badDates' });
    if (from < today)
      throw new ApiError('CONFLICT', {
        messageKey: 'hotel.refusals.pastStart',
        params: { date: dmy(today) },
      });
    const camp = await this.stays.camp(office, query.IdCampamento);
    const { ids, unknown } = await this.crew(office, query);
    if (ids.length > MASS_MAX_PEOPLE)
      throw new ApiError('BUSINESS_RULE', {
        messageKey: 'hotel.refusals.crewTooLarge',
        params: { max: MASS_MAX_PEOPLE },
      });
    const grounds = await lodgers(this.db, this.registry, office, camp, ids, from, to);
    const lodged = await this.alreadyLodged(office, ids, from, to);
    const beds = (await campBeds(this.db, this.registry, office.clientId, [camp.IdCampamento])).filter(
      (b) => b.EnServicio,
    );
    await holdOverstays(this.db, this.registry, office.clientId, [camp.IdCampamento], today, this.stays.at());
    const taken = await heldNights(this.db, this.registry, office.clientId, [camp.IdCampamento], from, to);
    const turn = query.Turno ?? 'C';
    const eligible = [...grounds.values()].filter(
      (g): g is Lodger => !isRefusal(g) && !lodged.has(g.IdPersona),
    );
    eligible.sort(
      (a, b) => (a.Compania ?? '').localeCompare(b.Compania ?? '') || a.Persona.localeCompare(b.Persona),
    );
    const people: PlacementPerson[] = eligible.map((g) => ({
      IdPersona: g.IdPersona,
      Sexo: g.Sexo,
      IdTipoHabitacion: query.IdTipoHabitacion ?? g.IdTipoHabitacion,
      Turno: turn,
    }));
    const placed = placePeople(beds, people, nightsOf(from, to), taken);
    const bedOf = new Map(beds.map((b) => [b.IdCama, b]));
    const personOf = new Map(people.map((p) => [p.IdPersona, p]));
    const typeNames = new Map<number | null, string | undefined>();
    for (const p of people)
      if (!typeNames.has(p.IdTipoHabitacion))
        typeNames.set(p.IdTipoHabitacion, await roomTypeName(this.db, this.registry, p.IdTipoHabitacion));
    const noBed = (id: number, name: string) => {
      const person = personOf.get(id) as PlacementPerson;
      const why = noBedReason(beds, person, name, typeNames.get(person.IdTipoHabitacion));
      return t(language, why.messageKey, why.params);
    };
    const names = await this.names(ids);
    const lines: ProposalLine[] = [];
    for (const id of ids) {
      const g = grounds.get(id);
      const person = names.get(id);
      const base = {
        IdPersona: id,
        Documento: person?.Documento ?? '',
        Persona: person?.Persona ?? '',
        Compania: g && !isRefusal(g) ? g.Compania : null,
      };
      const bed = bedOf.get(placed.get(id) ?? -1);
      const reason = !g
        ? t(language, 'hotel.refusals.unknownPerson', { id })
        : isRefusal(g)
          ? t(language, g.messageKey, g.params)
          : lodged.has(id)
            ? t(language, 'hotel.refusals.personOverlap', {
                name: base.Persona,
                date: dmy(lodged.get(id) as string),
              })
            : bed
              ? null
              : noBed(id, base.Persona);
      lines.push({
        ...base,
        IdCama: bed && !reason ? bed.IdCama : null,
        Cama: bed && !reason ? bed.Codigo : null,
        Habitacion: bed && !reason ? `${bed.Modulo} · ${bed.Habitacion}` : null,
        Motivo: reason,
      });
    }
    for (const document of unknown)
      lines.push({
        IdPersona: null,
        Documento: document,
        Persona: '',
        Compania: null,
        IdCama: null,
        Cama: null,
        Habitacion: null,
        Motivo: t(language, 'hotel.refusals.unknownDocument', { document }),
      });
    return lines;
  }

  /** The first night each of some people already holds between two dates. */
  private async alreadyLodged(office: CampOffice, ids: number[], from: string, to: string, db: Db = this.db) {
    const rows = await inChunks(
      ids,
      (chunk) =>
        db
          .selectFrom(this.table('bed-night'))
          .select(['IdPersona', (eb) => eb.fn.min('Fecha').as('Fecha')])
          .where('IdCliente', '=', office.clientId)
          .where('IdPersona', 'in', chunk)
          .where('Fecha', '>=', from)
          .where('Fecha', '<', to)
          .groupBy('IdPersona')
          .execute() as Promise<Row[]>,
    );
    return new Map(rows.map((r) => [Number(r.IdPersona), String(r.Fecha).slice(0, 10)]));
  }

  /** The document and name of each of some people. */
  private async names(ids: number[]) {
    const rows = await inChunks(
      ids,
      (chunk) =>
        this.db
          .selectFrom(this.table('person'))
          .select(['IdPersona', 'Documento', 'Apellido', 'Nombre'])
          .where('IdPersona', 'in', chunk)
          .execute() as Promise<Row[]>,
    );
    return new Map(
      rows.map((r) => [
        Number(r.IdPersona),
        { Documento: String(r.Documento), Persona: `${r.Apellido} ${r.Nombre}` },
      ]),
    );
  }

  /**
   * Books a proposal, all or nothing, in one transaction: each person's grounds and bed checked
   * again (another office may have booked meanwhile); a refusal names every person it stops, and
   * nothing is written.
   */
  async book(
    office: CampOffice,
    query: Omit<CrewQuery, 'IdContrato' | 'Documentos' | 'ArchivoBase64'> & { Asignaciones: Assignment[] },
    language: Language,
  ): Promise<{ reservadas: number; lote: string }> {
    const today = await this.stays.today(office);
    const { FechaInicio: from, FechaFin: to, Asignaciones: assignments } = query;
    if (!(to > from)) throw new ApiError('CONFLICT', { messageKey: 'hotel.refusals.badDates' });
    if (from < today)
      throw new ApiError('CONFLICT', {
        messageKey: 'hotel.refusals.pastStart',
        params: { date: dmy(today) },
      });
    const people = assignments.map((a) => a.IdPersona);
    if (new Set(people).size !== people.length)
      throw new ApiError('BUSINESS_RULE', { messageKey: 'hotel.refusals.personTwice' });
    const turn = query.Turno ?? 'C';
    const batch = `M-${Date.now().toString(36).toUpperCase()}`;
    return this.db.transaction().execute(async (trx) => {
      const camp = await this.stays.camp(office, query.IdCampamento, trx);
      const grounds = await lodgers(trx, this.registry, office, camp, people, from, to);
      const beds = new Map(
        (await campBeds(trx, this.registry, office.clientId, [camp.IdCampamento])).map((b) => [b.IdCama, b]),
      );
      await holdOverstays(trx, this.registry, office.clientId, [camp.IdCampamento], today, this.stays.at());
      const taken = await heldNights(trx, this.registry, office.clientId, [camp.IdCampamento], from, to);
      const lodged = await this.alreadyLodged(office, people, from, to, trx);
      const nights = nightsOf(from, to);
      const problems: string[] = [];
      const placed: Placed[] = [];
      for (const a of assignments) {
        const g = grounds.get(a.IdPersona);
        const bed = beds.get(a.IdCama);
        if (!g || isRefusal(g)) {
          problems.push(
            g
              ? t(language, g.messageKey, g.params)
              : t(language, 'hotel.refusals.unknownPerson', { id: a.IdPersona }),
          );
          continue;
        }
        if (lodged.has(a.IdPersona)) {
          problems.push(
            t(language, 'hotel.refusals.personOverlap', {
              name: g.Persona,
              date: dmy(lodged.get(a.IdPersona) as string),
            }),
          );
          continue;
        }
        if (!bed?.EnServicio) {
          problems.push(`${g.Persona}: ${t(language, 'hotel.refusals.bedUnavailable')}`);
          continue;
        }
        if (bed.Genero !== 'X' && bed.Genero !== g.Sexo) {
          problems.push(t(language, 'hotel.refusals.bedBlock', { bed: bed.Codigo, name: g.Persona }));
          continue;
        }
        const halves = halvesOf(turn, bed.Exclusiva);
        const keys = nights.flatMap((n) => halves.map((h) => `${bed.IdCama}|${n}|${h}`));
        if (keys.some((k) => taken.has(k))) {
          problems.push(
            t(language, 'hotel.refusals.overlap', { bed: bed.Codigo, from: dmy(from), to: dmy(to) }),
          );
          continue;
        }
        for (const k of keys) taken.add(k);
        placed.push({ lodger: g, bed, turn, from, to });
      }
      if (problems.length)
        throw new ApiError('CONFLICT', {
          messageKey: 'hotel.refusals.massRefused',
          params: { count: problems.length, list: problems.slice(0, 20).join(' · ') },
        });
      await this.stays.write(trx, office, camp.IdCampamento, placed, 'M', batch);
      return { reservadas: placed.length, lote: batch };
    });
  }
}
