import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../support/test-app';
import { startWorkflowOnce } from '../../src/temporal/start-workflow';
import { workspaceMaintenanceWorkflow } from '../../src/workflows/workspace-maintenance';

/**
 * A start that asks to be eager hands its first workflow task to the worker of the same process, when
 * one runs there, instead of waiting for the server to dispatch it; without a local worker it is an
 * ordinary start. A maintenance run of a workspace that does not exist serves as a short workflow.
 */
describe('eager workflow start', () => {
  let withWorker: TestApp;
  let apiOnly: TestApp;
  beforeAll(async () => {
    withWorker = await startTestApp('local', { worker: true });
    apiOnly = await startTestApp('local');
  });
  afterAll(async () => {
    await withWorker.stop();
    await apiOnly.stop();
  });

  const start = (t: TestApp, eager: boolean) => {
    const workspaceId = crypto.randomUUID();
    const workflowId = `eager-start-test-${workspaceId}`;
    return startWorkflowOnce(t.infra.temporal, workspaceMaintenanceWorkflow, {
      workflowId,
      args: [workspaceId],
      labels: { kind: 'maintenance', workspaceId },
      eager,
    }).then((started) => ({ ...started, workflowId }));
  };

  test('with the worker in this process, an eager start runs on it at once and completes', async () => {
    const started = await start(withWorker, true);
    expect(started.eagerlyStarted).toBe(true);
    expect(await withWorker.infra.temporal.client.workflow.getHandle(started.workflowId).result()).toBe('workspace_gone');
  }, 30_000);

  test('a start that does not ask, or a process without a worker, starts the ordinary way', async () => {
    const ordinary = await start(withWorker, false);
    expect(ordinary.eagerlyStarted).toBe(false);
    expect(await withWorker.infra.temporal.client.workflow.getHandle(ordinary.workflowId).result()).toBe('workspace_gone');
    expect(apiOnly.infra.temporal.local).toBeUndefined();
    const remote = await start(apiOnly, true);
    expect(remote.eagerlyStarted).toBe(false);
    // No worker polls this app's own task queue: the run is ended rather than waited for.
    await apiOnly.infra.temporal.client.workflow.getHandle(remote.workflowId).terminate('test over');
  }, 30_000);
});
