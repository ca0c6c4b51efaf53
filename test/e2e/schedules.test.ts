import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../support/test-app';
import type { TestUser } from '../support/accounts';
import { bodyOf } from '../support/http';
import { connectionsPath, createConnection, createSourceDatabase, postgresSpec, type SourceDatabase } from '../support/connections';
import { transformsPath } from '../support/transforms';
import { connectionSyncScheduleId } from '../../src/workflow-clients/connection-sync';
import { dagScheduleId } from '../../src/workflow-clients/transform-dag';
import { withWorkspace } from '../support/fixtures';

/**
 * Every schedule of the service reads the same syntax: a connection's and a workspace's transform
 * schedule accept `0 9 * * MON` alike, refuse a cron that never fires alike, and show the next run
 * times, which are the times Temporal's own schedule says it will start runs.
 */
describe('schedules', () => {
  let t: TestApp, user: TestUser, workspaceId: string;
  let source: SourceDatabase;

  const temporalNext = async (scheduleId: string) =>
    (await t.infra.temporal.client.schedule.getHandle(scheduleId).describe()).info.nextActionTimes.slice(0, 3).map((time) => time.toISOString());
  const putTransformSchedule = (schedule: string) =>
    t.request(`${transformsPath(workspaceId)}/schedule`, { method: 'PUT', json: { schedule }, token: user.accessToken });

  beforeAll(async () => {
    source = await createSourceDatabase();
    await source.sql.unsafe('CREATE TABLE events (id bigint PRIMARY KEY)');
    ({ t, user, workspaceId } = await withWorkspace('local', { label: 'schedules', plan: 'business' }));
  });
  afterAll(async () => {
    await t.stop();
    await source.drop();
  });

  for (const cron of ['0 9 * * MON', '0 12 13 * FRI', 'every 45m']) {
    test(`"${cron}": accepted for a connection and for the transforms, next runs as Temporal will start them`, async () => {
      const name = `sched_${Math.random().toString(36).slice(2, 8)}`;
      const created = await createConnection(t, user, workspaceId, { name, connector_type: 'postgres', spec: postgresSpec(source), sync_schedule: cron });
      expect(created.status).toBe(201);
      const connection = await bodyOf(created);
      expect(connection.sync_schedule).toBe(cron);
      expect(connection.next_runs).toHaveLength(3);
      expect(connection.next_runs).toEqual(await temporalNext(connectionSyncScheduleId(connection.id)));

      const put = await putTransformSchedule(cron);
      expect(put.status).toBe(200);
      const schedule = await bodyOf(put);
      expect(schedule.next_runs).toEqual(await temporalNext(dagScheduleId(workspaceId)));
      expect(schedule.next_runs).toEqual(connection.next_runs);

      const paused = await bodyOf(
        await t.request(`${connectionsPath(workspaceId)}/${connection.id}`, { method: 'PATCH', json: { status: 'paused' }, token: user.accessToken }),
      );
      expect(paused.next_runs).toEqual([]);
    });
  }

  test('a cron that never fires is refused alike: 422 for a connection, its PATCH and the transforms', async () => {
    const created = await createConnection(t, user, workspaceId, {
      name: 'never',
      connector_type: 'postgres',
      spec: postgresSpec(source),
      sync_schedule: '0 0 31 2 *',
    });
    expect(created.status).toBe(422);
    expect((await bodyOf(created)).detail[0]).toMatchObject({ loc: ['body', 'sync_schedule'], msg: expect.stringContaining('never fires') });
    const manual = await bodyOf(await createConnection(t, user, workspaceId, { name: 'manual', connector_type: 'postgres', spec: postgresSpec(source) }));
    expect(manual.next_runs).toEqual([]);
    const patched = await t.request(`${connectionsPath(workspaceId)}/${manual.id}`, {
      method: 'PATCH',
      json: { sync_schedule: '0 0 30 2 *' },
      token: user.accessToken,
    });
    expect(patched.status).toBe(422);
    const transforms = await putTransformSchedule('0 0 31 2 *');
    expect(transforms.status).toBe(422);
    expect((await bodyOf(transforms)).detail[0].msg).toContain('never fires');
  });
});
