import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type BadgeClaims,
  claimsBytes,
  parseToken,
  tokenOf,
  verifyingKey,
  verifyToken,
} from '../../src/shared/badge-token.js';

const pair = () =>
  generateKeyPairSync('ed25519', { publicKeyEncoding: { type: 'spki', format: 'pem' } }) as unknown as {
    publicKey: string;
    privateKey: import('node:crypto').KeyObject;
  };

describe('badge token', () => {
  const keys = pair();
  const claims: BadgeClaims = {
    IdCliente: 1,
    IdDivision: 1,
    IdCredencial: 1234,
    Numero: 'FC-000123',
    Titular: 'P:4567',
    Hasta: '2027-03-31',
  };
  const token = tokenOf(claims, sign(null, claimsBytes(claims), keys.privateKey));

  it('is short enough for a small QR code and verifies with the public key', async () => {
    expect(token.length).toBeLessThan(160);
    expect(await verifyToken(token, await verifyingKey(keys.publicKey))).toEqual({ ok: true, claims });
  });

  it('tells an altered token, another key’s and a malformed one apart', async () => {
    const key = await verifyingKey(keys.publicKey);
    const [prefix, payload, signature] = token.split('.');
    const altered = { ...claims, Hasta: '2099-12-31' };
    const forged = `${prefix}.${Buffer.from(claimsBytes(altered)).toString('base64url')}.${signature}`;
    expect(await verifyToken(forged, key)).toEqual({ ok: false, problem: 'TOKEN_FORGED' });
    const other = pair();
    expect(await verifyToken(token, await verifyingKey(other.publicKey))).toEqual({
      ok: false,
      problem: 'TOKEN_FORGED',
    });
    for (const bad of [
      '',
      'hola',
      `${prefix}.${payload}`,
      `XX1.${payload}.${signature}`,
      `${prefix}.${payload}.abc`,
    ])
      expect(await verifyToken(bad, key)).toEqual({ ok: false, problem: 'TOKEN_MALFORMED' });
    const pipes = Buffer.from('1|1|1|A|P:1|2027-01-01|x').toString('base64url');
    expect(parseToken(`${prefix}.${pipes}.${signature}`)).toBeUndefined();
  });
});
