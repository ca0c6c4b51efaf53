import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { EnvReader } from './env-reader';

export interface Secrets {
  /** HMAC key for access tokens (HS256). */
  jwtSecret: string;
  /** 32-byte AES-256-GCM key for API keys, session codes and provider tokens at rest. */
  encryptionKey: Buffer;
}

const minimumJwtSecretLength = 32;

/**
 * Secrets come from the environment; outside production a missing one is generated once into
 * DATA_DIR (mode 0600) so that restarts keep sessions and encrypted data readable.
 */
export function readSecrets(env: EnvReader, dataDir: string, production: boolean): Secrets {
  const jwtSecret = env.optionalString('JWT_SECRET') ?? fromDataDir(env, 'JWT_SECRET', dataDir, production, () => randomBytes(48).toString('base64url'));
  if (jwtSecret.length < minimumJwtSecretLength) env.reject('JWT_SECRET', `must be at least ${minimumJwtSecretLength} characters long`, undefined);

  const keyText = env.optionalString('ENCRYPTION_KEY') ?? fromDataDir(env, 'ENCRYPTION_KEY', dataDir, production, () => randomBytes(32).toString('base64'));
  const encryptionKey = decodeKey(keyText);
  if (!encryptionKey) env.reject('ENCRYPTION_KEY', 'must be 32 bytes, written as 64 hex digits or base64', undefined);

  return { jwtSecret, encryptionKey: encryptionKey ?? Buffer.alloc(32) };
}

function fromDataDir(env: EnvReader, name: string, dataDir: string, production: boolean, generate: () => string): string {
  if (production) return env.reject(name, 'is required when NODE_ENV=production', '');
  const dir = join(dataDir, 'secrets');
  const path = join(dir, name.toLowerCase());
  if (!existsSync(path)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      writeFileSync(path, `${generate()}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process generated it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return readFileSync(path, 'utf8').trim();
}

function decodeKey(text: string): Buffer | undefined {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  return key.length === 32 ? key : undefined;
}
