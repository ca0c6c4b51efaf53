import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../support/test-app';
import { decodedBody, startSmtpSink } from '../support/smtp-sink';
import { uniqueEmail } from '../support/accounts';
import { findActiveUserByEmail } from '../../src/auth/queries/users';
import { mailDeliveryWorkflowId } from '../../src/workflow-clients/mail-delivery';
import { listRecentOutboxMail } from '../../src/mail/outbox-queries';

describe('mail over SMTP', () => {
  let t: TestApp;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await startTestApp('local', { worker: true, env: { SMTP_URL: sink.url, MAIL_FROM: 'Oxbow <no-reply@oxbow.test>' } });
  });
  afterAll(async () => {
    await t.stop();
    await sink.stop();
  });

  test('a sign-up sends its verification link through a real SMTP server', async () => {
    const email = uniqueEmail('smtp');
    expect((await t.request('/api/v1/auth/signup', { method: 'POST', json: { email, password: 'long enough password' } })).status).toBe(201);
    const mail = await sink.waitFor(email);
    expect(mail.from).toBe('no-reply@oxbow.test');
    const body = decodedBody(mail.raw);
    expect(body).toContain(`${t.backend.config.http.frontendUrl}/verify-email?token=`);
    const token = decodeURIComponent(/token=([^\s&]+)/.exec(body)![1]!);
    expect((await t.request('/api/v1/auth/verify-email', { method: 'POST', json: { token } })).status).toBe(200);
  }, 60_000);

  test('a refusing SMTP server delays the mail but loses neither it nor the sign-up', async () => {
    sink.failNext(2);
    const email = uniqueEmail('retry');
    expect((await t.request('/api/v1/auth/signup', { method: 'POST', json: { email, password: 'long enough password' } })).status).toBe(201);
    expect(await t.infra.store.first(findActiveUserByEmail, { email })).toBeDefined();
    await sink.waitFor(email, 60_000);
    const findRow = async () => (await t.infra.store.all(listRecentOutboxMail, { limit: 50 })).find((candidate) => candidate.to_address === email)!;
    const delivery = t.infra.temporal.client.workflow.getHandle(mailDeliveryWorkflowId((await findRow()).id));
    await delivery.result();
    expect((await delivery.describe()).status.name).toBe('COMPLETED');
    const row = await findRow();
    expect(row.sent_at).not.toBeNull();
    expect(row.attempts).toBe(3);
  }, 90_000);
});
