import { describe, expect, test } from 'bun:test';
import { AccessTokens, accessTokenTtlSeconds } from '../../src/auth/access-tokens';
import { AppError } from '../../src/errors/app-error';
import { TestClock } from '../support/test-clock';

const secret = 'a test secret of at least thirty-two characters';

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Signs with Web Crypto, apart from the code under test: tokens any HS256 implementation issued are read alike. */
async function signElsewhere(header: unknown, claims: unknown, key = secret): Promise<string> {
  const signingInput = `${part(header)}.${part(claims)}`;
  const hmac = await crypto.subtle.importKey('raw', new TextEncoder().encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const signature = Buffer.from(await crypto.subtle.sign('HMAC', hmac, new TextEncoder().encode(signingInput))).toString('base64url');
  return `${signingInput}.${signature}`;
}

function claims(overrides: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000);
  return { sub: 'user-1', sev: 3, typ: 'access', iss: 'oxbow', aud: 'oxbow-api', iat: now, exp: now + 60, ...overrides };
}

function codeOf(work: () => unknown): string | undefined {
  try {
    work();
    return undefined;
  } catch (error) {
    return error instanceof AppError ? error.code : `not an AppError: ${String(error)}`;
  }
}

describe('access tokens', () => {
  test('a token it issued reads back as its user and session epoch', () => {
    const tokens = new AccessTokens(secret, new TestClock());
    expect(tokens.verify(tokens.issue('user-7', 12))).toEqual({ userId: 'user-7', epoch: 12 });
  });

  test('a token signed by another HS256 implementation with the same key is read alike', async () => {
    const tokens = new AccessTokens(secret, new TestClock());
    expect(tokens.verify(await signElsewhere({ alg: 'HS256', typ: 'JWT' }, claims()))).toEqual({ userId: 'user-1', epoch: 3 });
    expect(tokens.verify(await signElsewhere({ alg: 'HS256' }, claims({ aud: ['other', 'oxbow-api'] })))).toEqual({ userId: 'user-1', epoch: 3 });
  });

  test('a token expires after its lifetime, and only a token with a valid signature is told it expired', async () => {
    const clock = new TestClock();
    const tokens = new AccessTokens(secret, clock);
    const token = tokens.issue('user-7', 1);
    clock.advance((accessTokenTtlSeconds - 2) * 1000);
    expect(codeOf(() => tokens.verify(token))).toBeUndefined();
    clock.advance(3_000);
    expect(codeOf(() => tokens.verify(token))).toBe('TOKEN_EXPIRED');
    const expiredElsewhere = await signElsewhere(
      { alg: 'HS256' },
      claims({ exp: Math.floor(Date.now() / 1000) - 1 }),
      'another key of at least thirty-two characters',
    );
    expect(codeOf(() => tokens.verify(expiredElsewhere))).toBe('INVALID_TOKEN');
  });

  test.each([
    ['signed with another key', () => signElsewhere({ alg: 'HS256' }, claims(), 'another key of at least thirty-two characters')],
    ['with alg none and no signature', async () => `${part({ alg: 'none' })}.${part(claims())}.`],
    ['naming another algorithm, signed with the key', () => signElsewhere({ alg: 'HS512' }, claims())],
    ['with a critical extension', () => signElsewhere({ alg: 'HS256', crit: ['exp'] }, claims())],
    ['of another kind (a refresh token)', () => signElsewhere({ alg: 'HS256' }, claims({ typ: 'refresh' }))],
    ['for another audience', () => signElsewhere({ alg: 'HS256' }, claims({ aud: 'other-api' }))],
    ['from another issuer', () => signElsewhere({ alg: 'HS256' }, claims({ iss: 'someone-else' }))],
    ['without a subject', () => signElsewhere({ alg: 'HS256' }, claims({ sub: undefined }))],
    ['with a session epoch that is not a number', () => signElsewhere({ alg: 'HS256' }, claims({ sev: '3' }))],
    ['without an expiry', () => signElsewhere({ alg: 'HS256' }, claims({ exp: undefined }))],
    ['not valid before a future time', () => signElsewhere({ alg: 'HS256' }, claims({ nbf: Math.floor(Date.now() / 1000) + 600 }))],
    ['whose claims are not an object', () => signElsewhere({ alg: 'HS256' }, ['user-1'])],
  ])('a token %s is INVALID_TOKEN', async (_, make) => {
    const tokens = new AccessTokens(secret, new TestClock());
    const token = await make();
    expect(codeOf(() => tokens.verify(token))).toBe('INVALID_TOKEN');
  });

  test('a changed claim, a second spelling of the signature or a malformed token is INVALID_TOKEN', () => {
    const tokens = new AccessTokens(secret, new TestClock());
    const [header, payload, signature] = tokens.issue('user-7', 1).split('.') as [string, string, string];
    const otherUser = part({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: 'user-8' });
    for (const token of [
      `${header}.${otherUser}.${signature}`,
      `${header}.${payload}.${signature}=`,
      `${header}.${payload}.${Buffer.from(signature, 'base64url').toString('base64')}`,
      `${header}.${payload}`,
      `${header}.${payload}.${signature}.${signature}`,
      `${header}.${payload}.`,
      'not.a.jwt',
      '',
    ]) {
      expect(codeOf(() => tokens.verify(token))).toBe('INVALID_TOKEN');
    }
  });
});
