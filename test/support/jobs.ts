import { expect } from 'bun:test';
import { bodyOf } from './http';
import type { TestUser } from './accounts';
import type { TestApp } from './test-app';

/** A query that keeps a query slot busy for a few seconds on this machine. */
export const slowSql = (millions: number) => `SELECT sum(hash(range)) AS h FROM range(${millions * 1_000_000})`;

export async function submitJob(t: TestApp, user: TestUser, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Response> {
  return t.request('/api/v1/query/jobs', { method: 'POST', json: body, token: user.accessToken, headers });
}

export async function submitJobOk(t: TestApp, user: TestUser, body: Record<string, unknown>): Promise<string> {
  const response = await submitJob(t, user, body);
  if (response.status !== 200) throw new Error(`submit failed: ${response.status} ${await response.text()}`);
  return (await bodyOf(response)).job_id;
}

export async function jobStatus(t: TestApp, user: TestUser, jobId: string, query = '') {
  const response = await t.request(`/api/v1/query/jobs/${jobId}${query}`, { token: user.accessToken });
  expect(response.status).toBe(200);
  return bodyOf(response);
}

/** Polls until the job reaches one of the states (or the time runs out). */
export async function waitForJob(t: TestApp, user: TestUser, jobId: string, states: string[] = ['succeeded', 'failed', 'cancelled'], timeoutMs = 60_000, query = '') {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await jobStatus(t, user, jobId, query);
    if (states.includes(status.status)) return status;
    if (Date.now() > deadline) throw new Error(`job ${jobId} stayed ${status.status}`);
    await Bun.sleep(100);
  }
}
