import { statusOf, type ErrorCode } from '../../src/errors/catalogue';
import { namedQuery } from '../../src/store/named-query';
import { createVerifiedUser, type TestUser } from './accounts';
import { bodyOf } from './http';
import { submitJob, waitForJob } from './jobs';
import type { TestApp } from './test-app';
import { createWorkspace } from './workspaces';

/** Every way user SQL reaches the engine over HTTP. */
export type Endpoint = 'execute' | 'query' | 'workspace query' | 'job';
export const endpoints: readonly Endpoint[] = ['execute', 'query', 'workspace query', 'job'];

export interface SqlCaller {
  user: TestUser;
  apiKey: string;
  workspaceId: string;
}

export interface Answer {
  status: number;
  /** The error's code, for a refusal. */
  code?: string;
  /** Everything the caller got back, to search for what must never be in it. */
  text: string;
}

const usePlan = namedQuery<{ id: string; plan: string }>('test.sandbox_use_plan', 'UPDATE workspaces SET plan_id = :plan WHERE id = :id');

/**
 * A verified user with an API key and a workspace of their own. On `business` the workspace takes
 * 100 queries a minute, and `send` moves the test clock on with every request, so that suites of
 * many attempts never meet the rate limit they do not test.
 */
export async function sqlCaller(t: TestApp, label: string, plan = 'business'): Promise<SqlCaller> {
  const user = await createVerifiedUser(t, label);
  const workspaceId = (await createWorkspace(t, user, label)).id;
  await t.infra.store.run(usePlan, { id: workspaceId, plan });
  const apiKey = (await bodyOf(await t.request('/api/v1/auth/api-keys', { method: 'POST', json: { name: label }, token: user.accessToken }))).key;
  return { user, apiKey, workspaceId };
}

/** Sends `sql` through one endpoint; a job is waited for, and its failure answers like the synchronous endpoints' errors. */
export async function send(t: TestApp, endpoint: Endpoint, caller: SqlCaller, sql: string, extra: Record<string, unknown> = {}): Promise<Answer> {
  t.clock.advance(700);
  const { user, apiKey, workspaceId } = caller;
  const post = (path: string, json: unknown, headers: Record<string, string> = {}, token?: string) => t.request(path, { method: 'POST', json, headers, token });
  let response: Response;
  switch (endpoint) {
    case 'execute':
      response = await post('/api/v1/execute', { sql, workspace_id: workspaceId, ...extra }, { 'x-api-key': apiKey });
      break;
    case 'query':
      response = await post('/api/v1/query', { sql, workspace_id: workspaceId, ...extra }, {}, user.accessToken);
      break;
    case 'workspace query':
      response = await post(`/api/v1/workspaces/${workspaceId}/query`, { sql, ...extra }, {}, user.accessToken);
      break;
    case 'job':
      return sendJob(t, caller, sql);
    default:
      return endpoint satisfies never;
  }
  return answerOf(response);
}

async function sendJob(t: TestApp, caller: SqlCaller, sql: string): Promise<Answer> {
  const submitted = await submitJob(t, caller.user, { sql, workspace_id: caller.workspaceId });
  if (submitted.status !== 200) return answerOf(submitted);
  const { job_id: jobId } = await bodyOf(submitted);
  const finished = await waitForJob(t, caller.user, jobId);
  const text = JSON.stringify(finished);
  if (finished.status !== 'failed') return { status: 200, text };
  const code = String(finished.error?.code);
  return { status: statusOf(code as ErrorCode) ?? 500, code, text };
}

async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  if (response.status < 400) return { status: response.status, text };
  let code: string | undefined;
  try {
    code = JSON.parse(text).detail?.error?.code;
  } catch {
    code = undefined;
  }
  return { status: response.status, code, text };
}

/** What of the server an answer must never show: its folders, the lake's location, file names, the names CTEs run under. */
export function serverMarkers(t: TestApp): string[] {
  const { config } = t.backend;
  const lake = config.lake.kind === 'local' ? config.lake.root : `${config.lake.bucket}/${config.lake.prefix}`;
  return [config.dataDir, lake, config.duckdb.profileDir, config.duckdb.tempDir, '.parquet', 'read_parquet', '__cte_', 's3://', 'file://'];
}

/** The markers an answer holds (none, for a sound sandbox). */
export function leaksOf(t: TestApp, answer: Answer): string[] {
  return serverMarkers(t).filter((marker) => answer.text.includes(marker));
}
