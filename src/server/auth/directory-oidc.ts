import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';
import { ApiError } from '../errors.js';

/** A client's directory: its issuer, the application registered there and the claim naming the user. */
export interface DirectorySettings {
  clientId: number;
  issuer: string;
  appId: string;
  /** The application's client secret; without one the application is a public client (PKCE alone). */
  secret: string | null;
  claim: 'email' | 'upn' | 'preferred_username';
}

/** What one trip to the issuer keeps on the server: never sent to the browser except the state. */
export interface FlowChecks {
  state: string;
  nonce: string;
  verifier: string;
}

/** A refusal of the directory sign-in: its message key, and a reason for the log (never a secret). */
export function directoryRefusal(key: string, status: 'LOGIN_REFUSED' | 'LOGIN_FAILED' = 'LOGIN_REFUSED') {
  return new ApiError(status, { messageKey: `login.directory.${key}` });
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const DISCOVERY_TTL_MS = 10 * 60_000;
const TIMEOUT_SECONDS = 10;

/** Discovered issuers, by issuer, application and secret (hashed): the metadata, not any user's state. */
const discovered = new Map<string, { config: oidc.Configuration; until: number }>();

function cacheKey(s: DirectorySettings): string {
  return createHash('sha256')
    .update(JSON.stringify([s.issuer, s.appId, s.secret ?? '']))
    .digest('base64url');
}

/**
 * The issuer's metadata (discovery) and this application's credentials. Only https issuers, but
 * for one on this machine (a test's or a developer's provider), which may speak plain http.
 */
export async function configuration(s: DirectorySettings, now: number): Promise<oidc.Configuration> {
  let issuer: URL;
  try {
    issuer = new URL(s.issuer);
  } catch {
    throw directoryRefusal('notConfigured');
  }
  const insecure = issuer.protocol === 'http:';
  if ((insecure && !LOOPBACK.has(issuer.hostname)) || (!insecure && issuer.protocol !== 'https:'))
    throw directoryRefusal('notConfigured');
  const key = cacheKey(s);
  const cached = discovered.get(key);
  if (cached && cached.until > now) return cached.config;
  const auth = s.secret ? oidc.ClientSecretPost(s.secret) : oidc.None();
  let config: oidc.Configuration;
  try {
    config = await oidc.discovery(issuer, s.appId, undefined, auth, {
      timeout: TIMEOUT_SECONDS,
      ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
    });
  } catch (error) {
    // Unreachable, not an OpenID provider, or one that names another issuer.
    throw Object.assign(directoryRefusal('providerUnavailable'), { kind: problemKind(error) });
  }
  discovered.set(key, { config, until: now + DISCOVERY_TTL_MS });
  return config;
}

/** The issuer's authorization URL for a new trip: code flow with PKCE (S256), state and nonce. */
export async function authorizationUrl(
  config: oidc.Configuration,
  redirectUri: string,
  checks: FlowChecks,
): Promise<URL> {
  return oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid profile email',
    code_challenge: await oidc.calculatePKCECodeChallenge(checks.verifier),
    code_challenge_method: 'S256',
    state: checks.state,
    nonce: checks.nonce,
  });
}

/**
 * Exchanges the code the issuer sent back and validates the ID token (signature, issuer, audience,
 * expiry, nonce; the state and PKCE verifier of this trip): its claims, or a refusal.
 */
export async function exchangeCode(
  config: oidc.Configuration,
  callbackUrl: URL,
  checks: FlowChecks,
): Promise<Record<string, unknown>> {
  try {
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: checks.verifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw directoryRefusal('tokenInvalid');
    return claims as Record<string, unknown>;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw Object.assign(providerProblem(error), { kind: problemKind(error) });
  }
}

/** What went wrong with the issuer, as a refusal; the log gets the kind of error, never its data. */
export function providerProblem(error: unknown): ApiError {
  if (error instanceof oidc.AuthorizationResponseError) return directoryRefusal('providerRefused');
  if (error instanceof oidc.ResponseBodyError) return directoryRefusal('codeInvalid');
  const name = (error as { name?: string })?.name;
  const code = (error as { code?: string })?.code;
  if (name === 'TimeoutError' || name === 'AbortError' || (name === 'TypeError' && !code))
    return directoryRefusal('providerUnavailable');
  if (code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || code === 'OAUTH_RESPONSE_IS_NOT_JSON')
    return directoryRefusal('providerUnavailable');
  return directoryRefusal('tokenInvalid');
}

/** The kind of an issuer's error, for the log: its class, code and OAuth error, never its message or data. */
export function problemKind(error: unknown): Record<string, string | undefined> {
  const e = error as { name?: string; code?: string; error?: string; cause?: { code?: string } };
  return {
    name: e?.name,
    code: e?.code,
    error: typeof e?.error === 'string' ? e.error : undefined,
    cause: typeof e?.cause?.code === 'string' ? e.cause.code : undefined,
  };
}

/** The value of the claim that names the user, or undefined (an e-mail the issuer says is unverified counts as none). */
export function identityOf(
  claims: Record<string, unknown>,
  claim: DirectorySettings['claim'],
): string | undefined {
  if (claim === 'email' && claims.email_verified === false) return undefined;
  const value = claims[claim];
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed && trimmed.length <= 254 ? trimmed : undefined;
}

export const randomChecks = (): FlowChecks => ({
  state: oidc.randomState(),
  nonce: oidc.randomNonce(),
  verifier: oidc.randomPKCECodeVerifier(),
});
