import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../support/test-app';
import type { TestUser } from '../support/accounts';
import { createWorkspace } from '../support/workspaces';
import { query } from '../support/lake';
import { eventually } from '../support/eventually';
import { createConnectionOk, createSourceDatabase, postgresSpec, syncOk, type SourceDatabase } from '../support/connections';
import { createTransformOk, runAll, runsOf, waitForDagRun } from '../support/transforms';
import { dagWorkflowId } from '../../src/workflow-clients/transform-dag';
import { withUser } from '../support/fixtures';

/**
 * A pipeline kept fresh without cron: a sync that changed a table runs the transforms downstream of
 * it, once per sync, and an operator finds that run by the workspace and its kind.
 */
describe('a sync runs the transforms downstream of what it changed', () => {
  let t: TestApp, user: TestUser;
  let source: SourceDatabase;

  beforeAll(async () => {
    ({ t, user } = await withUser('local', { worker: true, label: 'pipeline' }));
    source = await createSourceDatabase();
    await source.sql`CREATE TABLE orders (id bigint PRIMARY KEY, amount integer, updated_at timestamptz NOT NULL DEFAULT now())`;
    await source.sql`INSERT INTO orders (id, amount) SELECT i, i FROM generate_series(1, 10) i`;
  });
  afterAll(async () => {
    await t.stop();
    await source.drop();
  });

  test('sync, transform, change at the source, sync again: the mart follows, with trigger after_sync', async () => {
    const workspaceId = (await createWorkspace(t, user, 'pipeline')).id;
    const streams = [{ name: 'orders', sync_mode: 'incremental_append_deduped', cursor_field: 'updated_at', primary_key: ['id'] }];
    const connection = await createConnectionOk(t, user, workspaceId, { name: 'shop', connector_type: 'postgres', spec: postgresSpec(source), streams });
    await syncOk(t, user, workspaceId, connection.id);
    const revenue = await createTransformOk(t, workspaceId, user, {
      name: 'revenue',
      sql: 'SELECT sum(amount) AS total, count(*) AS orders FROM shop.orders',
      target_table: 'marts.revenue',
    });
    expect(await waitForDagRun(t, (await runAll(t, workspaceId, user)).dag_run_id)).toBe('succeeded');
    expect(await query(t, workspaceId, 'SELECT total, orders FROM marts.revenue')).toEqual([{ total: 55, orders: 10 }]);

    await source.sql`INSERT INTO orders (id, amount) VALUES (11, 100)`;
    await syncOk(t, user, workspaceId, connection.id);
    const runs = await eventually(
      () => runsOf(t, workspaceId, user, revenue.id),
      (list) => list.length === 2 && list[0].status === 'succeeded',
      60_000,
    );
    expect(runs.map((run: { trigger: string }) => run.trigger)).toEqual(['after_sync', 'manual']);
    expect(await query(t, workspaceId, 'SELECT total, orders FROM marts.revenue')).toEqual([{ total: 155, orders: 11 }]);

    // A sync that changes nothing starts no run.
    await syncOk(t, user, workspaceId, connection.id);
    await Bun.sleep(1_000);
    expect((await runsOf(t, workspaceId, user, revenue.id)).length).toBe(2);

    const byKind = `OxbowWorkspaceId = '${workspaceId}' AND OxbowKind = 'transform_run' AND OxbowTrigger = 'after_sync'`;
    const listed = async () => {
      const ids: string[] = [];
      for await (const execution of t.infra.temporal.client.workflow.list({ query: byKind })) ids.push(execution.workflowId);
      return ids;
    };
    expect(await eventually(listed, (ids) => ids.length === 1, 10_000)).toEqual([dagWorkflowId(runs[0].dag_run_id)]);
  }, 180_000);
});
