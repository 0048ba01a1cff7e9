import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { verifyingKey } from '../../../shared/badge-token.js';
import type { Db } from '../../db/connection.js';
import { ACCESS_TABLES } from './tables.js';

/** The server's Ed25519 pair: PEM texts, the private key parsed to sign, the public one to verify. */
export interface SigningKeys {
  privateKey: string;
  publicKey: string;
  signer: KeyObject;
  verifier: Promise<CryptoKey>;
}

const keysOf = new WeakMap<Db, Promise<SigningKeys>>();

/**
 * The signing key pair: made once and kept in the database (every server process shares it), read
 * once per database handle and kept parsed; a failed read is asked again next time.
 */
export function signingKeys(db: Db): Promise<SigningKeys> {
  let keys = keysOf.get(db);
  if (!keys) {
    keys = readSigningKeys(db);
    keysOf.set(db, keys);
    keys.catch(() => keysOf.delete(db));
  }
  return keys;
}

async function readSigningKeys(db: Db): Promise<SigningKeys> {
  const existing = await db
    .selectFrom(ACCESS_TABLES.signingKey)
    .select('Id')
    .where('Id', '=', 1)
    .executeTakeFirst();
  if (!existing) {
    const pair = generateKeyPairSync('ed25519', {
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    await db
      .insertInto(ACCESS_TABLES.signingKey)
      .values({ Id: 1, Privada: pair.privateKey, Publica: pair.publicKey })
      .onConflict((oc) => oc.column('Id').doNothing())
      .execute();
  }
  // Another process may have made it first: the stored pair is the one.
  const row = (await db
    .selectFrom(ACCESS_TABLES.signingKey)
    .select(['Privada', 'Publica'])
    .where('Id', '=', 1)
    .executeTakeFirstOrThrow()) as { Privada: string; Publica: string };
  const verifier = verifyingKey(row.Publica);
  verifier.catch(() => undefined);
  return {
    privateKey: row.Privada,
    publicKey: row.Publica,
    signer: createPrivateKey(row.Privada),
    verifier,
  };
}
