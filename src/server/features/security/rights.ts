import { sql } from 'kysely';
import { SENSITIVE_SETTINGS, type SensitiveClass } from '../../../shared/data-classes.js';
import { CHARACTERISTICS } from '../../../shared/session.js';
import type { Access } from '../../auth/permissions.js';
import type { Row } from '../../crud/types.js';
import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import type { Principal } from '../../principal.js';
import type { Registry } from '../../registry.js';

/**
 * What a user holds, and so may hand on: the two flags, and the screens (menu items, with their
 * access) and characteristics of their active profiles. An administrator (the Administrador flag,
 * or a profile of the administrator characteristic) configures the profiles themselves, so holds
 * every profile and screen; only a super-administrator is beyond them.
 */
export interface Holdings {
  superAdministrator: boolean;
  administrator: boolean;
  menu: Map<string, Access>;
  characteristics: Set<string>;
}

const NOTHING: Holdings = {
  superAdministrator: false,
  administrator: false,
  menu: new Map(),
  characteristics: new Set(),
};

/** What the Administrador flag, or an administrator's profile, gives. */
const ADMINISTRATOR: Holdings = { ...NOTHING, administrator: true };

/** The screens and characteristics of some profiles (their active assignments only). */
async function profilesHold(db: Db, registry: Registry, profileIds: number[]): Promise<Holdings> {
  if (!profileIds.length) return { ...NOTHING, menu: new Map(), characteristics: new Set() };
  const items = (await db
    .selectFrom(`${registry.require('menu-profile').table} as mp`)
    .innerJoin(`${registry.require('menu').table} as m`, 'm.IdMenu', 'mp.IdMenu')
    .select(['mp.IdMenu', 'mp.SoloLectura'])
    .where('mp.IdPerfil', 'in', profileIds)
    .where('mp.Activo', '=', 'S')
    .where('m.Activo', '=', 'S')
    .execute()) as Array<{ IdMenu: string; SoloLectura: string }>;
  const menu = new Map<string, Access>();
  for (const item of items)
    if (menu.get(item.IdMenu) !== 'write') menu.set(item.IdMenu, item.SoloLectura === 'S' ? 'read' : 'write');
  const characteristics = new Set(
    (
      (await db
        .selectFrom(registry.require('profile-characteristic').table)
        .select('IdCaracteristica')
        .where('IdPerfil', 'in', profileIds)
        .where('Activo', '=', 'S')
        .execute()) as Array<{ IdCaracteristica: string }>
    ).map((row) => row.IdCaracteristica),
  );
  return {
    superAdministrator: false,
    administrator: characteristics.has(CHARACTERISTICS.administrator),
    menu,
    characteristics,
  };
}

/** What one profile gives whoever is assigned it. */
export function profileHoldings(db: Db, registry: Registry, profileId: number): Promise<Holdings> {
  return profilesHold(db, registry, [profileId]);
}

/** What a user holds: their flags and the profiles of their active assignments. */
export async function userHoldings(db: Db, registry: Registry, userId: string): Promise<Holdings> {
  const user = (await db
    .selectFrom(registry.require('user').table)
    .select(['Administrador', 'SuperAdministrador'])
    .where('IdUsuario', '=', userId)
    .executeTakeFirst()) as { Administrador: string | null; SuperAdministrador: string | null } | undefined;
  if (!user) return NOTHING;
  const assigned = (await db
    .selectFrom(`${registry.require('user-profile').table} as up`)
    .innerJoin(`${registry.require('profile').table} as p`, 'p.IdPerfil', 'up.IdPerfil')
    .select('up.IdPerfil')
    .where('up.IdUsuario', '=', userId)
    .where('up.Activo', '=', 'S')
    .where('p.Activo', '=', 'S')
    .execute()) as Array<{ IdPerfil: number }>;
  const held = await profilesHold(db, registry, [...new Set(assigned.map((row) => row.IdPerfil))]);
  return {
    ...held,
    superAdministrator: user.SuperAdministrador === 'S',
    administrator: held.administrator || user.Administrador === 'S',
  };
}

/** Whether `mine` holds all that `theirs` does. */
export function covers(mine: Holdings, theirs: Holdings): boolean {
  if (mine.superAdministrator) return true;
  if (theirs.superAdministrator) return false;
  if (mine.administrator) return true;
  if (theirs.administrator) return false;
  for (const characteristic of theirs.characteristics)
    if (!mine.characteristics.has(characteristic)) return false;
  for (const [item, access] of theirs.menu) {
    const own = mine.menu.get(item);
    if (!own || (access === 'write' && own !== 'write')) return false;
  }
  return true;
}

/**
 * A write on users that would hand on more than the caller holds: a 403 with the rule's message,
 * and the attempt audited once the write is undone (plugins/errors.ts).
 */
export function beyondRights(messageKey: string, resource: string, id: unknown, attempted: Row): ApiError {
  return new ApiError('FORBIDDEN', {
    messageKey: `security.rights.${messageKey}`,
    audit: { resource, id: String(id ?? ''), attempted },
  });
}

/**
 * The rules of who may write what of users (issue: no one hands on more than they hold), for one
 * caller. The product's own writes (the demo data, a directory's first sign-in) carry no grants and
 * are not a person's: they pass.
 */
export class UserRights {
  private own?: Promise<Holdings>;

  constructor(
    private readonly db: Db,
    private readonly registry: Registry,
    private readonly principal: Principal,
  ) {}

  get applies(): boolean {
    return this.principal.grants !== undefined;
  }

  private mine(): Promise<Holdings> {
    this.own ??= userHoldings(this.db, this.registry, this.principal.userId);
    return this.own;
  }

  /** Whether the caller holds all that the user holds (so may set their password or e-mail). */
  async mayManage(userId: string): Promise<boolean> {
    if (!this.applies || userId === this.principal.userId) return true;
    return covers(await this.mine(), await userHoldings(this.db, this.registry, userId));
  }

  /** A user's record written: flags only as their holders set them, and only users they cover. */
  async checkUser(data: Row, existing?: Row): Promise<void> {
    if (!this.applies) return;
    const id = data.IdUsuario ?? existing?.IdUsuario;
    const refuse = (key: string) => beyondRights(key, 'user', id, data);
    const mine = await this.mine();
    const flag = (row: Row | undefined, name: string) => (row?.[name] ?? 'N') === 'S';
    for (const name of ['SuperAdministrador', 'Administrador']) {
      const wanted = flag(data, name);
      if (existing ? wanted === flag(existing, name) : !wanted) continue;
      const allowed = name === 'SuperAdministrador' ? mine.superAdministrator : covers(mine, ADMINISTRATOR);
      if (!allowed) throw refuse(name === 'SuperAdministrador' ? 'superAdministrator' : 'administrator');
    }
    // Reading health or criminal-record data is handed on only by whoever reads them.
    for (const [dataClass, field] of Object.entries(SENSITIVE_SETTINGS))
      if (
        data[field] === 'S' &&
        existing?.[field] !== 'S' &&
        !this.principal.sensitive?.has(dataClass as SensitiveClass)
      )
        throw refuse('sensitiveData');
    if (existing && !(await this.mayManage(String(existing.IdUsuario)))) throw refuse('holdsMore');
  }

  /** A profile assignment written or removed: of a user the caller covers, of a profile they hold. */
  async checkAssignment(data: Row, existing?: Row): Promise<void> {
    if (!this.applies) return;
    const refuse = (key: string) => beyondRights(key, 'user-profile', data.IdUsuario, data);
    for (const userId of new Set([data.IdUsuario, existing?.IdUsuario].filter((u) => u !== undefined)))
      if (!(await this.mayManage(String(userId)))) throw refuse('holdsMore');
    if (data.IdPerfil === undefined) return;
    const profile = await profileHoldings(this.db, this.registry, Number(data.IdPerfil));
    if (!covers(await this.mine(), profile)) throw refuse('profile');
  }
}

/**
 * Another active user of the client who has this e-mail (compared without case), if any: an
 * e-mail names one user of a client, as the directory's sign-in finds them by it.
 */
export async function emailHolder(
  db: Db,
  registry: Registry,
  clientId: unknown,
  email: unknown,
  exceptUserId?: unknown,
): Promise<string | undefined> {
  if (typeof email !== 'string' || !email || clientId === undefined || clientId === null) return undefined;
  let qb = db
    .selectFrom(registry.require('user').table)
    .select('IdUsuario')
    .where('IdCliente', '=', clientId as number)
    .where('Activo', '=', 'S')
    .where(sql`lower(${sql.ref('Correo')})`, '=', email.toLowerCase());
  if (exceptUserId !== undefined) qb = qb.where('IdUsuario', '<>', String(exceptUserId));
  const row = (await qb.limit(1).executeTakeFirst()) as { IdUsuario: string } | undefined;
  return row?.IdUsuario;
}

/** The refusal of an e-mail another active user of the client has. */
export function emailTaken(): ApiError {
  return new ApiError('DUPLICATE', { fields: { Correo: { messageKey: 'security.emailTaken' } } });
}
