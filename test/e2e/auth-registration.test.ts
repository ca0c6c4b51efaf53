import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import { createVerifiedUser, latestMailTo, tokenFromMail, uniqueEmail } from '../support/accounts';

describe('registration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('local');
  });
  afterAll(() => t.stop());

  const post = (path: string, json: unknown) => t.request(`/api/v1/auth/${path}`, { method: 'POST', json });

  test('registration status reports the sign-up mode', async () => {
    expect(await bodyOf(await t.request('/api/v1/auth/registration-status'))).toEqual({ mode: 'open', signup_open: true, waitlist_open: false });
  });

  test('sign-up answers the same for a new and an existing address, and mails each owner what fits', async () => {
    const existing = await createVerifiedUser(t, 'existing');
    const fresh = uniqueEmail('fresh');
    const forNew = await post('signup', { email: fresh, password: 'long enough password' });
    const forExisting = await post('signup', { email: existing.email.toUpperCase(), password: 'another password here' });
    expect(forNew.status).toBe(201);
    expect(forExisting.status).toBe(201);
    expect(await bodyOf(forExisting)).toEqual(await bodyOf(forNew));
    expect((await latestMailTo(t, fresh))?.text).toContain(`${t.backend.config.http.frontendUrl}/verify-email?token=`);
    expect((await latestMailTo(t, existing.email))?.subject).toBe('Someone tried to sign up to Oxbow with your address');
  });

  test('sign-up takes about as long for an existing address as for a new one (the password is hashed on both paths)', async () => {
    const existing = await createVerifiedUser(t, 'timing');
    const timed = async (email: string) => {
      const startedAt = performance.now();
      await post('signup', { email, password: 'long enough password' });
      return performance.now() - startedAt;
    };
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await timed(existing.email));
      unknown.push(await timed(uniqueEmail('timing-new')));
    }
    const ratio = median(known) / median(unknown);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });

  test.each([
    [
      'no body fields',
      {},
      [
        ['body', 'email'],
        ['body', 'password'],
      ],
    ],
    ['a malformed address', { email: 'not-an-address', password: 'long enough password' }, [['body', 'email']]],
    ['a short password', { email: 'a@example.test', password: 'short' }, [['body', 'password']]],
    ['a password that is not a string', { email: 'a@example.test', password: 12345678 }, [['body', 'password']]],
  ])('422 for a sign-up with %s', async (_, body, locs) => {
    const response = await post('signup', body);
    expect(response.status).toBe(422);
    expect((await bodyOf(response)).detail.map((issue: { loc: unknown }) => issue.loc)).toEqual(locs);
  });

  test('an unverified account cannot log in', async () => {
    const email = uniqueEmail('unverified');
    await post('signup', { email, password: 'long enough password' });
    const response = await post('login', { email, password: 'long enough password' });
    expect(response.status).toBe(403);
    expect((await bodyOf(response)).detail.error.code).toBe('EMAIL_NOT_VERIFIED');
  });

  test('a verification link works once', async () => {
    const email = uniqueEmail('verify');
    await post('signup', { email, password: 'long enough password' });
    const token = await tokenFromMail(t, email);
    expect((await post('verify-email', { token })).status).toBe(200);
    const again = await post('verify-email', { token });
    expect(again.status).toBe(400);
    expect((await bodyOf(again)).detail.error.code).toBe('BAD_REQUEST');
    expect((await post('login', { email, password: 'long enough password' })).status).toBe(200);
  });

  test('a verification link expires after 24 hours', async () => {
    const email = uniqueEmail('late');
    await post('signup', { email, password: 'long enough password' });
    const token = await tokenFromMail(t, email);
    t.clock.advance(24 * 3_600_000 + 1_000);
    expect((await post('verify-email', { token })).status).toBe(400);
  });

  test('422 for verify-email without a token', async () => {
    expect((await post('verify-email', {})).status).toBe(422);
  });

  test('resend-verification answers 200 for anyone and mails a fresh link to unverified accounts only', async () => {
    const email = uniqueEmail('resend');
    await post('signup', { email, password: 'long enough password' });
    const first = await tokenFromMail(t, email);
    const resent = await post('resend-verification', { email });
    const unknown = await post('resend-verification', { email: uniqueEmail('nobody') });
    expect(resent.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(await bodyOf(resent)).toEqual(await bodyOf(unknown));
    const second = await tokenFromMail(t, email);
    expect(second).not.toBe(first);
    expect((await post('verify-email', { token: first })).status).toBe(400);
    expect((await post('verify-email', { token: second })).status).toBe(200);
    expect((await post('resend-verification', { email: 'not-an-email' })).status).toBe(422);
  });

  test('the waitlist answers 201 every time, also for an address already listed', async () => {
    const email = uniqueEmail('waiting');
    const first = await post('waitlist', { email });
    const second = await post('waitlist', { email });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(await bodyOf(second)).toEqual(await bodyOf(first));
    expect((await post('waitlist', { email: 'nope' })).status).toBe(422);
  });
});

describe('registration when sign-up is not open', () => {
  for (const mode of ['waitlist', 'closed'] as const) {
    test(`${mode}: the status says so and sign-up is refused with 403 SIGNUP_CLOSED`, async () => {
      const t = await startTestApp('local', { env: { SIGNUP_MODE: mode } });
      try {
        expect(await bodyOf(await t.request('/api/v1/auth/registration-status'))).toEqual({ mode, signup_open: false, waitlist_open: mode === 'waitlist' });
        const response = await t.request('/api/v1/auth/signup', { method: 'POST', json: { email: uniqueEmail(), password: 'long enough password' } });
        expect(response.status).toBe(403);
        expect((await bodyOf(response)).detail.error.code).toBe('SIGNUP_CLOSED');
      } finally {
        await t.stop();
      }
    });
  }
});
