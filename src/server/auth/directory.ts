import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { LoginResponse } from '../../shared/session.js';
import type { UserRow } from './accounts.js';
import type { Attempts } from './attempts.js';
import type { AuthContext } from './context.js';
import {
  authorizationUrl,
  configuration,
  type DirectorySettings,
  directoryRefusal,
  exchangeCode,
  identityOf,
  randomChecks,
} from './directory-oidc.js';
import { DIRECTORY_TABLES } from './directory-tables.js';
import type { SignIn } from './sign-in.js';
import { allow } from './throttle.js';

/** How long a trip to the issuer may take, from the popup's start to the callback. */
export const FLOW_MINUTES = 10;
/** How long the console has to spend the callback's ticket. */
export const TICKET_SECONDS = 120;
/** Spent or expired flows and tickets are kept this long, then swept. */
const KEEP_MS = 60 * 60_000;

const hash = (value: string) => createHash('sha256').update(value).digest('base64url');
const random = () => randomBytes(32).toString('base64url');

interface ClientRow {
  IdCliente: number;
  InicioSesionDirectorio: string | null;
  DirectorioEmisor: string | null;
  DirectorioIdAplicacion: string | null;
  DirectorioSecreto: string | null;
  DirectorioReclamo: string | null;
}

interface FlowRow {
  Hash: string;
  IdCliente: number;
  Nonce: string;
  Verificador: string;
  RedirectUri: string;
}

/**
 * The directory sign-in (spec sections 2 and 9, flag S): a user of a client whose flag is S and
 * who is flagged ValidarDirectorio signs in with a corporate account at the client's OpenID
 * provider (Microsoft Entra ID or another). The popup starts a trip (state, nonce and PKCE
 * verifier kept here), the issuer sends the code back to the callback, which exchanges it and
 * hands the console a short-lived single-use ticket; POST /api/UsuarioAD/authenticateAzureAD
 * spends it, finds the client's user the directory names (never making one) and answers the
 * login response of a password sign-in.
 */
export class DirectorySignIn {
  constructor(
    private readonly ctx: AuthContext,
    private readonly attempts: Attempts,
    private readonly signIn: SignIn,
  ) {}

  /**
   * The client the sign-in page is for: the one it names, or, when it names none, the only active
   * client (a deployment serves one); undefined when that is not one active client.
   */
  private async client(requested?: number): Promise<ClientRow | undefined> {
    let query = this.ctx.db
      .selectFrom(this.ctx.registry.require('client').table)
      .select([
        'IdCliente',
        'InicioSesionDirectorio',
        'DirectorioEmisor',
        'DirectorioIdAplicacion',
        'DirectorioSecreto',
        'DirectorioReclamo',
      ])
      .where('Activo', '=', 'S');
    if (requested !== undefined) query = query.where('IdCliente', '=', requested);
    const rows = (await query.limit(2).execute()) as ClientRow[];
    return rows.length === 1 ? rows[0] : undefined;
  }

  private settingsOf(row: ClientRow | undefined): DirectorySettings | undefined {
    if (row?.InicioSesionDirectorio !== 'S' || !row.DirectorioEmisor || !row.DirectorioIdAplicacion)
      return undefined;
    const claim = row.DirectorioReclamo;
    return {
      clientId: row.IdCliente,
      issuer: row.DirectorioEmisor,
      appId: row.DirectorioIdAplicacion,
      secret: row.DirectorioSecreto || null,
      claim: claim === 'upn' || claim === 'preferred_username' ? claim : 'email',
    };
  }

  private async enabled(clientId?: number): Promise<DirectorySettings> {
    const settings = this.settingsOf(await this.client(clientId));
    if (!settings) throw directoryRefusal('disabled');
    return settings;
  }

  /** GET /api/UsuarioAD/configuracion: whether the sign-in page shows the corporate-account button. */
  async status(clientId?: number): Promise<{ habilitado: boolean; idCliente: number | null }> {
    const row = await this.client(clientId);
    return { habilitado: this.settingsOf(row) !== undefined, idCliente: row?.IdCliente ?? null };
  }

  /**
   * GET /api/UsuarioAD/iniciar: a new trip to the client's issuer. Answers the issuer's URL and the
   * browser binding, a secret the popup keeps in a cookie and the callback must bring back.
   */
  async start(
    clientId: number | undefined,
    redirectUri: string,
    address: string,
  ): Promise<{ url: string; binding: string }> {
    const now = this.ctx.now();
    const { perAddress, windowMs } = this.ctx.throttle;
    if (!(await allow(this.ctx.db, `directory:${address}`, perAddress, windowMs, now)))
      throw directoryRefusal('tooMany');
    const settings = await this.enabled(clientId);
    const config = await configuration(settings, now);
    const checks = randomChecks();
    const binding = random();
    const url = await authorizationUrl(config, redirectUri, checks);
    await this.sweep(now);
    await this.ctx.db
      .insertInto(DIRECTORY_TABLES.flow)
      .values({
        Hash: hash(checks.state),
        IdCliente: settings.clientId,
        Nonce: checks.nonce,
        Verificador: checks.verifier,
        Vinculo: hash(binding),
        RedirectUri: redirectUri,
        ExpiraEn: now + FLOW_MINUTES * 60_000,
        CreadoEn: now,
      })
      .execute();
    return { url: url.href, binding };
  }

  /**
   * GET /api/UsuarioAD/callback: the issuer's answer. The trip is spent first (its state known,
   * unspent, unexpired and of this browser), then the code exchanged and the ID token checked; the
   * ticket names the client and the directory's name for the user.
   */
  async finish(query: URLSearchParams, binding: string | undefined): Promise<string> {
    const now = this.ctx.now();
    const state = query.get('state');
    if (!state || !binding) throw directoryRefusal('stateInvalid');
    const flow = (await this.ctx.db
      .updateTable(DIRECTORY_TABLES.flow)
      .set({ UsadoEn: now })
      .where('Hash', '=', hash(state))
      .where('Vinculo', '=', hash(binding))
      .where('UsadoEn', 'is', null)
      .where('ExpiraEn', '>', now)
      .returning(['Hash', 'IdCliente', 'Nonce', 'Verificador', 'RedirectUri'])
      .executeTakeFirst()) as FlowRow | undefined;
    if (!flow) throw directoryRefusal('stateInvalid');
    const settings = await this.enabled(flow.IdCliente);
    const config = await configuration(settings, now);
    const callbackUrl = new URL(flow.RedirectUri);
    callbackUrl.search = query.toString();
    const claims = await exchangeCode(config, callbackUrl, {
      state,
      nonce: flow.Nonce,
      verifier: flow.Verificador,
    });
    const identity = identityOf(claims, settings.claim);
    if (!identity) throw directoryRefusal('noIdentity');
    const ticket = random();
    await this.ctx.db
      .insertInto(DIRECTORY_TABLES.ticket)
      .values({
        Hash: hash(ticket),
        IdCliente: settings.clientId,
        Identidad: identity,
        ExpiraEn: now + TICKET_SECONDS * 1000,
        CreadoEn: now,
      })
      .execute();
    return ticket;
  }

  /**
   * POST /api/UsuarioAD/authenticateAzureAD: the ticket (bearer) and tokenClient, checked as the
   * password sign-in checks it. The ticket is spent whatever follows; the user is the client's
   * one the directory names, flagged for directory validation, and signs in as after a password.
   */
  async authenticate(
    ticket: string,
    input: { tokenClient?: unknown },
    address: string,
  ): Promise<LoginResponse> {
    const now = this.ctx.now();
    if (!ticket) throw directoryRefusal('ticketInvalid', 'LOGIN_FAILED');
    const found = (await this.ctx.db
      .selectFrom(DIRECTORY_TABLES.ticket)
      .select(['IdCliente', 'Identidad'])
      .where('Hash', '=', hash(ticket))
      .where('UsadoEn', 'is', null)
      .where('ExpiraEn', '>', now)
      .executeTakeFirst()) as { IdCliente: number; Identidad: string } | undefined;
    if (!found) throw directoryRefusal('ticketInvalid', 'LOGIN_FAILED');
    // The provider has checked who the person is: the challenge is asked of the address alone.
    await this.attempts.guard(
      found.Identidad.toLocaleUpperCase('es'),
      address,
      input.tokenClient as string | undefined,
      { byName: false },
    );
    const spent = await this.ctx.db
      .updateTable(DIRECTORY_TABLES.ticket)
      .set({ UsadoEn: now })
      .where('Hash', '=', hash(ticket))
      .where('UsadoEn', 'is', null)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1) throw directoryRefusal('ticketInvalid', 'LOGIN_FAILED');
    await this.enabled(found.IdCliente);
    const user = await this.userNamed(found.IdCliente, found.Identidad);
    await this.attempts.checkLock(user);
    return this.signIn.proven(user, await this.ctx.accounts.setting(user));
  }

  /**
   * The client's one user whose e-mail (or user name) the directory gives; nobody is made here.
   * Among several, only a flagged, active one is the directory's: what another user typed as
   * their e-mail (an inactive user may keep an active one's) never stands in its way.
   */
  private async userNamed(clientId: number, identity: string): Promise<UserRow> {
    const found = (await this.ctx.db
      .selectFrom(this.ctx.registry.require('user').table)
      .selectAll()
      .where('IdCliente', '=', clientId)
      .where((eb) =>
        eb.or([
          eb(sql`lower(${sql.ref('Correo')})`, '=', identity.toLowerCase()),
          eb('IdUsuario', '=', identity.toLocaleUpperCase('es')),
        ]),
      )
      .limit(20)
      .execute()) as UserRow[];
    const flagged = found.filter((u) => u.ValidarDirectorio === 'S' && u.Activo === 'S');
    const users = found.length === 1 ? found : flagged;
    if (users.length !== 1) throw directoryRefusal(found.length ? 'notFlagged' : 'noUser');
    if (users[0].ValidarDirectorio !== 'S') throw directoryRefusal('notFlagged');
    return users[0];
  }

  private async sweep(now: number): Promise<void> {
    for (const table of Object.values(DIRECTORY_TABLES))
      await this.ctx.db
        .deleteFrom(table)
        .where('ExpiraEn', '<', now - KEEP_MS)
        .execute();
  }
}
