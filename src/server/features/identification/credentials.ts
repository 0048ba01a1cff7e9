import { addDays } from '../../../shared/dates.js';
import type { HolderRow } from '../../../shared/identification.js';
import { dmy } from '../../../shared/request-dates.js';
import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import type { Principal } from '../../principal.js';
import type { Registry } from '../../registry.js';
import { divisionToday } from '../../site.js';

/** Who works on credentials: the client and division of the session, and whether it may write. */
export interface Office {
  clientId: number;
  divisionId: number;
  userId: string;
}

/**
 * The identification office of a session: a profile with the credential screen (read to find and
 * print, write to issue, reissue and inactivate). Contractors' profiles have none.
 */
export function officeOf(principal: Principal, write: boolean): Office {
  const access = principal.grants?.resources.get('credential');
  if (
    principal.clientId === undefined ||
    principal.divisionId === undefined ||
    principal.companyId !== undefined ||
    !access ||
    (write && access !== 'write')
  )
    throw new ApiError('FORBIDDEN');
  return { clientId: principal.clientId, divisionId: principal.divisionId, userId: principal.userId };
}

export interface IssueInput {
  IdPersona: number;
  IdTipoCredencial: number;
  IdMotivoEmision: number;
  Numero?: string;
  FechaInicio?: string;
  FechaFin?: string;
  Referencia1?: string;
  Referencia2?: string;
}

const NUMBER_PREFIX = 'FC-';

/**
 * Credentials (spec sections 2–4): find the accredited people of the division with their active
 * credential, issue one within the accreditation's validity, reissue (the previous one inactivated
 * in the same transaction) and inactivate, each with its reason. One active credential per person,
 * held by the database (a partial unique index) whoever writes at the same time.
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

  async holders(
    office: Office,
    query: { buscar?: string; skip?: number; take?: number },
  ): Promise<{ data: HolderRow[]; totalCount: number }> {
    const today = await this.today(office);
    let qb = this.db
      .selectFrom(`${this.table('accreditation')} as a`)
      .innerJoin(`${this.table('person')} as p`, 'p.IdPersona', 'a.IdPersona')
      .leftJoin(`${this.table('company')} as c`, 'c.IdCompania', 'p.IdCompania')
      .leftJoin(`${this.table('credential')} as k`, (join) =>
        join
          .onRef('k.IdPersona', '=', 'p.IdPersona')
          .on('k.Activo', '=', 'S')
          .on('k.IdCliente', '=', office.clientId),
      )
      .leftJoin(`${this.table('credential-type')} as t`, 't.IdTipoCredencial', 'k.IdTipoCredencial')
      .where('a.IdCliente', '=', office.clientId)
      .where('a.IdDivision', '=', office.divisionId)
      .where('a.Estado', '=', 'A')
      .where('a.FechaFin', '>=', today);
    const text = query.buscar?.trim().toUpperCase();
    if (text) {
      const like = `%${text.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
      qb = qb.where((eb) =>
        eb.or([
          eb('p.Documento', 'like', like),
          eb('p.Apellido', 'like', like),
          eb('p.Nombre', 'like', like),
          eb('k.Numero', 'like', like),
          eb('c.Compania', 'like', like),
        ]),
      );
    }
    const grouped = qb
      .select((eb) => [
        'p.IdPersona',
        'p.Documento',
        'p.Apellido',
        'p.Nombre',
        'c.Compania',
        eb.fn.min('a.FechaInicio').as('AcreditacionInicio'),
        eb.fn.max('a.FechaFin').as('AcreditacionFin'),
        'k.IdCredencial',
        'k.Numero',
        't.Descripcion as TipoCredencial',
        'k.FechaInicio',
        'k.FechaFin',
        'k.Impreso',
        eb.fn.max(eb.case().when('p.Foto', 'is not', null).then(1).else(0).end()).as('ConFoto'),
      ])
      .groupBy([
        'p.IdPersona',
        'p.Documento',
        'p.Apellido',
        'p.Nombre',
        'c.Compania',
        'k.IdCredencial',
        'k.Numero',
        't.Descripcion',
        'k.FechaInicio',
        'k.FechaFin',
        'k.Impreso',
      ]);
    const count = (await this.db
      .selectFrom(grouped.as('g'))
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()) as { n: number | string };
    const rows = (await grouped
      .orderBy('p.Apellido')
      .orderBy('p.Nombre')
      .orderBy('p.IdPersona')
      .limit(Math.min(query.take ?? 20, 100))
      .offset(query.skip ?? 0)
      .execute()) as Array<Record<string, unknown>>;
    return {
      totalCount: Number(count.n),
      data: rows.map((r) => ({
        IdPersona: Number(r.IdPersona),
        Documento: String(r.Documento),
        Nombres: `${r.Apellido} ${r.Nombre}`.trim(),
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

  private today(office: Office): Promise<string> {
    return divisionToday(this.db, this.registry, office.divisionId, this.now());
  }

  /** The span the person's active accreditations in the division cover, or a refusal. */
  private async accreditation(trx: Db, office: Office, personId: number) {
    const row = (await trx
      .selectFrom(this.table('accreditation'))
      .select((eb) => [eb.fn.min('FechaInicio').as('from'), eb.fn.max('FechaFin').as('to')])
      .where('IdCliente', '=', office.clientId)
      .where('IdDivision', '=', office.divisionId)
      .where('IdPersona', '=', personId)
      .where('Estado', '=', 'A')
      .executeTakeFirst()) as { from: unknown; to: unknown } | undefined;
    if (!row?.to) throw new ApiError('BUSINESS_RULE', { messageKey: 'identification.notAccredited' });
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
    const span = await this.accreditation(trx, office, input.IdPersona);
    await this.reason(trx, office, input.IdMotivoEmision, 'E', 'IdMotivoEmision');
    const type = await this.credentialType(trx, office, input.IdTipoCredencial);
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
      .where('IdPersona', '=', input.IdPersona)
      .where('Activo', '=', 'S')
      .executeTakeFirst();
    if (active) throw new ApiError('BUSINESS_RULE', { messageKey: 'rules.credentialActive' });
    const numero = input.Numero?.trim().toUpperCase() || (await this.nextNumber(trx, office));
    const taken = await trx
      .selectFrom(this.table('credential'))
      .select('IdCredencial')
      .where('IdCliente', '=', office.clientId)
      .where('Numero', '=', numero)
      .executeTakeFirst();
    if (taken)
      throw new ApiError('CONFLICT', {
        messageKey: 'identification.numberTaken',
        params: { number: numero },
      });
    const row = (await trx
      .insertInto(this.table('credential'))
      .values({
        IdCliente: office.clientId,
        IdPersona: input.IdPersona,
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
      .returning('IdCredencial')
      .executeTakeFirstOrThrow()) as { IdCredencial: number };
    return Number(row.IdCredencial);
  }

  async issue(office: Office, input: IssueInput): Promise<Record<string, unknown>> {
    const today = await this.today(office);
    const id = await this.db.transaction().execute((trx) => this.issueIn(trx, office, input, today));
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
    const done = await trx
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
      .executeTakeFirst();
    if (!Number(done.numUpdatedRows)) {
      await this.read(office, id, trx);
      throw new ApiError('BUSINESS_RULE', { messageKey: 'identification.alreadyInactive' });
    }
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
    input: { IdMotivoInactivacion: number } & Omit<IssueInput, 'IdPersona' | 'IdTipoCredencial'> & {
        IdTipoCredencial?: number;
      },
  ): Promise<Record<string, unknown>> {
    const old = await this.read(office, id);
    if (old.Activo !== 'S')
      throw new ApiError('BUSINESS_RULE', { messageKey: 'identification.alreadyInactive' });
    const today = await this.today(office);
    const newId = await this.db.transaction().execute(async (trx) => {
      await this.inactivateIn(trx, office, id, input.IdMotivoInactivacion);
      // The old one's end where the accreditation still covers it; else the type's validity within it.
      const oldEnd = String(old.FechaFin).slice(0, 10);
      const span = await this.accreditation(trx, office, Number(old.IdPersona));
      return this.issueIn(
        trx,
        office,
        {
          ...input,
          IdPersona: Number(old.IdPersona),
          IdTipoCredencial: input.IdTipoCredencial ?? Number(old.IdTipoCredencial),
          FechaFin: input.FechaFin ?? (oldEnd <= span.to && oldEnd >= today ? oldEnd : undefined),
        },
        today,
      );
    });
    return this.read(office, newId);
  }
}
