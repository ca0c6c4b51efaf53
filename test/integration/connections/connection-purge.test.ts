import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { ScheduleNotFoundError } from '@temporalio/client';
import { startTestApp, type TestApp } from '../../support/test-app';
import { createWorkspace } from '../../support/workspaces';
import { createConnectionOk, createSourceDatabase, postgresSpec, syncOk, type SourceDatabase } from '../../support/connections';
import { namedQuery } from '../../../src/store/named-query';
import { connectionSyncScheduleId } from '../../../src/workflow-clients/connection-sync';
import { workspacePurgeWorkflowId } from '../../../src/workflow-clients/workspace-purge';
import { withWorkspace } from '../../support/fixtures';

const connectionRows = namedQuery<{ id: string }, { connections: number; jobs: number; states: number }>(
  'test.connection_rows',
  `SELECT (SELECT count(*) FROM connections WHERE workspace_id = :id) AS connections,
          (SELECT count(*) FROM sync_jobs WHERE workspace_id = :id) AS jobs,
          (SELECT count(*) FROM sync_states WHERE workspace_id = :id) AS states`,
);

describe('the purge of a deleted workspace', () => {
  let t: TestApp;
  let source: SourceDatabase;

  beforeAll(async () => {
    source = await createSourceDatabase();
    await source.sql.unsafe(`CREATE TABLE items (id int PRIMARY KEY, label text)`);
    await source.sql.unsafe(`INSERT INTO items SELECT g, 'item ' || g FROM generate_series(1, 10) g`);
    t = await startTestApp('local', { worker: true });
  });
  afterAll(async () => {
    await t.stop();
    await source.drop();
  });

  test('removes its connections, their schedules, sync jobs and states, and nothing of another workspace', async () => {
    const { user: owner, workspace: gone } = await withWorkspace(t, { label: 'connection-purge' });
    const kept = await createWorkspace(t, owner, 'kept');
    const connections = [];
    for (const workspace of [gone, kept]) {
      const connection = await createConnectionOk(t, owner, workspace.id, {
        name: 'inventory',
        connector_type: 'postgres',
        spec: postgresSpec(source),
        sync_schedule: 'every 1h',
      });
      await syncOk(t, owner, workspace.id, connection.id);
      connections.push(connection);
    }
    const [goneConnection, keptConnection] = connections;
    expect(await t.infra.store.first(connectionRows, { id: gone.id })).toEqual({ connections: 1, jobs: 1, states: 1 });

    expect((await t.request(`/api/v1/workspaces/${gone.id}`, { method: 'DELETE', token: owner.accessToken })).status).toBe(204);
    expect(await t.infra.temporal.client.workflow.getHandle(workspacePurgeWorkflowId(gone.id)).result()).toBe('done');

    expect(await t.infra.store.first(connectionRows, { id: gone.id })).toEqual({ connections: 0, jobs: 0, states: 0 });
    const schedules = t.infra.temporal.client.schedule;
    const described = await schedules
      .getHandle(connectionSyncScheduleId(goneConnection!.id))
      .describe()
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(described).toBeInstanceOf(ScheduleNotFoundError);
    expect((await schedules.getHandle(connectionSyncScheduleId(keptConnection!.id)).describe()).state.paused).toBe(false);
    expect(await t.infra.store.first(connectionRows, { id: kept.id })).toEqual({ connections: 1, jobs: 1, states: 1 });
  }, 120_000);
});
