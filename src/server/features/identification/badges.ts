import { sign } from 'node:crypto';
import { sql } from 'kysely';
import { type Decision, type Door, decide } from '../../../shared/access/decision.js';
import {
  type BadgeClaims,
  boundedByToken,
  claimsBytes,
  tokenOf,
  verifyToken,
} from '../../../shared/badge-token.js';
import type { Language } from '../../../shared/constants.js';
import { siteDate, timeZoneOf } from '../../../shared/dates.js';
import { writeAudit } from '../../crud/audit.js';
import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import { t } from '../../i18n.js';
import type { Principal } from '../../principal.js';
import type { Registry } from '../../registry.js';
import { logSensitiveReads } from '../../services/privacy.js';
import { loadDoor, loadHolder, loadSite, type QualificationSource } from '../../services/site/loader.js';
import { signingKeys } from '../../services/site/signing-keys.js';
import { type BadgeCard, type BadgeLayout, badgePdf } from './badge.js';
import type { Office } from './credentials.js';

/** Most badges in one print. */
export const PRINT_MAX = 200;

/** Why a presented token is refused before the gate's decision is asked. */
export type TokenReason = 'TOKEN_MALFORMED' | 'TOKEN_FORGED' | 'TOKEN_OTHER_CLIENT';

export interface Verification {
  /** The token is a badge's and its signature holds. */
  genuine: boolean;
  allow: boolean;
  reason: string;
  message: string;
  credential?: { IdCredencial: number; Numero: string; Hasta: string };
  /** The person (names, document) or the vehicle (brand and model, plate). */
  holder?: { Nombres: string; Documento: string; Compania: string | null };
}

/**
 * Badges: their PDF (front and back, a signed QR and the document's barcode), the record of who
 * printed them, and the verification of a badge's token against the credential as it is now.
 */
export class Badges {
  constructor(
    private readonly db: Db,
    private readonly registry: Registry,
    /** What doors require of a person besides access (the app's, fastify.qualifications). */
    private readonly qualifications: readonly QualificationSource[],
    private readonly now: () => number = Date.now,
  ) {}

  private table(name: string) {
    return this.registry.require(name).table;
  }

  /** A badge's token: its claims signed with the server's Ed25519 key. */
  async token(claims: BadgeClaims): Promise<string> {
    return tokenOf(claims, sign(null, claimsBytes(claims), (await signingKeys(this.db)).signer));
  }

  /** What the badges of these credentials (the office's client's, active) print. */
  private async cards(
    office: Office,
    ids: number[],
    division: string,
    language: Language,
    origin: string,
  ): Promise<BadgeCard[]> {
    const credentials = (await this.db
      .selectFrom(`${this.table('credential')} as k`)
      .innerJoin(`${this.table('credential-type')} as t`, 't.IdTipoCredencial', 'k.IdTipoCredencial')
      .innerJoin(`${this.table('client')} as cl`, 'cl.IdCliente', 'k.IdCliente')
      .select([
        'k.IdCredencial',
        'k.IdPersona',
        'k.IdVehiculo',
        'k.Numero',
        'k.FechaInicio',
        'k.FechaFin',
        'k.Activo',
        't.Descripcion as TipoCredencial',
        't.ColorFondo',
        'cl.Cliente',
      ])
      .where('k.IdCliente', '=', office.clientId)
      .where('k.IdCredencial', 'in', ids)
      .execute()) as Array<Record<string, unknown>>;
    const idsOf = (column: string) =>
      credentials.filter((r) => r[column] != null).map((r) => Number(r[column]));
    const people = await this.people(idsOf('IdPersona'), office.principal, origin);
    const vehicles = await this.vehicles(idsOf('IdVehiculo'));
    const byId = new Map(credentials.map((r) => [Number(r.IdCredencial), r]));
    const label = (key: string) => t(language, `identification.badge.${key}`);
    const text = (v: unknown) => (v == null || v === '' ? null : String(v));
    const cards: BadgeCard[] = [];
    for (const id of ids) {
      const r = byId.get(id);
      if (!r) throw new ApiError('NOT_FOUND');
      if (r.Activo !== 'S')
        throw new ApiError('BUSINESS_RULE', {
          messageKey: 'identification.printInactive',
          params: { number: String(r.Numero) },
        });
      const vehicle = r.IdVehiculo != null ? vehicles.get(Number(r.IdVehiculo)) : undefined;
      const person = r.IdPersona != null ? people.get(Number(r.IdPersona)) : undefined;
      if (!vehicle && !person) throw new ApiError('NOT_FOUND');
      const claims: BadgeClaims = {
        IdCliente: office.clientId,
        IdDivision: office.divisionId,
        IdCredencial: id,
        Numero: String(r.Numero),
        Titular: vehicle ? `V:${r.IdVehiculo}` : `P:${r.IdPersona}`,
        Hasta: String(r.FechaFin).slice(0, 10),
      };
      const common = {
        Numero: claims.Numero,
        TipoCredencial: String(r.TipoCredencial),
        Color: String(r.ColorFondo ?? ''),
        Cliente: String(r.Cliente),
        Division: division,
        FechaInicio: String(r.FechaInicio).slice(0, 10),
        FechaFin: claims.Hasta,
        Token: await this.token(claims),
      };
      if (vehicle)
        cards.push({
          ...common,
          TipoTitular: 'V',
          Titulo: [vehicle.TipoVehiculo, vehicle.Marca].filter(Boolean).join(' '),
          Subtitulo: String(vehicle.Modelo ?? ''),
          Lineas: [
            [label('plate'), text(vehicle.Placa)],
            [label('company'), text(vehicle.Compania)],
            [label('colour'), text(vehicle.Color)],
            [label('year'), text(vehicle.Anio)],
          ],
          Codigo: String(vehicle.Placa),
          EmergenciaNombre: null,
          EmergenciaTelefono: null,
          Foto: null,
        });
      else if (person)
        cards.push({
          ...common,
          TipoTitular: 'P',
          Titulo: String(person.Apellido ?? ''),
          Subtitulo: String(person.Nombre ?? ''),
          Lineas: [
            [String(person.TipoDocumento ?? label('document')), text(person.Documento)],
            [label('company'), text(person.Compania)],
            [label('position'), text(person.Cargo)],
            [label('blood'), text(person.TipoSangre)],
          ],
          Codigo: String(person.Documento),
          EmergenciaNombre: text(person.EmergenciaNombre),
          EmergenciaTelefono: text(person.EmergenciaTelefono),
          Foto: text(person.Foto),
        });
    }
    return cards;
  }

  /**
   * What a person's badge prints of them, by person. The blood type is health data: printed (and
   * the read logged) only when the office's profile reads health data.
   */
  private async people(
    ids: number[],
    principal: Principal,
    origin: string,
  ): Promise<Map<number, Record<string, unknown>>> {
    if (!ids.length) return new Map();
    const rows = (await this.db
      .selectFrom(`${this.table('person')} as p`)
      .leftJoin(`${this.table('company')} as c`, 'c.IdCompania', 'p.IdCompania')
      .leftJoin(`${this.table('position')} as po`, 'po.IdPosicion', 'p.IdPosicion')
      .leftJoin(`${this.table('blood-type')} as b`, 'b.IdTipoSangre', 'p.IdTipoSangre')
      .leftJoin(`${this.table('document-type')} as d`, 'd.IdTipoDocumento', 'p.IdTipoDocumento')
      .select([
        'p.IdPersona',
        'p.Apellido',
        'p.Nombre',
        'p.Documento',
        'p.Foto',
        'p.EmergenciaNombre',
        'p.EmergenciaTelefono',
        'c.Compania',
        'po.Descripcion as Cargo',
        'b.TipoSangre',
        'd.Alias as TipoDocumento',
      ])
      .where('p.IdPersona', 'in', ids)
      .execute()) as Array<Record<string, unknown>>;
    const person = this.registry.require('person');
    if (!principal.sensitive?.has('health')) for (const row of rows) row.TipoSangre = null;
    const reads = rows
      .filter((row) => row.TipoSangre != null)
      .map((record) => ({ entity: person, record, field: 'IdTipoSangre', dataClass: 'health' as const }));
    await logSensitiveReads(this.db, this.registry, reads, principal, origin);
    return new Map(rows.map((r) => [Number(r.IdPersona), r]));
  }

  /** What a vehicle's card prints of it, by vehicle. */
  private async vehicles(ids: number[]): Promise<Map<number, Record<string, unknown>>> {
    if (!ids.length) return new Map();
    const rows = (await this.db
      .selectFrom(`${this.table('vehicle')} as v`)
      .leftJoin(`${this.table('vehicle-type')} as vt`, 'vt.IdTipoVehiculo', 'v.IdTipoVehiculo')
      .leftJoin(`${this.table('brand')} as m`, 'm.IdMarca', 'v.IdMarca')
      .leftJoin(`${this.table('colour')} as co`, 'co.IdColor', 'v.IdColor')
      .leftJoin(`${this.table('company')} as c`, 'c.IdCompania', 'v.IdCompania')
      .select([
        'v.IdVehiculo',
        'v.Placa',
        'v.Modelo',
        'v.Anio',
        'vt.Descripcion as TipoVehiculo',
        'm.Descripcion as Marca',
        'co.Descripcion as Color',
        'c.Compania',
      ])
      .where('v.IdVehiculo', 'in', ids)
      .execute()) as Array<Record<string, unknown>>;
    return new Map(rows.map((r) => [Number(r.IdVehiculo), r]));
  }

  /**
   * The badges (and vehicles' cards) of these credentials as one PDF, and who printed them when
   * (Impreso). The people without a photo print with a placeholder and are named in `sinFoto`.
   */
  async print(office: Office, ids: number[], layout: BadgeLayout, language: Language, origin: string) {
    const unique = [...new Set(ids)];
    if (!unique.length) throw new ApiError('BAD_REQUEST', { messageKey: 'identification.nothingToPrint' });
    if (unique.length > PRINT_MAX)
      throw new ApiError('BAD_REQUEST', { messageKey: 'identification.tooMany', params: { max: PRINT_MAX } });
    const division = (await this.db
      .selectFrom(this.table('division'))
      .select(['Division', 'IdPais'])
      .where('IdDivision', '=', office.divisionId)
      .executeTakeFirst()) as { Division: string; IdPais: string | null } | undefined;
    const cards = await this.cards(office, unique, division?.Division ?? '', language, origin);
    const pdf = await badgePdf(cards, layout, language);
    const printed = new Date(this.now()).toISOString();
    const change = { Impreso: 'S', FechaImpresion: printed, IdUsuarioImpresion: office.userId };
    const entity = this.registry.require('credential');
    await this.db.transaction().execute(async (trx) => {
      const before = (await trx
        .selectFrom(entity.table)
        .selectAll()
        .where('IdCliente', '=', office.clientId)
        .where('IdCredencial', 'in', unique)
        .execute()) as Array<Record<string, unknown>>;
      await trx
        .updateTable(entity.table)
        .set(change)
        .where('IdCliente', '=', office.clientId)
        .where('IdCredencial', 'in', unique)
        .execute();
      for (const row of before)
        await writeAudit(trx, this.registry, entity, 'U', office.principal, row.IdCredencial, row, {
          ...row,
          ...change,
        });
    });
    return {
      fileBase64: pdf.toString('base64'),
      // Named by the site's day, not the server's.
      fileName: `${t(language, 'identification.badge.fileName')}-${siteDate(division?.IdPais, this.now())}.pdf`,
      fileType: 'application/pdf',
      sinFoto: cards
        .filter((c) => c.TipoTitular === 'P' && !c.Foto)
        .map((c) => `${c.Titulo} ${c.Subtitulo}`.trim()),
    };
  }

  /**
   * Whether a badge's token is genuine (a badge's, its signature holds, of the caller's client)
   * and whether its holder may pass now: the gate's own decision for the credential, at the door
   * given or at any entry of the caller's division.
   */
  async verify(
    office: Office,
    token: string,
    doorId: number | undefined,
    language: Language,
  ): Promise<Verification> {
    const { clientId, divisionId } = office;
    const refused = (reason: TokenReason, genuine: boolean): Verification => ({
      genuine,
      allow: false,
      reason,
      message: t(language, `identification.verify.reasons.${reason}`),
    });
    const checked = await verifyToken(token, await (await signingKeys(this.db)).verifier);
    if (!checked.ok) return refused(checked.problem, false);
    const claims = checked.claims;
    if (claims.IdCliente !== clientId) return refused('TOKEN_OTHER_CLIENT', true);
    const presented = { kind: 'credential', Numero: claims.Numero } as const;
    const [{ credential: stored, holder }, site, doors] = await Promise.all([
      loadHolder(this.db, clientId, divisionId, presented, this.qualifications),
      loadSite(this.db, clientId, divisionId, this.qualifications),
      this.doors(clientId, divisionId, doorId),
    ]);
    const credential = boundedByToken(stored, claims.Hasta);
    const at = new Date(this.now());
    const decisions: Decision[] = doors.map(({ door, timeZone }) =>
      decide({ door, direction: 'E', at, timeZone, presented, credential, holder, site }),
    );
    const chosen = decisions.find((d) => d.allow) ?? decisions[0];
    const about =
      holder?.kind === 'person'
        ? ((await this.db
            .selectFrom(`${this.table('person')} as p`)
            .leftJoin(`${this.table('company')} as c`, 'c.IdCompania', 'p.IdCompania')
            .select([
              sql<string>`p."Apellido" || ' ' || p."Nombre"`.as('Nombres'),
              'p.Documento',
              'c.Compania',
            ])
            .where('p.IdPersona', '=', holder.person.IdPersona)
            .executeTakeFirst()) as Record<string, unknown> | undefined)
        : holder?.kind === 'vehicle'
          ? ((await this.db
              .selectFrom(`${this.table('vehicle')} as v`)
              .leftJoin(`${this.table('brand')} as m`, 'm.IdMarca', 'v.IdMarca')
              .leftJoin(`${this.table('company')} as c`, 'c.IdCompania', 'v.IdCompania')
              .select([
                sql<string>`coalesce(m."Descripcion", '') || ' ' || coalesce(v."Modelo", '')`.as('Nombres'),
                'v.Placa as Documento',
                'c.Compania',
              ])
              .where('v.IdVehiculo', '=', holder.vehicle.IdVehiculo)
              .executeTakeFirst()) as Record<string, unknown> | undefined)
          : undefined;
    return {
      genuine: true,
      allow: chosen?.allow ?? false,
      reason: chosen?.reason ?? 'DOOR_INACTIVE',
      message: chosen
        ? t(language, chosen.messageKey, chosen.params)
        : t(language, 'gate.reasons.DOOR_INACTIVE'),
      credential: { IdCredencial: claims.IdCredencial, Numero: claims.Numero, Hasta: claims.Hasta },
      ...(about && {
        holder: {
          Nombres: String(about.Nombres).replace(/\s+/g, ' ').trim(),
          Documento: String(about.Documento),
          Compania: (about.Compania as string | null) ?? null,
        },
      }),
    };
  }

  /** The door asked (of the division), or the division's active entry doors. */
  private async doors(
    clientId: number,
    divisionId: number,
    doorId: number | undefined,
  ): Promise<Array<{ door: Door; timeZone: string }>> {
    if (doorId !== undefined) {
      const found = await loadDoor(this.db, doorId);
      if (!found || found.door.IdCliente !== clientId || found.door.IdDivision !== divisionId)
        throw new ApiError('NOT_FOUND');
      return [found];
    }
    const rows = (await this.db
      .selectFrom('access_door as d')
      .innerJoin('system_division as v', 'v.IdDivision', 'd.IdDivision')
      .select(['d.IdPuerta', 'd.IdDivision', 'd.IdZona', 'd.Sentido', 'd.Activo', 'v.IdPais'])
      .where('d.IdCliente', '=', clientId)
      .where('d.IdDivision', '=', divisionId)
      .where('d.Activo', '=', 'S')
      .where('d.Sentido', 'in', ['E', 'A'])
      .orderBy('d.IdPuerta')
      .execute()) as Array<Record<string, unknown>>;
    return rows.map((r) => ({
      door: {
        IdPuerta: Number(r.IdPuerta),
        IdDivision: Number(r.IdDivision),
        IdZona: Number(r.IdZona),
        Sentido: r.Sentido as Door['Sentido'],
        Activo: r.Activo as Door['Activo'],
      },
      timeZone: timeZoneOf(String(r.IdPais ?? '')),
    }));
  }
}
