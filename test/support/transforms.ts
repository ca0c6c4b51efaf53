import { expect } from 'bun:test';
import { bodyOf } from './http';
import type { TestUser } from './accounts';
import type { TestApp } from './test-app';
import { findDagRun } from '../../src/transforms/transform-queries';

export const transformsPath = (workspaceId: string) => `/api/v1/workspaces/${workspaceId}/transforms`;

export async function createTransformOk(t: TestApp, workspaceId: string, user: TestUser, body: Record<string, unknown>): Promise<any> {
  const response = await t.request(transformsPath(workspaceId), { method: 'POST', json: body, token: user.accessToken });
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${await response.text()}`);
  return bodyOf(response);
}

export async function runAll(t: TestApp, workspaceId: string, user: TestUser, body?: unknown): Promise<any> {
  const response = await t.request(`${transformsPath(workspaceId)}/run`, {
    method: 'POST',
    ...(body === undefined ? {} : { json: body }),
    token: user.accessToken,
  });
  if (response.status !== 200) throw new Error(`run failed: ${response.status} ${await response.text()}`);
  return bodyOf(response);
}

/** Waits until the DAG run's record says it ended; returns its status. */
export async function waitForDagRun(t: TestApp, dagRunId: string, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await t.infra.store.first(findDagRun, { id: dagRunId });
    if (run && run.status !== 'running') return run.status;
    if (Date.now() > deadline) throw new Error(`DAG run ${dagRunId} is still ${run?.status}`);
    await Bun.sleep(100);
  }
}

export async function dagOf(t: TestApp, workspaceId: string, user: TestUser): Promise<any> {
  const response = await t.request(`${transformsPath(workspaceId)}/dag`, { token: user.accessToken });
  expect(response.status).toBe(200);
  return bodyOf(response);
}

export async function runsOf(t: TestApp, workspaceId: string, user: TestUser, transformId: string, query = ''): Promise<any[]> {
  const response = await t.request(`${transformsPath(workspaceId)}/${transformId}/runs${query}`, { token: user.accessToken });
  expect(response.status).toBe(200);
  return bodyOf(response);
}
