import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import Provider from 'oidc-provider';

/** A user of the test's directory: the claims its ID token carries. */
export interface DirectoryAccount {
  email?: string;
  email_verified?: boolean;
  preferred_username?: string;
  upn?: string;
  name?: string;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The directory's users by their login (the subject). */
  accounts: Map<string, DirectoryAccount>;
  /** Rewrites the next ID tokens the token endpoint gives (re-signed with the provider's key). */
  tamper?: (claims: JWTPayload) => JWTPayload;
  /** Makes every authorization code issued so far expired. */
  expireCodes(): void;
  /** What the token endpoint answered, in order (the error code, or "ok"). */
  tokenAnswers: string[];
  close(): Promise<void>;
}

const epoch = () => Math.floor(Date.now() / 1000);

/**
 * A real OpenID provider (oidc-provider) on a free loopback port: one confidential client with the
 * given redirect URIs (code flow, PKCE, client_secret_post), users given by `accounts`, consent
 * implied, its own signing key (so a test can re-sign a token it rewrites) and a store a test can
 * reach into (to expire a code).
 */
export async function startProvider(redirectUris: string[]): Promise<TestProvider> {
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const store = new Map<string, Record<string, unknown>>();
  class Adapter {
    constructor(private readonly model: string) {}
    key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number) {
      store.set(this.key(id), { ...payload, ...(expiresIn ? { exp: epoch() + expiresIn } : {}) });
    }
    async find(id: string) {
      return store.get(this.key(id));
    }
    async findByUid(uid: string) {
      for (const [key, value] of store)
        if (key.startsWith(`${this.model}:`) && value.uid === uid) return value;
      return undefined;
    }
    async findByUserCode() {
      return undefined;
    }
    async consume(id: string) {
      const payload = store.get(this.key(id));
      if (payload) payload.consumed = epoch();
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, value] of store) if (value.grantId === grantId) store.delete(key);
    }
  }

  const clientId = 'acreditacion-consola';
  const clientSecret = 'secreto-de-prueba-9f83b2c1d4e5';
  const accounts = new Map<string, DirectoryAccount>();
  const provider = new Provider(issuer, {
    adapter: Adapter,
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ['clave-de-cookies-de-prueba'] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'preferred_username', 'upn'],
    },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    ttl: {
      Interaction: 600,
      Session: 600,
      Grant: 600,
      AccessToken: 600,
      IdToken: 600,
      AuthorizationCode: 60,
    },
    pkce: { required: () => true },
    findAccount: async (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: async () => ({ sub, ...(accounts.get(sub) ?? {}) }),
    }),
    // Consent is implied: the sign-in asks for the user's identity only.
    loadExistingGrant: async (ctx: {
      oidc: {
        provider: Provider;
        client: { clientId: string };
        session: { accountId: string };
      };
    }) => {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client.clientId,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });

  const answers: string[] = [];
  const state: TestProvider = {
    issuer,
    clientId,
    clientSecret,
    accounts,
    tokenAnswers: answers,
    expireCodes() {
      for (const [key, value] of store) if (key.startsWith('AuthorizationCode:')) value.exp = epoch() - 60;
    },
    close: () => new Promise((done) => server.close(() => done())),
  };
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path !== '/token') return;
    const body = ctx.body as { id_token?: string; error?: string } | undefined;
    answers.push(body?.error ?? 'ok');
    if (!body?.id_token || !state.tamper) return;
    const claims = state.tamper(decodeJwt(body.id_token));
    body.id_token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key', typ: 'JWT' })
      .sign(privateKey);
  });
  const callback = provider.callback();
  handler = (req, res) => callback(req, res);
  return state;
}

/**
 * What a user does at the provider, as a browser would (cookies kept, redirects followed): from the
 * authorization URL, the login form with `login`, until the provider sends the browser to an
 * address under `returnTo`. Answers that address (the callback with its code and state).
 */
export async function authorizeAt(authorizationUrl: string, login: string, returnTo: string): Promise<URL> {
  const jar = new Map<string, string>();
  let next = authorizationUrl;
  let form: string | undefined;
  for (let hop = 0; hop < 12; hop++) {
    if (next.startsWith(returnTo)) return new URL(next);
    const response = await fetch(next, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form,
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      next = new URL(location, next).href;
      form = undefined;
      continue;
    }
    const page = await response.text();
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    if (response.status !== 200 || !prompt || form)
      throw new Error(`unexpected answer ${response.status} at ${next}: ${page.slice(0, 300)}`);
    form = new URLSearchParams(
      prompt === 'login' ? { prompt, login, password: 'cualquiera' } : { prompt },
    ).toString();
  }
  throw new Error('the provider never sent the browser back');
}
