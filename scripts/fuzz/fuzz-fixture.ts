import { join } from 'node:path';
import { projectRoot } from '../setup/toolchain';
import { loadConfig } from '../../src/config';
import { namedQuery } from '../../src/store/named-query';
import { openStore } from '../../src/store/open-store';
import type { FuzzTarget } from './fuzz-target';

/** What the fuzzer runs as: a verified user, a workspace with data, an API key, and a workspace to delete. */
export interface FuzzFixture {
  accessToken: string;
  apiKey: string;
  workspaceId: string;
  spareWorkspaceId: string;
  /** A finished query job over the data, so that its status and result pages are read too. */
  jobId: string;
}

const raisePlan = namedQuery<{ id: string }>('fuzz.raise_plan', "UPDATE workspaces SET plan_id = 'business' WHERE id = :id");

/**
 * Sets the fixture up through the interface itself: sign-up, the verification link from the service's
 * outbox, login, two workspaces, an API key, and a table of varied values to query.
 */
export async function prepareFixture(target: FuzzTarget): Promise<FuzzFixture> {
  const api = client(target.baseUrl);
  const stamp = Date.now().toString(36);
  const email = `fuzz-${stamp}@example.test`;
  const password = `fuzz-${crypto.randomUUID()}`;
  await api('POST', '/auth/signup', { email, password }, 201);
  await api('POST', '/auth/verify-email', { token: await verificationToken(target, email) }, 200);
  const { access_token: accessToken } = await api('POST', '/auth/login', { email, password }, 200);
  const as = client(target.baseUrl, accessToken);
  const workspace = await as('POST', '/workspaces', { name: 'Fuzz', slug: `fuzz-${stamp}` }, 201);
  const spare = await as('POST', '/workspaces', { name: 'Fuzz, to delete', slug: `fuzz-spare-${stamp}` }, 201);
  const { key: apiKey } = await as('POST', '/auth/api-keys', { name: 'fuzz' }, 201);
  await as('POST', `/workspaces/${workspace.id}/push`, { table: 'fuzz.events', primary_key: ['id'], records: sampleRecords() }, 200);
  // The business plan's 100 queries a minute let queries run rather than meet the rate limit; only
  // for a service this run owns, whose metadata store is its own.
  if (target.owned) await raiseToBusinessPlan(target, workspace.id);
  const { job_id: jobId } = await as('POST', '/query/jobs', { sql: 'SELECT * FROM fuzz.events ORDER BY id', workspace_id: workspace.id }, 200);
  await waitForJob(as, jobId);
  return { accessToken, apiKey, workspaceId: workspace.id, spareWorkspaceId: spare.id, jobId };
}

async function waitForJob(as: Call, jobId: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while ((await as('GET', `/query/jobs/${jobId}`, undefined, 200)).status !== 'succeeded') {
    if (Date.now() > deadline) throw new Error(`fixture: query job ${jobId} did not succeed within a minute`);
    await Bun.sleep(250);
  }
}

function sampleRecords(): Record<string, unknown>[] {
  return Array.from({ length: 50 }, (_, id) => ({
    id,
    name: `event ${id}`,
    amount: id * 1.25,
    at: new Date(Date.UTC(2026, 0, 1 + id)).toISOString(),
    day: new Date(Date.UTC(2026, 0, 1 + id)).toISOString().slice(0, 10),
    ok: id % 2 === 0,
    tags: id % 3 ? ['a', 'b'] : null,
    detail: { nested: { id, list: [1, 2, 3] } },
  }));
}

type Call = (method: string, path: string, body: unknown, expected: number) => Promise<any>; // any: the fixture reads a few fields of answers whose shape it knows

function client(baseUrl: string, token?: string): Call {
  return async (method, path, body, expected) => {
    const response = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== expected) throw new Error(`fixture: ${method} ${path} answered ${response.status}, expected ${expected}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
}

/** The token of the newest verification link to an address, read with the service's own `mail-outbox` command. */
async function verificationToken(target: FuzzTarget, email: string): Promise<string> {
  const run = Bun.spawnSync([process.execPath, join(projectRoot, 'src', 'main.ts'), 'mail-outbox'], {
    cwd: projectRoot,
    env: { ...target.env, LOG_LEVEL: 'error' },
  });
  const messages = run.stdout.toString().split(/^--- /m);
  const message = messages.reverse().find((text) => text.includes(`to ${email}`));
  const token = /token=([^\s&]+)/.exec(message ?? '')?.[1];
  if (!token)
    throw new Error(`fixture: no verification link to ${email} in the outbox (is the service's DATA_DIR given with --data-dir?)\n${run.stderr.toString()}`);
  return decodeURIComponent(token);
}

async function raiseToBusinessPlan(target: FuzzTarget, workspaceId: string): Promise<void> {
  const store = openStore(loadConfig(target.env).metadata);
  try {
    await store.run(raisePlan, { id: workspaceId });
  } finally {
    await store.close();
  }
}
