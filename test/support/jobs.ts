import { expect } from 'bun:test';
import { bodyOf } from './http';
import type { TestUser } from './accounts';
import type { TestApp } from './test-app';
import { namedQuery } from '../../src/store/named-query';

const insertJobsPlan = namedQuery<{ id: string; max_running_jobs: number }>(
  'test.jobs_plan',
  `INSERT INTO plans (id, name, monthly_price_eur, queries_per_minute, included_queries, storage_limit_gb, connector_limit, max_scan_bytes, price_per_tb_scanned_eur, time_travel_days, sort_order, max_running_jobs, query_history_days)
   VALUES (:id, :id, 0, 100000, 1000000, 100, NULL, 1099511627776, 5.00, 7, 90, :max_running_jobs, 90) ON CONFLICT (id) DO NOTHING`,
);
const usePlan = namedQuery<{ workspace_id: string; plan_id: string }>(
  'test.use_jobs_plan',
  'UPDATE workspaces SET plan_id = :plan_id WHERE id = :workspace_id',
);

/**
 * Moves a workspace onto a plan with the given share of the job capacity (its `max_running_jobs`)
 * and a per-minute limit no test reaches; everything else is Business-like (90 days of query history).
 */
export async function useJobsPlan(t: TestApp, workspaceId: string, maxRunningJobs: number): Promise<void> {
  const id = `jobs-${maxRunningJobs}`;
  await t.infra.store.run(insertJobsPlan, { id, max_running_jobs: maxRunningJobs });
  await t.infra.store.run(usePlan, { workspace_id: workspaceId, plan_id: id });
}

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
export async function waitForJob(
  t: TestApp,
  user: TestUser,
  jobId: string,
  states: string[] = ['succeeded', 'failed', 'cancelled'],
  timeoutMs = 60_000,
  query = '',
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await jobStatus(t, user, jobId, query);
    if (states.includes(status.status)) return status;
    if (Date.now() > deadline) throw new Error(`job ${jobId} stayed ${status.status}`);
    await Bun.sleep(100);
  }
}
