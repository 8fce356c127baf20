import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for small secrets kept in the database (an IBAN, a TOTP secret): the key is derived
 * from the session secret and a purpose, so one kind of stored secret never opens with another's key.
 * Stored as `iv.tag.body` in base64url.
 */
function keyFor(secret: string, purpose: string) {
  return createHash('sha256').update(`${secret}:${purpose}`).digest();
}

export function sealSecret(plain: string, secret: string, purpose: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secret, purpose), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

export function openSecret(stored: string, secret: string, purpose: string): string {
  const [iv, tag, body] = stored.split('.').map((p) => Buffer.from(p, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', keyFor(secret, purpose), iv!);
  decipher.setAuthTag(tag!);
  return Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8');
}
