import { createHash, randomBytes } from 'node:crypto';

const base62Alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `bytes` random bytes written in base62 (URL- and copy-paste-safe, no padding). */
export function randomBase62(bytes: number): string {
  let value = BigInt(`0x${randomBytes(bytes).toString('hex')}`);
  const length = Math.ceil((bytes * 8) / Math.log2(62));
  let out = '';
  for (let i = 0; i < length; i++) {
    out = base62Alphabet[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out;
}

/** An opaque bearer secret (refresh tokens, e-mail links, session codes): 32 random bytes. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Secrets are stored as their SHA-256 only; lookups go by this digest. */
export function sha256Hex(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
