import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Keeps secrets the server must read again (an authenticator app's seed, a webhook endpoint's
 * signing secret) encrypted at rest: AES-256-GCM under a key derived from the server's secret for
 * each purpose, bound to what the secret belongs to (a user, an endpoint) as associated data, so a
 * sealed value copied onto another record does not open.
 */
export class Sealer {
  private readonly keys = new Map<string, Buffer>();

  constructor(private readonly secret: Uint8Array) {}

  private key(purpose: string): Buffer {
    let key = this.keys.get(purpose);
    if (!key) {
      key = createHmac('sha256', this.secret).update(`${purpose}:cipher`).digest();
      this.keys.set(purpose, key);
    }
    return key;
  }

  seal(purpose: string, owner: string, plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key(purpose), iv);
    cipher.setAAD(Buffer.from(owner));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
  }

  /** The plain value, or undefined when sealed under another server secret, for another owner, or altered. */
  open(purpose: string, owner: string, sealed: string): string | undefined {
    try {
      const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
      const decipher = createDecipheriv('aes-256-gcm', this.key(purpose), iv);
      decipher.setAAD(Buffer.from(owner));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
