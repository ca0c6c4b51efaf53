import { AppError } from '../errors/app-error';
import type { SealedBox } from '../crypto/sealed-box';
import { randomBase62, sha256Hex } from '../crypto/secret-tokens';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { Page } from '../util/page';
import {
  countUserApiKeys,
  findApiKeyByHash,
  findUserApiKey,
  insertApiKey,
  listUserApiKeys,
  revokeApiKey,
  touchApiKey,
  type ApiKeyRow,
} from './queries/api-keys';
import { findActiveUserById } from './queries/users';

export const apiKeyPrefix = 'oxb_';
/** `oxb_` + 32 random bytes in base62 (43 characters). */
const apiKeyPattern = /^oxb_[0-9A-Za-z]{43}$/;
const shownPrefixLength = apiKeyPrefix.length + 8;

export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  /** Only at creation and on reveal. */
  key?: string;
}

export interface ApiKeyCaller {
  userId: string;
  apiKeyId: string;
}

/** API keys: shown once at creation, afterwards only through a password-confirmed reveal. */
export class ApiKeys {
  constructor(
    private readonly store: Store,
    private readonly sealedBox: SealedBox,
    private readonly clock: Clock,
  ) {}

  async create(userId: string, name: string, expiresAt: string | null): Promise<ApiKeyView> {
    const now = this.clock.now();
    if (expiresAt !== null && new Date(expiresAt) <= now) throw new AppError('BAD_REQUEST', 'expires_at must be in the future');
    const id = Bun.randomUUIDv7();
    const key = `${apiKeyPrefix}${randomBase62(32)}`;
    const row = {
      id,
      user_id: userId,
      name,
      prefix: key.slice(0, shownPrefixLength),
      key_hash: sha256Hex(key),
      key_ciphertext: this.sealedBox.seal(key, `api-key:${id}`),
      now: now.toISOString(),
      expires_at: expiresAt === null ? null : new Date(expiresAt).toISOString(),
    };
    await this.store.run(insertApiKey, row);
    return { id, name, prefix: row.prefix, created_at: row.now, expires_at: row.expires_at, last_used_at: null, key };
  }

  async list(userId: string, page: Page): Promise<{ keys: ApiKeyView[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.store.all(listUserApiKeys, { user_id: userId, ...page }),
      this.store.first(countUserApiKeys, { user_id: userId }),
    ]);
    return { keys: rows.map(view), total: count?.total ?? 0 };
  }

  /** The caller has re-entered their password before this is called. */
  async reveal(userId: string, keyId: string): Promise<ApiKeyView> {
    const row = await this.store.first(findUserApiKey, { id: keyId, user_id: userId });
    if (!row) throw new AppError('NOT_FOUND', 'API key not found');
    return { ...view(row), key: this.sealedBox.open(row.key_ciphertext, `api-key:${row.id}`) };
  }

  async revoke(userId: string, keyId: string): Promise<void> {
    const revoked = await this.store.run(revokeApiKey, { id: keyId, user_id: userId, now: this.clock.now().toISOString() });
    if (revoked === 0) throw new AppError('NOT_FOUND', 'API key not found');
  }

  /** Resolves a presented key to its owner, or throws MISSING/INVALID/EXPIRED_API_KEY. */
  async authenticate(presented: string | undefined): Promise<ApiKeyCaller> {
    if (!presented)
      throw new AppError('MISSING_API_KEY', 'No API key was supplied', { hint: 'Send it in the X-API-Key header or as Authorization: Bearer oxb_…' });
    if (!apiKeyPattern.test(presented)) throw new AppError('INVALID_API_KEY', 'The API key is not valid');
    const row = await this.store.first(findApiKeyByHash, { key_hash: sha256Hex(presented) });
    if (!row || row.revoked_at) throw new AppError('INVALID_API_KEY', 'The API key is not valid');
    const now = this.clock.now();
    if (row.expires_at && new Date(row.expires_at) <= now) {
      throw new AppError('EXPIRED_API_KEY', 'The API key has expired', { hint: 'Create a new key with POST /api/v1/auth/api-keys.' });
    }
    if (!(await this.store.first(findActiveUserById, { id: row.user_id }))) throw new AppError('INVALID_API_KEY', 'The API key is not valid');
    await this.store.run(touchApiKey, { id: row.id, now: now.toISOString(), stale_before: new Date(now.getTime() - 60_000).toISOString() });
    return { userId: row.user_id, apiKeyId: row.id };
  }
}

function view(row: ApiKeyRow): ApiKeyView {
  return { id: row.id, name: row.name, prefix: row.prefix, created_at: row.created_at, expires_at: row.expires_at, last_used_at: row.last_used_at };
}
