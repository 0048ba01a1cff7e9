import { allowedClasses, SENSITIVE_SETTINGS, type SensitiveClass } from '../../shared/data-classes.js';
import {
  isAuthoriser,
  type ProfileType,
  profileTypeOf,
  type MenuItem as SharedMenuItem,
} from '../../shared/session.js';
import type { Db } from '../db/connection.js';
import { type TtlCache, ttlCache } from '../db/ttl-cache.js';
import type { Registry } from '../registry.js';

export type Access = 'read' | 'write';

/** A menu item with the application it belongs to. */
export interface MenuItem extends SharedMenuItem {
  IdAplicacion: string;
}

/** What a profile is and reaches: its type, its menu, the routes in it, and the records behind them. */
export interface Grants {
  characteristics: string[];
  profileType: ProfileType;
  authoriser: boolean;
  menu: MenuItem[];
  routes: Set<string>;
  resources: Map<string, Access>;
  /**
   * Workflow records whose forms the profile's screens draw (their schemas), though it reads and
   * writes them only through the workflow's own calls.
   */
  forms: Set<string>;
  /** The profile's data-protection settings (DatosSalud, DatosAntecedentes). */
  dataProtection: Record<string, string | null>;
}

export async function characteristicsOf(db: Db, registry: Registry, profileId: number): Promise<string[]> {
  const rows = (await db
    .selectFrom(registry.require('profile-characteristic').table)
    .select('IdCaracteristica')
    .where('IdPerfil', '=', profileId)
    .where('Activo', '=', 'S')
    .execute()) as Array<{ IdCaracteristica: string }>;
  return rows.map((r) => r.IdCaracteristica);
}

/**
 * A profile's grants come from the menu items assigned to it: an item's route opens a screen,
 * and when the screen is an entity's (`/<resource>`) its records, read-only when the assignment
 * says SoloLectura. Entities those refer to become readable, so their selects and links work.
 */
/** Records a workflow screen reads besides its own calls: the references of its forms. */
export interface RouteGrant {
  /** Routes that start with this reach the resources below, read-only. */
  routePrefix: string;
  read: string[];
  /** Workflow records whose forms those screens draw: their schemas, not their records. */
  forms?: string[];
}

export async function loadGrants(
  db: Db,
  registry: Registry,
  profileId: number,
  routeGrants: readonly RouteGrant[] = [],
): Promise<Grants> {
  const menu = registry.require('menu').table;
  const assigned = registry.require('menu-profile').table;
  const rows = (await db
    .selectFrom(`${assigned} as mp`)
    .innerJoin(`${menu} as m`, 'm.IdMenu', 'mp.IdMenu')
    .select([
      'm.IdMenu',
      'm.IdMenuPadre',
      'm.Modulo',
      'm.Ruta',
      'm.Orden',
      'm.Tag',
      'm.Icono',
      'm.Color',
      'm.Color2',
      'm.IdAplicacion',
      'mp.SoloLectura',
    ])
    .where('mp.IdPerfil', '=', profileId)
    .where('mp.Activo', '=', 'S')
    .where('m.Activo', '=', 'S')
    .execute()) as Array<MenuItem & { SoloLectura: string }>;

  const resources = new Map<string, Access>();
  const routes = new Set<string>();
  for (const row of rows) {
    if (!row.Ruta) continue;
    routes.add(row.Ruta);
    const entity = registry.get(row.Ruta.split('/')[1] ?? '');
    if (entity && row.Ruta === `/${entity.name}`) {
      const access: Access = row.SoloLectura === 'S' ? 'read' : 'write';
      if (resources.get(entity.name) !== 'write') resources.set(entity.name, access);
    }
  }
  // A workflow screen's forms read the records their fields refer to.
  const forms = new Set<string>();
  for (const route of routes)
    for (const grant of routeGrants)
      if (route.startsWith(grant.routePrefix)) {
        for (const name of grant.read)
          if (!resources.has(name) && registry.get(name)) resources.set(name, 'read');
        for (const name of grant.forms ?? []) if (registry.get(name)) forms.add(name);
      }
  for (const name of [...resources.keys()]) {
    const entity = registry.require(name);
    const scopeFields = new Set(Object.values(entity.scope));
    for (const ref of entity.references) {
      // A workflow's records (requests) are read through its own calls, which know its rules.
      if (
        !ref.private &&
        !scopeFields.has(ref.field) &&
        !resources.has(ref.target) &&
        !registry.require(ref.target).workflow
      )
        resources.set(ref.target, 'read');
    }
  }

  // The menu keeps the ancestors of what was assigned, so the tree holds together.
  const byId = new Map(rows.map((r) => [r.IdMenu, r as MenuItem]));
  const missing = new Set<string>();
  for (const row of rows) {
    for (let len = 2; len < row.IdMenu.length; len += 2) {
      const id = row.IdMenu.slice(0, len);
      if (!byId.has(id)) missing.add(id);
    }
  }
  if (missing.size) {
    const parents = (await db
      .selectFrom(menu)
      .select([
        'IdMenu',
        'IdMenuPadre',
        'Modulo',
        'Ruta',
        'Orden',
        'Tag',
        'Icono',
        'Color',
        'Color2',
        'IdAplicacion',
      ])
      .where('IdMenu', 'in', [...missing])
      .where('Activo', '=', 'S')
      .execute()) as MenuItem[];
    for (const parent of parents) byId.set(parent.IdMenu, parent);
  }
  const items = [...byId.values()]
    .map(({ SoloLectura: _readOnly, ...item }: MenuItem & { SoloLectura?: string }) => item)
    .sort((a, b) => a.IdMenu.localeCompare(b.IdMenu));
  const characteristics = await characteristicsOf(db, registry, profileId);
  const dataProtection = (await db
    .selectFrom(registry.require('profile').table)
    .select(Object.values(SENSITIVE_SETTINGS))
    .where('IdPerfil', '=', profileId)
    .executeTakeFirst()) as Record<string, string | null> | undefined;
  return {
    dataProtection: dataProtection ?? {},
    characteristics,
    profileType: profileTypeOf(characteristics),
    authoriser: isAuthoriser(characteristics),
    menu: items,
    routes,
    resources,
    forms,
  };
}

/** Grants are read on every request; a few seconds of memory spares the database. */
export class GrantsCache {
  private readonly cache: TtlCache<[number], Grants>;

  constructor(db: Db, registry: Registry, routeGrants: readonly RouteGrant[] = [], ttlMs = 5_000) {
    this.cache = ttlCache((profileId: number) => loadGrants(db, registry, profileId, routeGrants), ttlMs);
  }

  get(profileId: number): Promise<Grants> {
    return this.cache(profileId);
  }

  clear(): void {
    this.cache.clear();
  }
}

/**
 * The sensitive classes of personal data a user reads with a profile: the profile's settings, which
 * the user's own override (src/shared/data-classes.ts). The user's settings are kept as the grants are.
 */
export class DataProtectionCache {
  private readonly users: TtlCache<[string], Record<string, string | null>>;

  constructor(db: Db, registry: Registry, ttlMs = 5_000) {
    this.users = ttlCache(
      async (userId: string) =>
        ((await db
          .selectFrom(registry.require('user').table)
          .select(Object.values(SENSITIVE_SETTINGS))
          .where('IdUsuario', '=', userId)
          .executeTakeFirst()) ?? {}) as Record<string, string | null>,
      ttlMs,
    );
  }

  async classes(userId: string, grants: Grants): Promise<ReadonlySet<SensitiveClass>> {
    return new Set(allowedClasses(grants.dataProtection, await this.users(userId)));
  }

  clear(): void {
    this.users.clear();
  }
}
