import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type TestApp } from '../support/test-app';
import { backends } from '../support/backends';
import { createVerifiedUser, type TestUser } from '../support/accounts';
import { addMember, createWorkspace } from '../support/workspaces';
import { pushOk } from '../support/lake';
import { bodyOf } from '../support/http';
import { createTransformOk, runAll, transformsPath, waitForDagRun } from '../support/transforms';
import { withUser } from '../support/fixtures';

for (const backend of backends) {
  describe(`the transforms' run history (${backend})`, () => {
    let t: TestApp;
    let user: TestUser;

    beforeAll(async () => {
      ({ t, user } = await withUser(backend, { worker: true, label: 'tf-history' }));
    });
    afterAll(() => t.stop());

    const history = async (ws: string, as: TestUser, query = '') => {
      const response = await t.request(`/api/v1/workspaces/${ws}/transform-runs${query}`, { token: as.accessToken });
      expect(response.status).toBe(200);
      return { total: Number(response.headers.get('x-total-count')), runs: (await bodyOf(response)) as any[] };
    };

    test('lists DAG runs newest first with each node’s timing and error, a retry naming what it retries, single runs marked', async () => {
      const ws = (await createWorkspace(t, user)).id;
      await pushOk(t, ws, user, {
        table: 'raw.items',
        records: [
          { id: 1, code: 'x1' },
          { id: 2, code: '7' },
        ],
      });
      const root = await createTransformOk(t, ws, user, { name: 'root', sql: 'SELECT id, code FROM raw.items', target_table: 'h.root' });
      const broken = await createTransformOk(t, ws, user, {
        name: 'broken',
        sql: 'SELECT id, CAST(code AS INTEGER) AS code FROM h.root',
        target_table: 'h.broken',
      });

      const first = await runAll(t, ws, user);
      expect(await waitForDagRun(t, first.dag_run_id)).toBe('failed');
      const fixed = await t.request(`${transformsPath(ws)}/${broken.id}`, {
        method: 'PATCH',
        json: { sql: "SELECT id, CAST(replace(code, 'x', '') AS INTEGER) AS code FROM h.root" },
        token: user.accessToken,
      });
      expect(fixed.status).toBe(200);
      const retry = await runAll(t, ws, user, { retry_from: first.dag_run_id });
      expect(await waitForDagRun(t, retry.dag_run_id)).toBe('succeeded');
      const single = await t.request(`${transformsPath(ws)}/${root.id}/run`, { method: 'POST', token: user.accessToken });
      expect(single.status).toBe(200);
      await waitForDagRun(t, (await history(ws, user, '?limit=1')).runs[0].dag_run_id);

      const { total, runs } = await history(ws, user);
      expect(total).toBe(3);
      expect(runs.map((run) => [run.single, run.retry_of])).toEqual([
        [true, null],
        [false, first.dag_run_id],
        [false, null],
      ]);
      const [, again, original] = runs;
      expect(original).toMatchObject({ dag_run_id: first.dag_run_id, status: 'failed', trigger: 'manual', order: [root.id, broken.id] });
      expect(Date.parse(original.created_at)).toBeLessThanOrEqual(Date.parse(original.finished_at));
      const [rootRun, brokenRun] = original.runs;
      expect(rootRun).toMatchObject({ transform_name: 'root', status: 'succeeded', rows_written: 2 });
      expect(rootRun.duration_ms).toBeGreaterThanOrEqual(0);
      expect(Date.parse(rootRun.started_at)).toBeLessThanOrEqual(Date.parse(rootRun.finished_at));
      expect(brokenRun).toMatchObject({
        transform_name: 'broken',
        status: 'failed',
        error: { code: 'INVALID_VALUE', message: expect.stringContaining('integer') },
      });
      expect(again).toMatchObject({ status: 'succeeded', order: [broken.id], runs: [{ transform_name: 'broken', status: 'succeeded' }] });

      // One of them by its id, and the pages of the list.
      const one = await t.request(`/api/v1/workspaces/${ws}/transform-runs/${first.dag_run_id}`, { token: user.accessToken });
      expect(await bodyOf(one)).toEqual(original);
      expect((await history(ws, user, '?limit=1&offset=1')).runs.map((run) => run.dag_run_id)).toEqual([retry.dag_run_id]);
      expect((await t.request(`/api/v1/workspaces/${ws}/transform-runs?limit=201`, { token: user.accessToken })).status).toBe(422);
    }, 120_000);

    test('a viewer reads the history; another workspace’s run and an unknown one are 404', async () => {
      const ws = (await createWorkspace(t, user)).id;
      await pushOk(t, ws, user, { table: 'raw.things', records: [{ id: 1 }] });
      await createTransformOk(t, ws, user, { name: 'things', sql: 'SELECT id FROM raw.things', target_table: 'h.things' });
      const run = await runAll(t, ws, user);
      await waitForDagRun(t, run.dag_run_id);
      const viewer = await createVerifiedUser(t, 'tf-history-viewer');
      await addMember(t, ws, user, viewer, 'VIEWER');
      expect((await history(ws, viewer)).runs.map((entry) => entry.dag_run_id)).toEqual([run.dag_run_id]);

      const other = (await createWorkspace(t, user)).id;
      expect((await history(other, user)).runs).toEqual([]);
      const elsewhere = await t.request(`/api/v1/workspaces/${other}/transform-runs/${run.dag_run_id}`, { token: user.accessToken });
      expect(elsewhere.status).toBe(404);
      expect((await bodyOf(elsewhere)).detail.error.code).toBe('NOT_FOUND');
      const unknown = await t.request(`/api/v1/workspaces/${ws}/transform-runs/01890000-0000-7000-8000-000000000000`, { token: user.accessToken });
      expect(unknown.status).toBe(404);
      const stranger = await createVerifiedUser(t, 'tf-history-stranger');
      expect((await t.request(`/api/v1/workspaces/${ws}/transform-runs`, { token: stranger.accessToken })).status).toBe(403);
    }, 120_000);
  });
}
