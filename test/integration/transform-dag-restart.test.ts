import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../support/test-app';
import type { TestUser } from '../support/accounts';
import { createWorkspace } from '../support/workspaces';
import { pushOk } from '../support/lake';
import { serviceEnvOf } from '../support/service-env';
import { WorkerProcesses } from '../support/service-process';
import { createTransformOk, runAll, waitForDagRun } from '../support/transforms';
import { listDagRunRuns, type RunRow } from '../../src/transforms/transform-queries';
import { withUser } from '../support/fixtures';

/** A node busy for a second or two, reading the node before it. */
const busy = (input: string) => `SELECT (SELECT count(*) FROM ${input}) AS upstream, count(*) AS n FROM range(300000000) r WHERE hash(r.range) % 7 = 0`;

describe('a DAG run survives its worker being killed', () => {
  let t: TestApp, user: TestUser;
  const workers = new WorkerProcesses(() => ({ ...serviceEnvOf(t), LOG_LEVEL: 'warn' }));

  beforeAll(async () => {
    // The API in this process, the worker in another, as deployed: the worker can die on its own.
    // Postgres catalogs: two processes share a workspace's catalog there, as in production.
    ({ t, user } = await withUser('postgres-s3', { env: { TRANSFORM_RUN_WAIT: '0s' }, label: 'tf-restart' }));
  });
  afterEach(() => workers.killAll());
  afterAll(() => t.stop());

  const runsOf = async (dagRunId: string) =>
    new Map((await t.infra.store.all(listDagRunRuns, { dag_run_id: dagRunId })).map((run) => [run.transform_name, run]));

  /** How many snapshots carry the run's id: each run writes exactly one. */
  const commitsOf = (workspaceId: string, runId: string) =>
    t.services.engine.engines.with(workspaceId, (engine) =>
      engine.read(async (connection) => {
        const reader = await connection.read(`SELECT count(*) FROM ${engine.metadataSchema}.ducklake_snapshot_changes WHERE commit_extra_info LIKE $needle`, {
          needle: `%${runId}%`,
        });
        return Number(reader.getRows()[0]![0]);
      }),
    );

  test('kill -9 in the middle: a new worker finishes the run without running a finished node again', async () => {
    const ws = (await createWorkspace(t, user)).id;
    await pushOk(t, ws, user, { table: 'raw.seed', records: [{ id: 1 }] });
    const names = ['n1', 'n2', 'n3', 'n4', 'n5', 'n6'];
    for (const [index, name] of names.entries()) {
      await createTransformOk(t, ws, user, { name, sql: busy(index === 0 ? 'raw.seed' : `chain.${names[index - 1]}`), target_table: `chain.${name}` });
    }
    const first = await workers.start();
    const run = await runAll(t, ws, user);

    // Kill once two nodes have finished and the third is under way.
    const deadline = Date.now() + 120_000;
    let before: Map<string, RunRow>;
    for (;;) {
      before = await runsOf(run.dag_run_id);
      if (before.get('n2')?.status === 'succeeded' && before.get('n3')?.status === 'running') break;
      if (Date.now() > deadline) throw new Error(`the run did not get going: ${JSON.stringify([...before.values()].map((entry) => entry.status))}`);
      await Bun.sleep(50);
    }
    await workers.kill(first);

    await workers.start();
    expect(await waitForDagRun(t, run.dag_run_id, 150_000)).toBe('succeeded');
    const after = await runsOf(run.dag_run_id);
    for (const name of names) {
      const entry = after.get(name)!;
      expect(entry.status).toBe('succeeded');
      expect(await commitsOf(ws, entry.id)).toBe(1);
    }
    for (const name of ['n1', 'n2']) {
      expect(after.get(name)!.attempts).toBe(1);
      expect(after.get(name)!.finished_at).toBe(before.get(name)!.finished_at);
      expect(after.get(name)!.snapshot_id).toBe(before.get(name)!.snapshot_id);
    }
    // The node that was running when its worker died ran again, once, on the new worker.
    expect(after.get('n3')!.attempts).toBe(2);
  }, 240_000);
});
