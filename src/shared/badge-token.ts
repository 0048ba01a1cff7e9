/**
 * The token a badge's QR code carries: who holds which credential, in which client's division,
 * until when, signed with the server's Ed25519 key (the key that signs the offline allow-lists),
 * so a gate tells a genuine badge from a forged or altered one without a network.
 *
 *   AC1.<payload>.<signature>
 *
 * `payload` is base64url of the UTF-8 text `IdCliente|IdDivision|IdCredencial|Numero|Titular|Hasta`
 * (Titular P:<IdPersona> or V:<IdVehiculo>, Hasta yyyy-mm-dd) and `signature` base64url of the 64-byte Ed25519
 * signature of those payload bytes: about 150 characters, a QR code of version 8 or less.
 *
 * Pure and isomorphic: the server, the console and the gate app verify with WebCrypto.
 */

export const TOKEN_PREFIX = 'AC1';

export interface BadgeClaims {
  IdCliente: number;
  IdDivision: number;
  IdCredencial: number;
  /** The credential's number (what a proximity reader would read). */
  Numero: string;
  /** P:<IdPersona>, or V:<IdVehiculo> for a vehicle's card. */
  Titular: string;
  /** The last day the badge holds (yyyy-mm-dd). */
  Hasta: string;
}

/** Why a token is not genuine: unreadable (not a badge's token) or its signature fails. */
export type TokenProblem = 'TOKEN_MALFORMED' | 'TOKEN_FORGED';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

export function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

export function fromBase64url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** The bytes a token signs. */
export function claimsBytes(claims: BadgeClaims): Uint8Array {
  const fields = [
    claims.IdCliente,
    claims.IdDivision,
    claims.IdCredencial,
    claims.Numero,
    claims.Titular,
    claims.Hasta,
  ].map(String);
  if (fields.some((f) => f.includes('|'))) throw new Error('a badge claim holds a "|"');
  return encoder.encode(fields.join('|'));
}

/** A token from its claims and the signature of `claimsBytes(claims)`. */
export function tokenOf(claims: BadgeClaims, signature: Uint8Array): string {
  return `${TOKEN_PREFIX}.${base64url(claimsBytes(claims))}.${base64url(signature)}`;
}

const INT = /^[1-9]\d{0,9}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A token's claims and signed bytes, or undefined when it is not a badge token at all. */
export function parseToken(
  token: string,
): { claims: BadgeClaims; signed: Uint8Array; signature: Uint8Array } | undefined {
  const parts = token.trim().split('.');
  if (parts.length !== 3 || parts[0] !== TOKEN_PREFIX || parts[1].length > 400) return undefined;
  const signed = fromBase64url(parts[1]);
  const signature = fromBase64url(parts[2]);
  if (!signed || !signature || signature.length !== 64) return undefined;
  let text: string;
  try {
    text = decoder.decode(signed);
  } catch {
    return undefined;
  }
  const [client, division, credential, Numero, Titular, Hasta, ...rest] = text.split('|');
  if (
    rest.length ||
    !INT.test(client ?? '') ||
    !INT.test(division ?? '') ||
    !INT.test(credential ?? '') ||
    !Numero ||
    !/^[PV]:[1-9]\d{0,9}$/.test(Titular ?? '') ||
    !DAY.test(Hasta ?? '')
  )
    return undefined;
  return {
    claims: {
      IdCliente: Number(client),
      IdDivision: Number(division),
      IdCredencial: Number(credential),
      Numero,
      Titular,
      Hasta,
    },
    signed,
    signature,
  };
}

/** The DER bytes of an SPKI PEM public key. */
export function spkiOf(pem: string): Uint8Array {
  const body = pem.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '').replace(/\s+/g, '');
  const bytes = fromBase64url(body.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, ''));
  if (!bytes) throw new Error('not a PEM public key');
  return bytes;
}

/** The Ed25519 public key (SPKI PEM) as a WebCrypto key that verifies. */
export function verifyingKey(pem: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('spki', spkiOf(pem) as BufferSource, { name: 'Ed25519' }, false, ['verify']);
}

/** A token's claims when its signature holds; else why not. Says nothing of revocation or dates. */
export async function verifyToken(
  token: string,
  key: CryptoKey,
): Promise<{ ok: true; claims: BadgeClaims } | { ok: false; problem: TokenProblem }> {
  const parsed = parseToken(token);
  if (!parsed) return { ok: false, problem: 'TOKEN_MALFORMED' };
  const genuine = await crypto.subtle.verify(
    { name: 'Ed25519' },
    key,
    parsed.signature as BufferSource,
    parsed.signed as BufferSource,
  );
  return genuine ? { ok: true, claims: parsed.claims } : { ok: false, problem: 'TOKEN_FORGED' };
}

/**
 * A credential as a presented token bounds it: the badge holds no later than its own Hasta, though
 * the credential's row (renewed, or not yet closed) may run longer. Every reader of a token (the
 * server's verification and meals, the gate app's and meal reader's offline decisions) decides on
 * this.
 */
export function boundedByToken<C extends { FechaFin?: string | null }>(
  credential: C | undefined,
  Hasta: string | undefined,
): C | undefined {
  if (!credential || !Hasta) return credential;
  const end = credential.FechaFin ? String(credential.FechaFin).slice(0, 10) : undefined;
  return end !== undefined && end <= Hasta ? credential : { ...credential, FechaFin: Hasta };
}
