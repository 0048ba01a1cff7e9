import { type RawBuilder, sql } from 'kysely';
import { addDays } from '../../../shared/dates.js';
import type { HolderKind, HolderRow } from '../../../shared/identification.js';
import { dmy } from '../../../shared/request-dates.js';
import { writeAudit } from '../../crud/audit.js';
import { containsPattern, likeEscaped } from '../../crud/filters.js';
import type { AnySelect } from '../../crud/types.js';
import type { Db } from '../../db/connection.js';
import { settlingRace, uniqueViolation } from '../../db/errors.js';
import { ApiError } from '../../errors.js';
import type { Principal } from '../../principal.js';
import type { Registry } from '../../registry.js';
import { divisionToday } from '../../site.js';
import { checkIdentificationType } from './identification-types.js';

/** Who works on credentials: the client and division of the session, and who it is. */
export interface Office {
  clientId: number;
  divisionId: number;
  userId: string;
  principal: Principal;
}

/**
 * The identification office of a session: a profile with the credential screen (read to find and
 * print, write to issue, reissue and inactivate), or with one of `screens` when a call serves more
 * than the office (a badge verified at the security office's markings). Contractors' profiles have none.
 */
export function officeOf(principal: Principal, write: boolean, screens: string[] = ['credential']): Office {
  const access = screens.map((screen) => principal.grants?.resources.get(screen)).filter(Boolean);
  if (
    principal.clientId === undefined ||
    principal.divisionId === undefined ||
    principal.companyId !== undefined ||
    !access.length ||
    (write && !access.includes('write'))
  )
    throw new ApiError('FORBIDDEN');
  return {
    clientId: principal.clientId,
    divisionId: principal.divisionId,
    userId: principal.userId,
    principal,
  };
}

export interface IssueInput {
  /** A person's, or a vehicle's: exactly one. */
  IdPersona?: number;
  IdVehiculo?: number;
  IdTipoCredencial: number;
  IdMotivoEmision: number;
  Numero?: string;
  FechaInicio?: string;
  FechaFin?: string;
  Referencia1?: string;
  Referencia2?: string;
}

/** A credential's holder: its kind, the column that names it, and its id. */
interface Holder {
  kind: HolderKind;
  column: 'IdPersona' | 'IdVehiculo';
  id: number;
}

const COLUMN = { P: 'IdPersona', V: 'IdVehiculo' } as const;

/** The holder an issue names: a person or a vehicle, never both nor neither. */
function holderOf(input: { IdPersona?: number | null; IdVehiculo?: number | null }): Holder {
  const person = input.IdPersona ?? undefined;
  const vehicle = input.IdVehiculo ?? undefined;
  if ((person === undefined) === (vehicle === undefined))
    throw new ApiError('BAD_REQUEST', { messageKey: 'identification.oneHolder' });
  return person !== undefined
    ? { kind: 'P', column: 'IdPersona', id: Number(person) }
    : { kind: 'V', column: 'IdVehiculo', id: Number(vehicle) };
}

const NUMBER_PREFIX = 'FC-';

/** What the office's list shows of a holder of each kind, its joins, and the fields a search reads. */
interface HolderView {
  /** The holder's table as h (person or vehicle) and its company as c, and what else it shows. */
  join(qb: AnySelect, table: (resource: string) => string): AnySelect;
  search: string[];
  Documento: RawBuilder<string>;
  Nombres: RawBuilder<string>;
  Orden: RawBuilder<string>;
  ConFoto: RawBuilder<number>;
}

const HOLDER_VIEWS: Record<HolderKind, HolderView> = {
  P: {
    join: (qb, table) =>
      qb
        .innerJoin(`${table('person')} as h`, 'h.IdPersona', 's.Id')
        .leftJoin(`${table('company')} as c`, 'c.IdCompania', 'h.IdCompania'),
    search: ['h.Documento', 'h.Apellido', 'h.Nombre'],
    Documento: sql<string>`h."Documento"`,
    Nombres: sql<string>`h."Apellido" || ' ' || h."Nombre"`,
    Orden: sql<string>`h."Apellido" || ' ' || h."Nombre"`,
    ConFoto: sql<number>`case when h."Foto" is not null then 1 else 0 end`,
  },
  V: {
    join: (qb, table) =>
      qb
        .innerJoin(`${table('vehicle')} as h`, 'h.IdVehiculo', 's.Id')
        .leftJoin(`${table('vehicle-type')} as vt`, 'vt.IdTipoVehiculo', 'h.IdTipoVehiculo')
        .leftJoin(`${table('brand')} as m`, 'm.IdMarca', 'h.IdMarca')
        .leftJoin(`${table('company')} as c`, 'c.IdCompania', 'h.IdCompania'),
    search: ['h.Placa', 'h.Modelo', 'm.Descripcion'],
    Documento: sql<string>`h."Placa"`,
    Nombres: sql<string>`coalesce(vt."Descripcion", '') || ' ' || coalesce(m."Descripcion", '') || ' ' || coalesce(h."Modelo", '')`,
    Orden: sql<string>`h."Placa"`,
    ConFoto: sql<number>`0`,
  },
};

/**
 * Credentials (spec sections 2–4): find the accredited people and vehicles of the division with
 * their active credential, issue one within the accreditation's validity, reissue (the previous one
 * inactivated in the same transaction) and inactivate, each with its reason. One active credential
 * per person and per vehicle, held by the database (partial unique indexes) whoever writes at the
 * same time.
 */
export class Credentials {
  constructor(
    private readonly db: Db,
    private readonly registry: Registry,
    private readonly now: () => number = Date.now,
  ) {}

  private table(name: string) {
    return this.registry.require(name).table;
  }

  /** The accredited people (P) or vehicles (V) of the division, each with its active credential. */
  async holders(
    office: Office,
    query: { tipo?: HolderKind; buscar?: string; skip?: number; take?: number },
  ): Promise<{ data: HolderRow[]; totalCount: number }> {
    const today = await this.today(office);
    const kind = query.tipo ?? 'P';
    const text = query.buscar?.trim().toUpperCase();
    const found = this.accredited(office, today, kind, text ? containsPattern(text) : undefined);
    const count = (await this.db
      .selectFrom(found.as('g'))
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()) as { n: number | string };
    const rows = (await this.db
      .selectFrom(found.as('g'))
      .selectAll()
      .orderBy('g.Orden')
      .orderBy('g.Id')
      .limit(Math.min(query.take ?? 20, 100))
      .offset(query.skip ?? 0)
      .execute()) as Array<Record<string, unknown>>;
    return {
      totalCount: Number(count.n),
      data: rows.map((r) => ({
        Titular: `${kind}:${Number(r.Id)}`,
        TipoTitular: kind,
        IdPersona: kind === 'P' ? Number(r.Id) : null,
        IdVehiculo: kind === 'V' ? Number(r.Id) : null,
        Documento: String(r.Documento),
        Nombres: String(r.Nombres ?? '')
          .replace(/\s+/g, ' ')
          .trim(),
        Compania: (r.Compania as string | null) ?? null,
        Foto: Number(r.ConFoto) === 1,
        AcreditacionInicio: String(r.AcreditacionInicio).slice(0, 10),
        AcreditacionFin: String(r.AcreditacionFin).slice(0, 10),
        IdCredencial: r.IdCredencial == null ? null : Number(r.IdCredencial),
        Numero: (r.Numero as string | null) ?? null,
        TipoCredencial: (r.TipoCredencial as string | null) ?? null,
        FechaInicio: r.FechaInicio == null ? null : String(r.FechaInicio).slice(0, 10),
        FechaFin: r.FechaFin == null ? null : String(r.FechaFin).slice(0, 10),
        Impreso: (r.Impreso as 'S' | 'N' | null) ?? null,
      })),
    };
  }

  /**
   * The accredited holders of one kind, a row each: the span their active accreditations in the
   * division cover, their active credential (one at most) and what the screen shows of them,
   * those matching `pattern` when there is one.
   */
  private accredited(
    office: Office,
    today: string,
    kind: HolderKind,
    pattern: string | undefined,
  ): AnySelect {
    const column = COLUMN[kind];
    const spans = this.db
      .selectFrom(this.table('accreditation'))
      .select((eb) => [
        `${column} as Id`,
        eb.fn.min('FechaInicio').as('AcreditacionInicio'),
        eb.fn.max('FechaFin').as('AcreditacionFin'),
      ])
      .where('IdCliente', '=', office.clientId)
      .where('IdDivision', '=', office.divisionId)
      .where('Estado', '=', 'A')
      .where('FechaFin', '>=', today)
      .where(column, 'is not', null)
      .groupBy(column);
    const shown = HOLDER_VIEWS[kind];
    let qb: AnySelect = shown.join(
      this.db
        .selectFrom(spans.as('s'))
        .leftJoin(`${this.table('credential')} as k`, (join) =>
          join
            .onRef(`k.${column}`, '=', 's.Id')
            .on('k.Activo', '=', 'S')
            .on('k.IdCliente', '=', office.clientId),
        )
        .leftJoin(`${this.table('credential-type')} as t`, 't.IdTipoCredencial', 'k.IdTipoCredencial'),
      (name) => this.table(name),
    );
    if (pattern)
      qb = qb.where((eb) =>
        eb.or(
          [...shown.search, 'k.Numero', 'c.Compania'].map((field) => likeEscaped(eb.ref(field), pattern)),
        ),
      );
    return qb.select([
      's.Id',
      's.AcreditacionInicio',
      's.AcreditacionFin',
      'k.IdCredencial',
      'k.Numero',
      'k.FechaInicio',
      'k.FechaFin',
      'k.Impreso',
      't.Descripcion as TipoCredencial',
      'c.Compania',
      shown.Documento.as('Documento'),
      shown.Nombres.as('Nombres'),
      shown.Orden.as('Orden'),
      shown.ConFoto.as('ConFoto'),
    ]);
  }

  private today(office: Office): Promise<string> {
    return divisionToday(this.db, this.registry, office.divisionId, this.now());
  }

  /** The span the holder's active accreditations in the division cover, or a refusal. */
  private async accreditation(trx: Db, office: Office, holder: Holder) {
    const row = (await trx
      .selectFrom(this.table('accreditation'))
      .select((eb) => [eb.fn.min('FechaInicio').as('from'), eb.fn.max('FechaFin').as('to')])
      .where('IdCliente', '=', office.clientId)
      .where('IdDivision', '=', office.divisionId)
      .where(holder.column, '=', holder.id)
      .where('Estado', '=', 'A')
      .executeTakeFirst()) as { from: unknown; to: unknown } | undefined;
    if (!row?.to)
      throw new ApiError('BUSINESS_RULE', {
        messageKey:
          holder.kind === 'V' ? 'identification.vehicleNotAccredited' : 'identification.notAccredited',
      });
    return { from: String(row.from).slice(0, 10), to: String(row.to).slice(0, 10) };
  }

  private async reason(trx: Db, office: Office, id: number, kind: 'E' | 'I', field: string) {
    const found = await trx
      .selectFrom(this.table('identification-reason'))
      .select('IdMotivo')
      .where('IdMotivo', '=', id)
      .where('IdCliente', '=', office.clientId)
      .where('Tipo', '=', kind)
      .where('Activo', '=', 'S')
      .executeTakeFirst();
    if (!found)
      throw new ApiError('BAD_REQUEST', {
        messageKey: kind === 'E' ? 'identification.badIssueReason' : 'identification.badInactivationReason',
        params: { field },
      });
  }

  private async credentialType(trx: Db, office: Office, id: number) {
    const type = (await trx
      .selectFrom(this.table('credential-type'))
      .select(['IdTipoCredencial', 'VigenciaDias'])
      .where('IdTipoCredencial', '=', id)
      .where('IdCliente', '=', office.clientId)
      .where('Activo', '=', 'S')
      .executeTakeFirst()) as { VigenciaDias: number | null } | undefined;
    if (!type) throw new ApiError('BAD_REQUEST', { messageKey: 'identification.badType' });
    return type;
  }

  /** The next free number of the office's own series (FC-000001…); a typed one is kept as typed. */
  private async nextNumber(trx: Db, office: Office): Promise<string> {
    const rows = (await trx
      .selectFrom(this.table('credential'))
      .select('Numero')
      .where('IdCliente', '=', office.clientId)
      .where('Numero', 'like', `${NUMBER_PREFIX}%`)
      .execute()) as Array<{ Numero: string }>;
    const last = rows.reduce((max, r) => {
      const n = Number(r.Numero.slice(NUMBER_PREFIX.length));
      return Number.isInteger(n) && n > max ? n : max;
    }, 0);
    return `${NUMBER_PREFIX}${String(last + 1).padStart(6, '0')}`;
  }

  /** Issues a credential in the caller's transaction; refuses one while another is active. */
  private async issueIn(trx: Db, office: Office, input: IssueInput, today: string): Promise<number> {
    const holder = holderOf(input);
    const span = await this.accreditation(trx, office, holder);
    await this.reason(trx, office, input.IdMotivoEmision, 'E', 'IdMotivoEmision');
    const type = await this.credentialType(trx, office, input.IdTipoCredencial);
    await checkIdentificationType(trx, this.registry, office.clientId, input);
    const start = input.FechaInicio ?? (today > span.from ? today : span.from);
    const byType = type.VigenciaDias ? addDays(start, Number(type.VigenciaDias) - 1) : span.to;
    const end = input.FechaFin ?? (byType < span.to ? byType : span.to);
    if (start > end) throw new ApiError('BUSINESS_RULE', { messageKey: 'rules.credentialStartAfterEnd' });
    if (start < span.from || end > span.to)
      throw new ApiError('BUSINESS_RULE', {
        messageKey: 'identification.outsideAccreditation',
        params: { from: dmy(span.from), to: dmy(span.to) },
      });
    const active = await trx
      .selectFrom(this.table('credential'))
      .select('IdCredencial')
      .where('IdCliente', '=', office.clientId)
      .where(holder.column, '=', holder.id)
      .where('Activo', '=', 'S')
      .executeTakeFirst();
    if (active) throw new ApiError('BUSINESS_RULE', { messageKey: 'rules.credentialActive' });
    const typed = input.Numero?.trim().toUpperCase();
    const numero = typed || (await this.nextNumber(trx, office));
    // A typed number another card holds is refused by name; the series' next one, taken meanwhile by
    // another office, is left to the unique index, and the issue runs again (see issue()).
    const taken =
      typed &&
      (await trx
        .selectFrom(this.table('credential'))
        .select('IdCredencial')
        .where('IdCliente', '=', office.clientId)
        .where('Numero', '=', numero)
        .executeTakeFirst());
    if (taken)
      throw new ApiError('CONFLICT', {
        messageKey: 'identification.numberTaken',
        params: { number: numero },
      });
    const row = (await trx
      .insertInto(this.table('credential'))
      .values({
        IdCliente: office.clientId,
        TipoTitular: holder.kind,
        [holder.column]: holder.id,
        IdTipoCredencial: input.IdTipoCredencial,
        Numero: numero,
        FechaInicio: start,
        FechaFin: end,
        Referencia1: input.Referencia1?.trim().toUpperCase() || null,
        Referencia2: input.Referencia2?.trim().toUpperCase() || null,
        Impreso: 'N',
        IdMotivoEmision: input.IdMotivoEmision,
        Activo: 'S',
        IdUsuarioCreacion: office.userId,
        FechaCreacion: new Date(this.now()).toISOString(),
      })
      .returningAll()
      .executeTakeFirstOrThrow()) as Record<string, unknown>;
    await this.audit(trx, office, 'C', row, undefined, row);
    return Number(row.IdCredencial);
  }

  async issue(office: Office, input: IssueInput): Promise<Record<string, unknown>> {
    const today = await this.today(office);
    // Two offices issuing to one holder at once: the database refuses the second (the one active
    // credential, or the series' next number both took), which then runs again and meets the rule.
    const id = await settlingRace(
      this.registry,
      () => this.db.transaction().execute((trx) => this.issueIn(trx, office, input, today)),
      true,
      (error) => !input.Numero && uniqueViolation(error),
    );
    return this.read(office, id);
  }

  /** The office's credential (of its client), or 404. */
  async read(office: Office, id: number, db: Db = this.db): Promise<Record<string, unknown>> {
    const row = (await db
      .selectFrom(this.table('credential'))
      .selectAll()
      .where('IdCredencial', '=', id)
      .where('IdCliente', '=', office.clientId)
      .executeTakeFirst()) as Record<string, unknown> | undefined;
    if (!row) throw new ApiError('NOT_FOUND');
    return row;
  }

  private async inactivateIn(trx: Db, office: Office, id: number, reason: number) {
    await this.reason(trx, office, reason, 'I', 'IdMotivoInactivacion');
    const before = await this.read(office, id, trx);
    const after = (await trx
      .updateTable(this.table('credential'))
      .set({
        Activo: 'N',
        IdMotivoInactivacion: reason,
        IdUsuarioModificacion: office.userId,
        FechaModificacion: new Date(this.now()).toISOString(),
      })
      .where('IdCredencial', '=', id)
      .where('IdCliente', '=', office.clientId)
      .where('Activo', '=', 'S')
      .returningAll()
      .executeTakeFirst()) as Record<string, unknown> | undefined;
    if (!after) throw new ApiError('BUSINESS_RULE', { messageKey: 'identification.alreadyInactive' });
    await this.audit(trx, office, 'U', after, before, after);
  }

  /** The audit trail's row of a write, as every other write of a record leaves one. */
  private audit(
    trx: Db,
    office: Office,
    operation: 'C' | 'U',
    row: Record<string, unknown>,
    before: Record<string, unknown> | undefined,
    after: Record<string, unknown>,
  ) {
    const entity = this.registry.require('credential');
    return writeAudit(
      trx,
      this.registry,
      entity,
      operation,
      office.principal,
      row.IdCredencial,
      before,
      after,
    );
  }

  async inactivate(office: Office, id: number, reason: number): Promise<Record<string, unknown>> {
    await this.read(office, id);
    await this.db.transaction().execute((trx) => this.inactivateIn(trx, office, id, reason));
    return this.read(office, id);
  }

  /**
   * A new credential for the holder of an active one (lost, damaged, data changed): the old one
   * inactivated with its reason and the new one issued in one transaction; the new one keeps the
   * old one's type and end unless told otherwise.
   */
  async reissue(
    office: Office,
    id: number,
    input: { IdMotivoInactivacion: number } & Omit<
      IssueInput,
      'IdPersona' | 'IdVehiculo' | 'IdTipoCredencial'
    > & {
        IdTipoCredencial?: number;
      },
  ): Promise<Record<string, unknown>> {
    const old = await this.read(office, id);
    if (old.Activo !== 'S')
      throw new ApiError('BUSINESS_RULE', { messageKey: 'identification.alreadyInactive' });
    const today = await this.today(office);
    const newId = await settlingRace(
      this.registry,
      () =>
        this.db.transaction().execute(async (trx) => {
          await this.inactivateIn(trx, office, id, input.IdMotivoInactivacion);
          // The old one's end where the accreditation still covers it; else the type's validity within it.
          const oldEnd = String(old.FechaFin).slice(0, 10);
          const holder = holderOf(old as { IdPersona?: number | null; IdVehiculo?: number | null });
          const span = await this.accreditation(trx, office, holder);
          return this.issueIn(
            trx,
            office,
            {
              ...input,
              [holder.column]: holder.id,
              IdTipoCredencial: input.IdTipoCredencial ?? Number(old.IdTipoCredencial),
              FechaFin: input.FechaFin ?? (oldEnd <= span.to && oldEnd >= today ? oldEnd : undefined),
            },
            today,
          );
        }),
      true,
      (error) => !input.Numero && uniqueViolation(error),
    );
    return this.read(office, newId);
  }
}
