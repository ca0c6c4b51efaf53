import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const version = 'v1';

/**
 * AES-256-GCM for secrets the service must read back later (API keys for reveal, session-code token
 * pairs, provider tokens). The context string is bound as associated data, so a ciphertext copied to
 * another row or purpose does not decrypt.
 */
export class SealedBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SealedBox needs a 32-byte key');
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [version, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  open(sealed: string, context: string): string {
    const [tag, iv, authTag, ciphertext] = sealed.split('.');
    if (tag !== version || !iv || !authTag || ciphertext === undefined) throw new Error('not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(authTag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}
