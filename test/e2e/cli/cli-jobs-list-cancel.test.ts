import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { CliHome, expectExit, startCliService } from '../../support/cli';
import { slowSql, submitJobOk, waitForJob } from '../../support/jobs';
import { createApiKey, type TestUser } from '../../support/accounts';
import { withWorkspace } from '../../support/fixtures';

// `GET /query/jobs` and `POST /query/jobs/{id}/cancel` (ARCHITECTURE §10): the CLI's `jobs ls` and its
// cancel of a running job.
describe('oxbow jobs ls, and jobs cancel of a running job', () => {
  let service: Awaited<ReturnType<typeof startCliService>>;
  let user: TestUser;
  let home: CliHome;
  let workspaceId: string;
  beforeAll(async () => {
    service = await startCliService({ QUERY_JOB_CONCURRENCY: '1' });
    ({ user, workspaceId } = await withWorkspace(service.t, { label: 'cli-jobs', plan: 'business' }));
    home = new CliHome(service.server.url);
    expectExit(await home.run(['login', '--api-key', await createApiKey(service.t, user, 'cli tests')]), 0);
    expectExit(await home.run(['workspaces', 'use', workspaceId]), 0);
  });
  afterAll(async () => {
    home?.remove();
    await service?.stop();
  });

  test('jobs ls lists the workspace’s jobs, most recent first, filtered by status', async () => {
    const first = await submitJobOk(service.t, user, { sql: 'SELECT 1 AS one', workspace_id: workspaceId });
    await waitForJob(service.t, user, first);
    const second = await submitJobOk(service.t, user, { sql: 'SELECT nope FROM range(1)', workspace_id: workspaceId });
    await waitForJob(service.t, user, second);
    const list = JSON.parse(expectExit(await home.run(['jobs', 'ls', '--json']), 0).stdout);
    expect(list.map((job: { job_id: string }) => job.job_id).slice(0, 2)).toEqual([second, first]);
    const plain = expectExit(await home.run(['jobs', 'ls', '--status', 'failed']), 0);
    expect(
      plain.stdout
        .trim()
        .split('\n')
        .map((line) => line.split('\t').slice(0, 2)),
    ).toEqual([[second, 'failed']]);
  }, 60_000);

  test('jobs cancel stops a running job', async () => {
    const running = await submitJobOk(service.t, user, { sql: slowSql(2000), workspace_id: workspaceId });
    await waitForJob(service.t, user, running, ['running']);
    expect(JSON.parse(expectExit(await home.run(['jobs', 'cancel', running, '--json']), 0).stdout)).toEqual({ job_id: running, status: 'cancelled' });
    expect((await waitForJob(service.t, user, running)).status).toBe('cancelled');
    const watched = await home.run(['jobs', 'watch', running]);
    expect(watched.code).toBe(8);
  }, 60_000);
});
