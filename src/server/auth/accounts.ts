import { sql } from 'kysely';
import { SESSION } from '../../shared/constants.js';
import type { Usuario } from '../../shared/generated/entities.js';
import { DEFAULT_POLICY, type PasswordPolicy, type SecurityLevel } from '../../shared/password-policy.js';
import type { Db } from '../db/connection.js';
import type { Registry } from '../registry.js';
import { AUTH_TABLES } from './tables.js';

/** The user columns the sign-in reads. */
export interface UserRow {
  IdUsuario: string;
  IdCliente: number | null;
  Nombre: string;
  Apellido: string;
  Correo: string | null;
  Telefono: string | null;
  IdConfiguracionLogeo: number | null;
  Contratista: 'S' | 'N';
  /** Signs in only with the corporate account of the client's directory. */
  ValidarDirectorio: 'S' | 'N';
  Bloqueado: 'S' | 'N';
  PrimeraClaveCambiada: 'S' | 'N';
  FechaCaducidadClave: string | null;
  FechaUltimoAcceso: string | null;
  Activo: 'S' | 'N';
}

/** A login security setting, or the product's defaults where a client has none. */
export interface LoginSetting {
  IdConfiguracionLogeo: number | null;
  NivelSeguridadClave: SecurityLevel;
  LongitudClave: number;
  CaducaClave: 'S' | 'N';
  PeriodoCaducidadDias: number;
  CambiarPrimeraClave: 'S' | 'N';
  NumeroIntentos: number;
  MinutosDesbloqueo: number;
  DiasInactivacion: number;
  DobleAutenticacion: 'S' | 'N';
  NotificarPor: 'C' | 'T';
  /** The second factor by authenticator app: N not offered, O optional, S required. */
  AutenticadorApp: 'N' | 'O' | 'S';
  SegundosInactividad: number;
}

export const DEFAULT_SETTING: LoginSetting = {
  IdConfiguracionLogeo: null,
  NivelSeguridadClave: DEFAULT_POLICY.level,
  LongitudClave: DEFAULT_POLICY.minLength,
  CaducaClave: 'N',
  PeriodoCaducidadDias: 90,
  CambiarPrimeraClave: 'S',
  NumeroIntentos: 5,
  MinutosDesbloqueo: 15,
  DiasInactivacion: 0,
  DobleAutenticacion: 'N',
  NotificarPor: 'C',
  AutenticadorApp: 'N',
  SegundosInactividad: SESSION.inactivityLockSeconds,
};

/** A profile assignment with the names the shell shows. */
export interface Assignment {
  IdUsuarioPerfil: number;
  IdPerfil: number;
  Perfil: string;
  IdCliente: number;
  Cliente: string;
  IdDivision: number | null;
  Division: string | null;
  IdPais: string | null;
  DivisionActiva: string | null;
  IdCompania: number | null;
  Compania: string | null;
  CompaniaActiva: string | null;
  IdRolAcreditacion: string | null;
  RolAcreditacion: string | null;
  PorDefecto: string;
}

export interface UserState {
  IntentosFallidos: number;
  IntentosCodigo: number;
  BloqueadoHasta: number | null;
  Motivo: string | null;
}

/** Reads and writes of the accounts behind sign-in, in terms of the entity tables and the auth tables. */
export class Accounts {
  constructor(
    readonly db: Db,
    private readonly registry: Registry,
  ) {}

  table(resource: string): string {
    return this.registry.require(resource).table;
  }

  with(db: Db): Accounts {
    return new Accounts(db, this.registry);
  }

  async user(userId: string): Promise<UserRow | undefined> {
    return (await this.db
      .selectFrom(this.table('user'))
      .selectAll()
      .where('IdUsuario', '=', userId)
      .executeTakeFirst()) as UserRow | undefined;
  }

  async setting(user: UserRow): Promise<LoginSetting> {
    const table = this.table('login-setting');
    let row: LoginSetting | undefined;
    if (user.IdConfiguracionLogeo !== null) {
      row = (await this.db
        .selectFrom(table)
        .selectAll()
        .where('IdConfiguracionLogeo', '=', user.IdConfiguracionLogeo)
        .where('Activo', '=', 'S')
        .executeTakeFirst()) as LoginSetting | undefined;
    }
    if (!row && user.IdCliente !== null) {
      row = (await this.db
        .selectFrom(table)
        .selectAll()
        .where('IdCliente', '=', user.IdCliente)
        .where('PorDefecto', '=', 'S')
        .where('Activo', '=', 'S')
        .orderBy('IdConfiguracionLogeo')
        .limit(1)
        .executeTakeFirst()) as LoginSetting | undefined;
    }
    // A setting saved before the authenticator app existed (its column empty) does not offer it.
    return row
      ? { ...DEFAULT_SETTING, ...row, AutenticadorApp: row.AutenticadorApp ?? 'N' }
      : DEFAULT_SETTING;
  }

  static policy(setting: LoginSetting): PasswordPolicy {
    return { level: setting.NivelSeguridadClave, minLength: setting.LongitudClave };
  }

  /** The user's active assignments with active profiles, whatever their divisions and companies. */
  async assignments(userId: string): Promise<Assignment[]> {
    return (await this.db
      .selectFrom(`${this.table('user-profile')} as up`)
      .innerJoin(`${this.table('profile')} as p`, 'p.IdPerfil', 'up.IdPerfil')
      .innerJoin(`${this.table('client')} as c`, 'c.IdCliente', 'up.IdCliente')
      .leftJoin(`${this.table('division')} as d`, 'd.IdDivision', 'up.IdDivision')
      .leftJoin(`${this.table('company')} as co`, 'co.IdCompania', 'up.IdCompania')
      .leftJoin(`${this.table('accreditation-role')} as r`, 'r.IdRolAcreditacion', 'up.IdRolAcreditacion')
      .select([
        'up.IdUsuarioPerfil',
        'up.IdPerfil',
        'p.Perfil',
        'up.IdCliente',
        'c.Cliente',
        'up.IdDivision',
        'd.Division',
        'd.IdPais',
        'd.Activo as DivisionActiva',
        'up.IdCompania',
        'co.Compania',
        'co.Activo as CompaniaActiva',
        'up.IdRolAcreditacion',
        'r.Descripcion as RolAcreditacion',
        'up.PorDefecto',
      ])
      .where('up.IdUsuario', '=', userId)
      .where('up.Activo', '=', 'S')
      .where('p.Activo', '=', 'S')
      .where('c.Activo', '=', 'S')
      .orderBy('up.PorDefecto', 'desc')
      .orderBy('up.IdUsuarioPerfil')
      .execute()) as Assignment[];
  }

  async passwordHash(userId: string): Promise<string | undefined> {
    const row = (await this.db
      .selectFrom(AUTH_TABLES.password)
      .select('Hash')
      .where('IdUsuario', '=', userId)
      .executeTakeFirst()) as { Hash: string } | undefined;
    return row?.Hash;
  }

  /** The current hash and the earlier ones, newest first. */
  async passwordHistory(userId: string, depth: number): Promise<string[]> {
    const current = await this.passwordHash(userId);
    const earlier = (await this.db
      .selectFrom(AUTH_TABLES.history)
      .select('Hash')
      .where('IdUsuario', '=', userId)
      .orderBy('Id', 'desc')
      .limit(depth)
      .execute()) as Array<{ Hash: string }>;
    return [...(current ? [current] : []), ...earlier.map((r) => r.Hash)];
  }

  /** Stores a new password; the one it replaces goes into the history. */
  async storePassword(userId: string, hash: string, now: number): Promise<void> {
    const current = await this.passwordHash(userId);
    if (current) {
      await this.db
        .insertInto(AUTH_TABLES.history)
        .values({ IdUsuario: userId, Hash: current, Fecha: now })
        .execute();
      await this.db
        .updateTable(AUTH_TABLES.password)
        .set({ Hash: hash, FechaCambio: now })
        .where('IdUsuario', '=', userId)
        .execute();
    } else {
      await this.db
        .insertInto(AUTH_TABLES.password)
        .values({ IdUsuario: userId, Hash: hash, FechaCambio: now })
        .execute();
    }
  }

  async state(userId: string): Promise<UserState> {
    const row = (await this.db
      .selectFrom(AUTH_TABLES.state)
      .selectAll()
      .where('IdUsuario', '=', userId)
      .executeTakeFirst()) as UserState | undefined;
    return row ?? { IntentosFallidos: 0, IntentosCodigo: 0, BloqueadoHasta: null, Motivo: null };
  }

  async saveState(userId: string, state: UserState): Promise<void> {
    await this.db
      .insertInto(AUTH_TABLES.state)
      .values({ IdUsuario: userId, ...state })
      .onConflict((oc) => oc.column('IdUsuario').doUpdateSet(state))
      .execute();
  }

  /**
   * Counts one more failure (of the password or of a code) in one statement and answers the new
   * count: tries that arrive together each see their own number, so the setting's limit holds
   * whatever the concurrency.
   */
  async countFailure(userId: string, column: 'IntentosFallidos' | 'IntentosCodigo'): Promise<number> {
    const t = AUTH_TABLES.state;
    const row = (await this.db
      .insertInto(t)
      .values({ IdUsuario: userId, IntentosFallidos: 0, IntentosCodigo: 0, [column]: 1 })
      .onConflict((oc) =>
        oc.column('IdUsuario').doUpdateSet({ [column]: sql`${sql.ref(`${t}.${column}`)} + 1` }),
      )
      .returning(column)
      .executeTakeFirstOrThrow()) as Record<string, number>;
    return Number(row[column]);
  }

  /** Forgets a user's failures of one kind (a right password, a right code). */
  async clearFailures(userId: string, column: 'IntentosFallidos' | 'IntentosCodigo'): Promise<void> {
    await this.db
      .updateTable(AUTH_TABLES.state)
      .set({ [column]: 0 })
      .where('IdUsuario', '=', userId)
      .execute();
  }

  /** Server-side changes of a user (lock state, access dates, password flags); null clears a field. */
  async updateUser(userId: string, values: { [K in keyof Usuario]?: Usuario[K] | null }): Promise<void> {
    await this.db
      .updateTable(this.table('user'))
      .set({ ...values, IdUsuarioModificacion: 'SISTEMA', FechaModificacion: new Date().toISOString() })
      .where('IdUsuario', '=', userId)
      .execute();
  }
}
