import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../support/test-app';
import type { TestUser } from '../support/accounts';
import { createWorkspace } from '../support/workspaces';
import { slowSql, submitJobOk, waitForJob } from '../support/jobs';
import { eventually } from '../support/eventually';
import { withUser, withWorkspace } from '../support/fixtures';

const token = 'metrics-token-for-tests-0123456789';

/** The samples of a Prometheus text answer, by metric name and labels (`name{a="1",b="2"}`). */
function parse(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)$/.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    samples.set(`${match[1]}${match[2] ?? ''}`, Number(match[3]));
  }
  return samples;
}

const sample = (samples: Map<string, number>, name: string, labels: Record<string, string>) => {
  const wanted = Object.entries(labels);
  let total = 0;
  for (const [key, value] of samples) {
    if (!key.startsWith(`${name}{`) && key !== name) continue;
    if (wanted.every(([label, expected]) => key.includes(`${label}="${expected}"`))) total += value;
  }
  return total;
};

describe('GET /metrics', () => {
  let t: TestApp, user: TestUser, workspaceId: string;

  beforeAll(async () => ({ t, user, workspaceId } = await withWorkspace('local', { worker: true, env: { METRICS_TOKEN: token }, label: 'metrics' })));
  afterAll(() => t.stop());

  const scrape = async () => {
    const response = await t.request('/metrics', { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    return parse(await response.text());
  };

  test('needs its bearer token', async () => {
    expect((await t.request('/metrics')).status).toBe(401);
    expect((await t.request('/metrics', { headers: { authorization: 'Bearer wrong-token-of-the-same-size-00000' } })).status).toBe(401);
  });

  test('the counters move after a query, a refused query and a job', async () => {
    const before = await scrape();
    const run = (sql: string) => t.request(`/api/v1/workspaces/${workspaceId}/query`, { method: 'POST', json: { sql }, token: user.accessToken });
    expect((await run('SELECT 42')).status).toBe(200);
    expect((await run('SELECT nope FROM range(1)')).status).toBe(400);
    const jobId = await submitJobOk(t, user, { sql: 'SELECT range FROM range(10)', workspace_id: workspaceId });
    expect((await waitForJob(t, user, jobId)).status).toBe('succeeded');
    // The Free plan's queries of the minute run out; the first one past them is refused.
    let succeeded = 1;
    while ((await run('SELECT 1')).status === 200) succeeded++;

    const moved = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
    const refusalRoute = { route: '/api/v1/workspaces/:workspace_id/query', status: '429' };
    const after = await eventually(
      scrape,
      (samples) =>
        sample(samples, 'oxbow_http_request_duration_seconds_count', refusalRoute) > sample(before, 'oxbow_http_request_duration_seconds_count', refusalRoute),
    );
    expect(moved('oxbow_queries_total', { kind: 'query', outcome: 'succeeded' })).toBe(succeeded);
    expect(moved('oxbow_queries_total', { kind: 'query', outcome: 'UNDEFINED_COLUMN' })).toBe(1);
    expect(moved('oxbow_queries_total', { kind: 'job', outcome: 'succeeded' })).toBe(1);
    expect(moved('oxbow_durable_runs_total', { kind: 'query_job', status: 'succeeded' })).toBe(1);
    expect(moved('oxbow_refusals_total', { code: 'RATE_LIMITED' })).toBe(1);
    expect(moved('oxbow_http_requests_total', { route: '/api/v1/workspaces/:workspace_id/query', method: 'POST', status: '200' })).toBe(succeeded);
    expect(moved('oxbow_http_request_duration_seconds_count', refusalRoute)).toBe(1);
    expect(sample(after, 'oxbow_engine_instances', { lane: 'interactive' })).toBeGreaterThanOrEqual(1);
    expect(after.has('oxbow_engine_statements{state="running"}')).toBe(true);
  }, 60_000);

  test('the process, its runtime and its build are described: CPU, memory, event-loop lag, heap, version', async () => {
    const samples = await scrape();
    expect(sample(samples, 'process_cpu_seconds_total', {})).toBeGreaterThan(0);
    expect(sample(samples, 'process_resident_memory_bytes', {})).toBeGreaterThan(10_000_000);
    expect(sample(samples, 'process_open_fds', {})).toBeGreaterThan(0);
    expect(samples.has('nodejs_eventloop_lag_p99_seconds')).toBe(true);
    expect(sample(samples, 'nodejs_heap_size_used_bytes', {})).toBeGreaterThan(0);
    expect(sample(samples, 'oxbow_build_info', { version: '1.0.0', runtime: `bun ${Bun.version}` })).toBe(1);
    expect([...samples.keys()].find((key) => key.startsWith('oxbow_build_info'))).toMatch(/duckdb="v\d+\.\d+\.\d+"/);
  });

  test('Temporal’s view of the task queues: workers polling each, backlogs; DuckDB memory by lane', async () => {
    const run = await t.request(`/api/v1/workspaces/${workspaceId}/query`, {
      method: 'POST',
      json: { sql: 'SELECT count(*) FROM range(100000)' },
      token: user.accessToken,
    });
    expect([200, 429]).toContain(run.status);
    const samples = await eventually(scrape, (found) => sample(found, 'oxbow_task_queue_pollers', { queue: 'query_jobs', type: 'activity' }) >= 1, 20_000);
    expect(sample(samples, 'oxbow_task_queue_stats_up', {})).toBe(1);
    for (const queue of ['main', 'query_jobs', 'syncs']) expect(samples.has(`oxbow_task_queue_backlog{queue="${queue}",type="activity"}`)).toBe(true);
    expect(sample(samples, 'oxbow_task_queue_pollers', { queue: 'main', type: 'workflow' })).toBeGreaterThanOrEqual(1);
    expect(sample(samples, 'oxbow_engine_memory_bytes', { lane: 'interactive' })).toBeGreaterThan(0);
  }, 60_000);

  test('a running job that is cancelled counts as a cancelled query', async () => {
    const other = (await createWorkspace(t, user, 'cancelled')).id;
    const before = await scrape();
    const jobId = await submitJobOk(t, user, { sql: slowSql(20_000), workspace_id: other });
    await waitForJob(t, user, jobId, ['running']);
    // The workflow's own cancellation (what a cancel of a running job asks of Temporal): the query is interrupted.
    const workflow = t.infra.temporal.client.workflow.getHandle(jobId);
    await workflow.cancel();
    // The workflow closes as cancelled, as Temporal shows it.
    const closed = await workflow.result().then(
      () => 'completed',
      (error: Error) => error.message,
    );
    expect(closed).toBe('Workflow execution cancelled');
    const after = await eventually(
      scrape,
      (samples) =>
        sample(samples, 'oxbow_queries_total', { kind: 'job', outcome: 'cancelled' }) >
        sample(before, 'oxbow_queries_total', { kind: 'job', outcome: 'cancelled' }),
      30_000,
    );
    expect(
      sample(after, 'oxbow_queries_total', { kind: 'job', outcome: 'cancelled' }) -
        sample(before, 'oxbow_queries_total', { kind: 'job', outcome: 'cancelled' }),
    ).toBe(1);
  }, 90_000);
});

describe('queue depth without workers', () => {
  let t: TestApp, user: TestUser;
  beforeAll(async () => ({ t, user } = await withUser('local', { env: { METRICS_TOKEN: token }, label: 'backlog' })));
  afterAll(() => t.stop());

  test('jobs nobody runs show as a backlog on the main queue, with no poller to take it', async () => {
    const workspaceId = (await createWorkspace(t, user)).id;
    for (let i = 0; i < 3; i++) await submitJobOk(t, user, { sql: 'SELECT 1', workspace_id: workspaceId });
    const scrape = async () => parse(await (await t.request('/metrics', { headers: { authorization: `Bearer ${token}` } })).text());
    const samples = await eventually(scrape, (found) => sample(found, 'oxbow_task_queue_backlog', { queue: 'main', type: 'workflow' }) >= 3, 30_000);
    expect(sample(samples, 'oxbow_task_queue_pollers', { queue: 'main', type: 'workflow' })).toBe(0);
    expect(sample(samples, 'oxbow_task_queue_backlog_age_seconds', { queue: 'main', type: 'workflow' })).toBeGreaterThan(0);
  }, 60_000);
});
