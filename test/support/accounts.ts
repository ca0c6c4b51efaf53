import { expect } from 'bun:test';
import { SealedBox } from '../../src/crypto/sealed-box';
import { listRecentOutboxMail } from '../../src/mail/outbox-queries';
import { bodyOf } from './http';
import type { TestApp } from './test-app';

export interface TestUser {
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
  userId: string;
}

let counter = 0;
export const uniqueEmail = (label = 'user') => `${label}-${Date.now().toString(36)}-${++counter}@example.test`;

/** The newest outbox message to an address, decrypted the way the delivery activity reads it. */
export async function latestMailTo(testApp: TestApp, to: string): Promise<{ subject: string; text: string; id: string } | undefined> {
  const box = new SealedBox(testApp.backend.config.secrets.encryptionKey);
  const rows = await testApp.infra.store.all(listRecentOutboxMail, { limit: 200 });
  const row = rows.find((candidate) => candidate.to_address === to);
  return row && { id: row.id, subject: row.subject, text: box.open(row.body_ciphertext, `mail:${row.id}`) };
}

/** The token of the link in the newest mail to an address. */
export async function tokenFromMail(testApp: TestApp, to: string): Promise<string> {
  const mail = await latestMailTo(testApp, to);
  const match = /token=([^\s&]+)/.exec(mail?.text ?? '');
  if (!match) throw new Error(`no link in the mail to ${to}: ${mail?.text}`);
  return decodeURIComponent(match[1]!);
}

/** Signs up through the API, follows the verification link from the outbox, and logs in. */
export async function createVerifiedUser(testApp: TestApp, label = 'user', password = 'correct horse battery'): Promise<TestUser> {
  const email = uniqueEmail(label);
  expect((await testApp.request('/api/v1/auth/signup', { method: 'POST', json: { email, password } })).status).toBe(201);
  const token = await tokenFromMail(testApp, email);
  expect((await testApp.request('/api/v1/auth/verify-email', { method: 'POST', json: { token } })).status).toBe(200);
  const login = await testApp.request('/api/v1/auth/login', { method: 'POST', json: { email, password } });
  expect(login.status).toBe(200);
  const pair = await bodyOf(login);
  const me = await bodyOf(await testApp.request('/api/v1/auth/me', { token: pair.access_token }));
  return { email, password, accessToken: pair.access_token, refreshToken: pair.refresh_token, userId: me.id };
}

/** Several verified users at once, one per label, in the order of the labels. */
export async function createVerifiedUsers<Labels extends string[]>(testApp: TestApp, ...labels: Labels): Promise<{ [K in keyof Labels]: TestUser }> {
  return (await Promise.all(labels.map((label) => createVerifiedUser(testApp, label)))) as { [K in keyof Labels]: TestUser };
}

/** A new API key of the user's (the secret, shown once). */
export async function createApiKey(testApp: TestApp, user: TestUser, name = 'test'): Promise<string> {
  const response = await testApp.request('/api/v1/auth/api-keys', { method: 'POST', json: { name }, token: user.accessToken });
  expect(response.status).toBe(201);
  return (await bodyOf(response)).key;
}
