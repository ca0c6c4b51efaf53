import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../support/test-app';
import { backends } from '../support/backends';
import type { TestUser } from '../support/accounts';
import { createWorkspace } from '../support/workspaces';
import { pushOk, query } from '../support/lake';
import { createTransformOk, dagOf, runAll, runsOf, transformsPath, waitForDagRun } from '../support/transforms';
import { listDagRunRuns, type RunRow } from '../../src/transforms/transform-queries';
import { bodyOf } from '../support/http';
import { namedQuery } from '../../src/store/named-query';
import { workspacePurgeWorkflowId } from '../../src/workflow-clients/workspace-purge';
import { withUser } from '../support/fixtures';

const transformRows = namedQuery<{ workspace_id: string; transform_id: string }, { transforms: number; runs: number; dag_runs: number; schedules: number }>(
  'test.transform_rows',
  `SELECT (SELECT count(*) FROM transforms WHERE workspace_id = :workspace_id) AS transforms,
          (SELECT count(*) FROM transform_runs WHERE transform_id = :transform_id) AS runs,
          (SELECT count(*) FROM transform_dag_runs WHERE workspace_id = :workspace_id) AS dag_runs,
          (SELECT count(*) FROM transform_schedules WHERE workspace_id = :workspace_id) AS schedules`,
);

/** Work that keeps a node busy for a moment, reading its inputs. */
const busy = (inputs: string[]) =>
  `SELECT ${inputs.map((input, index) => `(SELECT count(*) FROM ${input}) AS in_${index}`).join(', ')}${inputs.length ? ', ' : ''}count(*) AS n FROM range(15000000) r WHERE hash(r.range) % 7 = 0`;

describe('DAG runs', () => {
  let t: TestApp, user: TestUser;

  beforeAll(async () => ({ t, user } = await withUser('local', { worker: true, label: 'tf-dag' })));
  afterAll(() => t.stop());

  const recordedRuns = async (dagRunId: string) =>
    new Map((await t.infra.store.all(listDagRunRuns, { dag_run_id: dagRunId })).map((run) => [run.transform_name, run]));

  test('a failed node skips what depends on it, the rest goes on; retry_from runs the failed and skipped only', async () => {
    const ws = (await createWorkspace(t, user)).id;
    await pushOk(t, ws, user, {
      table: 'raw.items',
      records: [
        { id: 1, code: 'x1' },
        { id: 2, code: '7' },
      ],
    });
    const root = await createTransformOk(t, ws, user, { name: 'root', sql: 'SELECT id, code FROM raw.items', target_table: 'f.root' });
    // Binds, then fails while it runs: 'x1' is no integer.
    const broken = await createTransformOk(t, ws, user, {
      name: 'broken',
      sql: 'SELECT id, CAST(code AS INTEGER) AS code FROM f.root',
      target_table: 'f.broken',
    });
    const after = await createTransformOk(t, ws, user, { name: 'after_broken', sql: 'SELECT count(*) AS n FROM f.broken', target_table: 'f.after' });
    const fine = await createTransformOk(t, ws, user, { name: 'fine', sql: 'SELECT count(*) AS n FROM f.root', target_table: 'f.fine' });

    const first = await runAll(t, ws, user);
    expect(await waitForDagRun(t, first.dag_run_id)).toBe('failed');
    const runs = await recordedRuns(first.dag_run_id);
    expect(Object.fromEntries([...runs.entries()].map(([name, run]) => [name, run.status]))).toEqual({
      root: 'succeeded',
      broken: 'failed',
      after_broken: 'skipped',
      fine: 'succeeded',
    });
    const [failed] = await runsOf(t, ws, user, broken.id);
    // Postgres' invalid text representation (22P02): 'x1' is no integer.
    expect(failed.error.code).toBe('INVALID_VALUE');
    const [skipped] = await runsOf(t, ws, user, after.id);
    expect(skipped.error.message).toContain('broken');
    expect((await dagOf(t, ws, user)).nodes.find((node: { id: string }) => node.id === broken.id).last_run_status).toBe('failed');

    const fixed = await t.request(`${transformsPath(ws)}/${broken.id}`, {
      method: 'PATCH',
      json: { sql: "SELECT id, CAST(replace(code, 'x', '') AS INTEGER) AS code FROM f.root" },
      token: user.accessToken,
    });
    expect(fixed.status).toBe(200);
    const retry = await runAll(t, ws, user, { retry_from: first.dag_run_id });
    expect(retry.order).toEqual([broken.id, after.id]);
    expect(await waitForDagRun(t, retry.dag_run_id)).toBe('succeeded');
    expect((await runsOf(t, ws, user, root.id)).length).toBe(1);
    expect((await runsOf(t, ws, user, fine.id)).length).toBe(1);
    expect(await query(t, ws, 'SELECT n FROM f.after')).toEqual([{ n: 2 }]);

    const unknown = await t.request(`${transformsPath(ws)}/run`, {
      method: 'POST',
      json: { retry_from: '01890000-0000-7000-8000-000000000000' },
      token: user.accessToken,
    });
    expect(unknown.status).toBe(404);
  }, 120_000);

  test('selection: names with their upstream, dbt selectors, unknown names', async () => {
    const ws = (await createWorkspace(t, user)).id;
    await pushOk(t, ws, user, { table: 'raw.s', records: [{ v: 1 }] });
    const one = await createTransformOk(t, ws, user, { name: 's1', sql: 'SELECT v FROM raw.s', target_table: 'sel.s1' });
    const two = await createTransformOk(t, ws, user, { name: 's2', sql: 'SELECT v FROM sel.s1', target_table: 'sel.s2' });
    const three = await createTransformOk(t, ws, user, { name: 's3', sql: 'SELECT v FROM sel.s2', target_table: 'sel.s3' });
    const other = await createTransformOk(t, ws, user, { name: 'other', sql: 'SELECT 1 AS x', target_table: 'sel.other', depends_on: [one.id] });
    const orderOf = async (body: unknown) => {
      const run = await runAll(t, ws, user, body);
      await waitForDagRun(t, run.dag_run_id);
      return run.order;
    };
    expect(await orderOf({ transform_ids: [two.id] })).toEqual([one.id, two.id]);
    expect(await orderOf({ select: 's2' })).toEqual([two.id]);
    expect(await orderOf({ select: '+s2' })).toEqual([one.id, two.id]);
    expect(await orderOf({ select: 's2+' })).toEqual([two.id, three.id]);
    expect(await orderOf({ select: '+s2+' })).toEqual([one.id, two.id, three.id]);
    expect(await orderOf({ select: 's1+ other' })).toEqual([one.id, two.id, three.id, other.id]);
    expect(await orderOf(null)).toEqual([one.id, two.id, three.id, other.id]);
    expect(await orderOf({ select: 'other' })).toEqual([other.id]);
    for (const [body, status] of [
      [{ select: 'nope' }, 404],
      [{ select: '++s1' }, 400],
      [{ transform_ids: ['01890000-0000-7000-8000-000000000000'] }, 404],
    ] as const) {
      const response = await t.request(`${transformsPath(ws)}/run`, { method: 'POST', json: body, token: user.accessToken });
      expect(response.status).toBe(status);
    }
  }, 120_000);

  test('after a sync, the stale transforms downstream of the changed tables run', async () => {
    const ws = (await createWorkspace(t, user)).id;
    await pushOk(t, ws, user, { table: 'crm.contacts', records: [{ id: 1 }] });
    await pushOk(t, ws, user, { table: 'crm.deals', records: [{ id: 1 }] });
    const contacts = await createTransformOk(t, ws, user, { name: 'contacts', sql: 'SELECT count(*) AS n FROM crm.contacts', target_table: 'm.contacts' });
    const report = await createTransformOk(t, ws, user, { name: 'report', sql: 'SELECT n FROM m.contacts', target_table: 'm.report' });
    const deals = await createTransformOk(t, ws, user, { name: 'deals', sql: 'SELECT count(*) AS n FROM crm.deals', target_table: 'm.deals' });
    expect(await waitForDagRun(t, (await runAll(t, ws, user)).dag_run_id)).toBe('succeeded');

    await pushOk(t, ws, user, { table: 'crm.contacts', records: [{ id: 2 }] });
    await pushOk(t, ws, user, { table: 'crm.deals', records: [{ id: 2 }] });
    const { onSyncFinished } = t.services.transforms.afterSync;
    expect(await onSyncFinished({ workspaceId: ws, connectionId: 'c', jobId: 'j', changedTables: ['crm.unrelated'] })).toBeUndefined();
    const sync = { workspaceId: ws, connectionId: 'c', jobId: 'j', changedTables: ['CRM.contacts'] };
    const dagRunId = await onSyncFinished(sync);
    // The same sync job told again (its activity retried) is the same run, started once.
    expect(await onSyncFinished(sync)).toBe(dagRunId);
    expect(await waitForDagRun(t, dagRunId!)).toBe('succeeded');
    expect(await onSyncFinished(sync)).toBe(dagRunId);
    const runs = await recordedRuns(dagRunId!);
    expect([...runs.keys()].sort()).toEqual(['contacts', 'report']);
    expect([...runs.values()].every((run: RunRow) => run.trigger === 'after_sync')).toBe(true);
    expect(await query(t, ws, 'SELECT n FROM m.report')).toEqual([{ n: 2 }]);
    // deals read a table the sync did not change: still stale, not run.
    expect((await runsOf(t, ws, user, deals.id)).length).toBe(1);
    expect((await runsOf(t, ws, user, contacts.id)).map((run: { trigger: string }) => run.trigger)).toEqual(['after_sync', 'manual']);
    expect((await runsOf(t, ws, user, report.id))[0].dag_run_id).toBe(dagRunId);
  }, 120_000);

  test('the DAG schedule runs all transforms when it fires', async () => {
    const ws = (await createWorkspace(t, user)).id;
    await pushOk(t, ws, user, { table: 'raw.ticks', records: [{ id: 1 }, { id: 2 }] });
    const counted = await createTransformOk(t, ws, user, { name: 'counted', sql: 'SELECT count(*) AS n FROM raw.ticks', target_table: 'sched.counted' });
    const doubled = await createTransformOk(t, ws, user, { name: 'doubled', sql: 'SELECT n * 2 AS n2 FROM sched.counted', target_table: 'sched.doubled' });
    expect((await t.request(`${transformsPath(ws)}/schedule`, { method: 'PUT', json: { schedule: 'every 1h' }, token: user.accessToken })).status).toBe(200);
    // Fire it now rather than in an hour: the same action the schedule takes.
    await t.infra.temporal.client.schedule.getHandle(`transform-dag-schedule-${ws}`).trigger();
    const deadline = Date.now() + 60_000;
    let runs: Awaited<ReturnType<typeof runsOf>> = [];
    while (Date.now() < deadline) {
      runs = await runsOf(t, ws, user, doubled.id);
      if (runs[0]?.status === 'succeeded') break;
      await Bun.sleep(200);
    }
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'succeeded', trigger: 'schedule' });
    const [upstream] = await runsOf(t, ws, user, counted.id);
    expect(upstream).toMatchObject({ status: 'succeeded', trigger: 'schedule', dag_run_id: runs[0].dag_run_id });
    expect(await waitForDagRun(t, runs[0].dag_run_id)).toBe('succeeded');
    expect(await query(t, ws, 'SELECT n2 FROM sched.doubled')).toEqual([{ n2: 4 }]);
    expect((await t.request(`${transformsPath(ws)}/schedule`, { method: 'DELETE', token: user.accessToken })).status).toBe(204);
  }, 120_000);

  test('a deleted workspace loses its transforms, their runs and their schedule', async () => {
    const ws = (await createWorkspace(t, user)).id;
    const created = await createTransformOk(t, ws, user, { name: 'doomed', sql: 'SELECT 1 AS x', target_table: 'p.doomed' });
    expect(await waitForDagRun(t, (await runAll(t, ws, user)).dag_run_id)).toBe('succeeded');
    expect((await t.request(`${transformsPath(ws)}/schedule`, { method: 'PUT', json: { schedule: 'every 1h' }, token: user.accessToken })).status).toBe(200);
    expect((await t.request(`/api/v1/workspaces/${ws}`, { method: 'DELETE', token: user.accessToken })).status).toBe(204);
    expect(await t.infra.temporal.client.workflow.getHandle(workspacePurgeWorkflowId(ws)).result()).toBe('done');
    expect(await t.infra.store.first(transformRows, { workspace_id: ws, transform_id: created.id })).toEqual({
      transforms: 0,
      runs: 0,
      dag_runs: 0,
      schedules: 0,
    });
    const schedule = t.infra.temporal.client.schedule.getHandle(`transform-dag-schedule-${ws}`);
    expect(
      await schedule.describe().then(
        () => 'exists',
        () => 'gone',
      ),
    ).toBe('gone');
  }, 120_000);

  test('a long run answers running, and its workflow tells the live state of its nodes', async () => {
    const ws = (await createWorkspace(t, user)).id;
    const slow = await createTransformOk(t, ws, user, {
      name: 'slow',
      sql: 'SELECT count(*) AS n FROM range(20000000000) r WHERE hash(r.range) % 3 = 0',
      target_table: 'slow.t',
    });
    await createTransformOk(t, ws, user, { name: 'later', sql: 'SELECT n FROM slow.t', target_table: 'slow.later' });
    const response = await t.request(`${transformsPath(ws)}/run`, { method: 'POST', token: user.accessToken });
    const run = await bodyOf(response);
    expect(run.status).toBe('running');
    const live = await t.services.transforms.runs['workflows'].live(run.dag_run_id);
    expect(live?.nodes.map((node) => node.status)).toEqual(['running', 'pending']);
    await t.services.transforms.runs['workflows'].cancel(run.dag_run_id);
    expect(await waitForDagRun(t, run.dag_run_id)).toBe('cancelled');
    const runs = await recordedRuns(run.dag_run_id);
    expect([...runs.values()].map((entry) => entry.status)).toEqual(['cancelled', 'cancelled']);
    expect((await runsOf(t, ws, user, slow.id))[0].status).toBe('cancelled');
  }, 120_000);
});

// On Postgres catalogs independent nodes write side by side; on embedded SQLite catalogs their
// activities run side by side and their writes take turns (see QueryMaterializer).
for (const backend of backends) {
  describe(`a diamond DAG (${backend})`, () => {
    let t: TestApp, user: TestUser;

    beforeAll(async () => ({ t, user } = await withUser(backend, { worker: true, label: 'tf-diamond' })));
    afterAll(() => t.stop());

    test('a 10-node diamond runs in dependency order, independent nodes side by side', async () => {
      const recordedRuns = async (dagRunId: string) =>
        new Map((await t.infra.store.all(listDagRunRuns, { dag_run_id: dagRunId })).map((run) => [run.transform_name, run]));
      const ws = (await createWorkspace(t, user)).id;
      await pushOk(t, ws, user, { table: 'raw.seed', records: [{ id: 1 }] });
      const names = ['a', 'b1', 'b2', 'b3', 'b4', 'c1', 'c2', 'c3', 'c4', 'd'];
      const inputsOf: Record<string, string[]> = {
        a: ['raw.seed'],
        ...Object.fromEntries([1, 2, 3, 4].map((i) => [`b${i}`, ['dag.a']])),
        ...Object.fromEntries([1, 2, 3, 4].map((i) => [`c${i}`, [`dag.b${i}`]])),
        d: ['dag.c1', 'dag.c2', 'dag.c3', 'dag.c4'],
      };
      const ids: Record<string, string> = {};
      for (const name of names) ids[name] = (await createTransformOk(t, ws, user, { name, sql: busy(inputsOf[name]!), target_table: `dag.${name}` })).id;
      const dag = await dagOf(t, ws, user);
      expect(dag.edges.length).toBe(4 + 4 + 4);

      const started = await runAll(t, ws, user);
      expect(started.order[0]).toBe(ids.a);
      expect(started.order.at(-1)).toBe(ids.d);
      const endedAs = await waitForDagRun(t, started.dag_run_id, 120_000);
      const runs = await recordedRuns(started.dag_run_id);
      // A failure names the nodes that did not succeed, and why.
      const unsucceeded = [...runs.values()]
        .filter((run) => run.status !== 'succeeded')
        .map(({ transform_name, status, error_code, error_message }) => ({ transform_name, status, error_code, error_message }));
      expect({ endedAs, unsucceeded }).toEqual({ endedAs: 'succeeded', unsucceeded: [] });
      expect([...runs.values()].every((run) => run.status === 'succeeded' && run.attempts === 1)).toBe(true);
      const span = (name: string) => ({ start: Date.parse(runs.get(name)!.started_at!), end: Date.parse(runs.get(name)!.finished_at!) });
      for (const edge of dag.edges as { from: string; to: string }[]) {
        const from = names.find((name) => ids[name] === edge.from)!;
        const to = names.find((name) => ids[name] === edge.to)!;
        expect(span(from).end).toBeLessThanOrEqual(span(to).start);
      }
      const independent = ['b1', 'b2', 'b3', 'b4', 'c1', 'c2', 'c3', 'c4'];
      const overlapping = independent.flatMap((x) => independent.filter((y) => x < y && span(x).start < span(y).end && span(y).start < span(x).end));
      expect(overlapping.length).toBeGreaterThan(0);
      expect(await query(t, ws, 'SELECT in_0, in_1, in_2, in_3 FROM dag.d')).toEqual([{ in_0: 1, in_1: 1, in_2: 1, in_3: 1 }]);
    }, 180_000);
  });
}
