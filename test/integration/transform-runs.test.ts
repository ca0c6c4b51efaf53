import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../support/test-app';
import { backends } from '../support/backends';
import type { TestUser } from '../support/accounts';
import { createWorkspace } from '../support/workspaces';
import { pushOk, query } from '../support/lake';
import { bodyOf } from '../support/http';
import { createTransformOk, dagOf, runAll, runsOf, transformsPath, waitForDagRun } from '../support/transforms';
import { namedQuery } from '../../src/store/named-query';
import { withUser } from '../support/fixtures';

const usageOf = namedQuery<{ id: string }, { source: string; status: string; duration_ms: number }>(
  'test.transform_usage',
  'SELECT source, status, duration_ms FROM query_usage WHERE job_id = :id',
);

for (const backend of backends) {
  describe(`transform runs (${backend})`, () => {
    let t: TestApp, user: TestUser;

    beforeAll(async () => ({ t, user } = await withUser(backend, { worker: true, label: 'tf-runs' })));
    afterAll(() => t.stop());

    test('three dependent transforms: run all, query, change the source, stale, only_stale', async () => {
      const ws = (await createWorkspace(t, user)).id;
      await pushOk(t, ws, user, {
        table: 'raw.events',
        records: [
          { id: 1, kind: 'a', value: 10 },
          { id: 2, kind: 'b', value: 5 },
          { id: 3, kind: 'a', value: 1 },
        ],
      });
      const clean = await createTransformOk(t, ws, user, {
        name: 'clean',
        sql: 'SELECT id, kind, value FROM raw.events WHERE value > 0',
        target_table: 'staging.events',
      });
      const perKind = await createTransformOk(t, ws, user, {
        name: 'per_kind',
        sql: 'SELECT kind, sum(value) AS total, count(*) AS n FROM staging.events GROUP BY kind',
        target_table: 'marts.per_kind',
      });
      const top = await createTransformOk(t, ws, user, {
        name: 'top_kind',
        sql: 'SELECT kind, total FROM marts.per_kind ORDER BY total DESC LIMIT 1',
        target_table: 'marts.top_kind',
        materialization: 'view',
      });

      const first = await runAll(t, ws, user);
      expect(first.order).toEqual([clean.id, perKind.id, top.id]);
      if (first.status === 'running') await waitForDagRun(t, first.dag_run_id);
      expect(await query(t, ws, 'SELECT kind, total FROM marts.per_kind ORDER BY kind')).toEqual([
        { kind: 'a', total: 11 },
        { kind: 'b', total: 5 },
      ]);
      expect(await query(t, ws, 'SELECT * FROM marts.top_kind')).toEqual([{ kind: 'a', total: 11 }]);
      const [run] = await runsOf(t, ws, user, perKind.id);
      expect(run).toMatchObject({ status: 'succeeded', trigger: 'manual', rows_written: 2, dag_run_id: first.dag_run_id, transform_name: 'per_kind' });
      expect(run.snapshot_id).toBeGreaterThan(0);
      expect(await t.infra.store.first(usageOf, { id: run.id })).toMatchObject({ source: 'transform', status: 'succeeded' });
      expect((await dagOf(t, ws, user)).nodes.map((node: { stale: boolean }) => node.stale)).toEqual([false, false, false]);

      // Time travel shows the run's snapshot.
      await pushOk(t, ws, user, { table: 'raw.events', records: [{ id: 4, kind: 'b', value: 100 }] });
      const stale = await dagOf(t, ws, user);
      expect(stale.nodes.map((node: { name: string; stale: boolean }) => [node.name, node.stale])).toEqual([
        ['clean', true],
        ['per_kind', true],
        ['top_kind', true],
      ]);

      const second = await runAll(t, ws, user, { only_stale: true });
      expect(second.order).toEqual([clean.id, perKind.id, top.id]);
      if (second.status === 'running') await waitForDagRun(t, second.dag_run_id);
      expect(await query(t, ws, 'SELECT * FROM marts.top_kind')).toEqual([{ kind: 'b', total: 105 }]);
      expect((await dagOf(t, ws, user)).nodes.every((node: { stale: boolean }) => !node.stale)).toBe(true);
      const nothing = await runAll(t, ws, user, { only_stale: true });
      expect(nothing).toMatchObject({ status: 'succeeded', order: [], runs: [] });

      const runs = await runsOf(t, ws, user, perKind.id);
      expect(runs.map((entry: { dag_run_id: string }) => entry.dag_run_id)).toEqual([second.dag_run_id, first.dag_run_id]);
      const [latest, earlier] = runs;
      const before = await query(t, ws, `SELECT total FROM marts.per_kind FOR SYSTEM_TIME AS OF '${earlier.finished_at}' WHERE kind = 'b'`);
      expect(before).toEqual([{ total: 5 }]);
      expect(latest.snapshot_id).toBeGreaterThan(earlier.snapshot_id);
      expect((await runsOf(t, ws, user, perKind.id, '?limit=1')).length).toBe(1);
    }, 120_000);

    test('a single transform runs alone; incremental merges on its key', async () => {
      const ws = (await createWorkspace(t, user)).id;
      await pushOk(t, ws, user, {
        table: 'raw.users',
        records: [
          { id: 1, name: 'ann' },
          { id: 2, name: 'bob' },
        ],
        primary_key: ['id'],
      });
      const latest = await createTransformOk(t, ws, user, {
        name: 'users',
        sql: "SELECT id, upper(name) AS name, 'v1' AS version FROM raw.users",
        target_table: 'dim.users',
        materialization: 'incremental',
        unique_key: 'id',
      });
      const response = await t.request(`${transformsPath(ws)}/${latest.id}/run`, { method: 'POST', token: user.accessToken });
      expect(response.status).toBe(200);
      let run = await bodyOf(response);
      expect(run.dag_run_id).toBeNull();
      if (run.status !== 'succeeded') run = (await waitForRun(t, ws, user, latest.id))[0];
      expect(run).toMatchObject({ status: 'succeeded', rows_written: 2, transform_id: latest.id });
      await pushOk(t, ws, user, {
        table: 'raw.users',
        records: [
          { id: 2, name: 'bo' },
          { id: 3, name: 'cy' },
        ],
        primary_key: ['id'],
      });
      await t.request(`${transformsPath(ws)}/${latest.id}/run`, { method: 'POST', token: user.accessToken });
      await waitForRun(t, ws, user, latest.id, 2);
      expect(await query(t, ws, 'SELECT id, name FROM dim.users ORDER BY id')).toEqual([
        { id: 1, name: 'ANN' },
        { id: 2, name: 'BO' },
        { id: 3, name: 'CY' },
      ]);
    }, 120_000);
  });
}

/** Polls the runs until `count` of them have ended. */
async function waitForRun(t: TestApp, ws: string, user: TestUser, transformId: string, count = 1): Promise<any[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const runs = await runsOf(t, ws, user, transformId);
    if (runs.length >= count && runs.slice(0, count).every((run) => !['pending', 'running'].includes(run.status))) return runs;
    if (Date.now() > deadline) throw new Error(`runs of ${transformId} did not end`);
    await Bun.sleep(100);
  }
}
