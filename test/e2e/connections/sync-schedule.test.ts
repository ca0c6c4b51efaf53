import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import type { TestApp } from '../../support/test-app';
import type { TestUser } from '../../support/accounts';
import { bodyOf } from '../../support/http';
import { testEnv } from '../../support/test-env';
import { connectionsPath, createConnectionOk, createSourceDatabase, postgresSpec, queryRows, type SourceDatabase } from '../../support/connections';
import { withWorkspace } from '../../support/fixtures';

/** What `temporal schedule describe` (the CLI, as an operator runs it) says of a schedule; undefined when there is none. */
async function describeSchedule(t: TestApp, scheduleId: string): Promise<Record<string, any> | undefined> {
  const cli = Bun.spawn(
    [
      join(testEnv.toolsDir(), 'bin', 'temporal'),
      'schedule',
      'describe',
      '--schedule-id',
      scheduleId,
      '--address',
      t.infra.temporalAddress,
      '--namespace',
      t.backend.config.temporal.namespace,
      '--output',
      'json',
    ],
    { stdout: 'pipe', stderr: 'pipe' },
  );
  const [out, err, code] = await Promise.all([new Response(cli.stdout).text(), new Response(cli.stderr).text(), cli.exited]);
  if (code !== 0) {
    if (/not found/i.test(err + out)) return undefined;
    throw new Error(`temporal schedule describe failed (${code}): ${err}`);
  }
  return JSON.parse(out);
}

describe('a connection sync schedule', () => {
  let t: TestApp, user: TestUser, workspaceId: string;
  let source: SourceDatabase;

  beforeAll(async () => {
    source = await createSourceDatabase();
    await source.sql.unsafe(`CREATE TABLE events (id int PRIMARY KEY, kind text, at timestamptz NOT NULL)`);
    await source.sql.unsafe(`INSERT INTO events SELECT g, 'k' || (g % 3), timestamptz '2024-01-01' + g * interval '1 minute' FROM generate_series(1, 40) g`);
    ({ t, user, workspaceId } = await withWorkspace('local', { worker: true, label: 'sync-schedule' }));
  });
  afterAll(async () => {
    await t.stop();
    await source.drop();
  });

  test('every 1m: a Temporal Schedule whose runs show as trigger "schedule", follows PATCH and pause, goes with the connection', async () => {
    const connection = await createConnectionOk(t, user, workspaceId, {
      name: 'ticks',
      connector_type: 'postgres',
      spec: postgresSpec(source),
      streams: [{ name: 'events', sync_mode: 'incremental_append', cursor_field: 'at' }],
      sync_schedule: 'every 1m',
    });
    const scheduleId = `connection-sync-${connection.id}`;
    const base = `${connectionsPath(workspaceId)}/${connection.id}`;

    const described = await describeSchedule(t, scheduleId);
    expect(described).toBeDefined();
    expect(JSON.stringify(described!.schedule.spec)).toContain('60s');
    expect(described!.schedule.state.paused ?? false).toBe(false);
    expect(described!.schedule.policies.overlapPolicy).toMatch(/SKIP/);
    expect(described!.schedule.action.startWorkflow.workflowType.name).toBe('connectionSyncWorkflow');

    // The schedule's own action, started now rather than at the next minute (as `temporal schedule trigger` does).
    await t.infra.temporal.client.schedule.getHandle(scheduleId).trigger();
    const deadline = Date.now() + 60_000;
    let scheduled: Record<string, any> | undefined;
    while (!scheduled) {
      if (Date.now() > deadline) throw new Error('the schedule never ran a sync');
      await Bun.sleep(250);
      const jobs = await bodyOf(await t.request(`${base}/sync-jobs`, { token: user.accessToken }));
      scheduled = jobs.find((job: { trigger: string; status: string }) => job.trigger === 'schedule' && job.status === 'succeeded');
    }
    expect(scheduled.workflow_id).toStartWith(scheduleId);
    expect(scheduled.records_written).toBe(40);
    expect(await queryRows(t, user, workspaceId, 'SELECT count(*) AS n FROM ticks.events')).toEqual([{ n: 40 }]);
    const all = await bodyOf(await t.request(`${connectionsPath(workspaceId)}/sync-jobs`, { token: user.accessToken }));
    expect(all.map((job: { id: string }) => job.id)).toContain(scheduled.id);

    const patched = await t.request(base, { method: 'PATCH', json: { sync_schedule: '*/5 * * * *' }, token: user.accessToken });
    expect(patched.status).toBe(200);
    const cron = await describeSchedule(t, scheduleId);
    expect(JSON.stringify(cron!.schedule.spec)).not.toContain('60s');
    expect(JSON.stringify(cron!.schedule.spec)).toMatch(/calendar|cron/i);

    const paused = await t.request(base, { method: 'PATCH', json: { status: 'paused' }, token: user.accessToken });
    expect(paused.status).toBe(200);
    expect((await describeSchedule(t, scheduleId))!.schedule.state.paused).toBe(true);

    const deleted = await t.request(base, { method: 'DELETE', token: user.accessToken });
    expect(deleted.status).toBe(204);
    expect(await describeSchedule(t, scheduleId)).toBeUndefined();
  }, 120_000);
});
