import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliHome, expectExit, startCliService, userWithKey } from '../../support/cli';
import { createWorkspace, useBusinessPlan } from '../../support/workspaces';
import { slowSql, submitJobOk, waitForJob } from '../../support/jobs';
import { query } from '../../support/lake';
import { createConnectionOk, createSourceDatabase, postgresSpec, type SourceDatabase } from '../../support/connections';
import { createTransformOk } from '../../support/transforms';
import type { TestUser } from '../../support/accounts';

describe('oxbow query --job, jobs, an interrupted push, connections and transforms', () => {
  let service: Awaited<ReturnType<typeof startCliService>>;
  let user: TestUser;
  let key: string;
  let source: SourceDatabase;
  beforeAll(async () => {
    // One job slot: a second job waits, pending, while a slow one runs.
    service = await startCliService({ QUERY_JOB_CONCURRENCY: '1' });
    ({ user, key } = await userWithKey(service.t, 'cli-work'));
    source = await createSourceDatabase();
  });
  afterAll(async () => {
    await service?.stop();
    await source?.drop();
  });

  /** A home logged in and working in a new workspace of its own. */
  async function freshHome(label: string): Promise<{ home: CliHome; workspaceId: string }> {
    const workspace = await createWorkspace(service.t, user, label);
    await useBusinessPlan(service.t, workspace.id);
    const home = new CliHome(service.server.url);
    expectExit(await home.run(['login', '--api-key', key]), 0);
    expectExit(await home.run(['workspaces', 'use', workspace.id]), 0);
    return { home, workspaceId: workspace.id };
  }

  test('query --job of a multi-second query draws its progress on the terminal, then pages through the result', async () => {
    const { home } = await freshHome('cli-job');
    try {
      const terminal = expectExit(await home.runInTerminal(['query', '--job', `${slowSql(400)} UNION ALL SELECT 42`], 100), 0);
      const screen = terminal.stdout;
      expect(screen).toMatch(/Job [0-9a-f-]{36} submitted/);
      // Frames of the bar, each redrawn in place, with DuckDB's progress while the job runs.
      const frames = screen.split('\r').filter((frame) => /\[[█░]+\]\s+\d+% running/.test(frame));
      expect(frames.length).toBeGreaterThanOrEqual(2);
      expect(screen).toContain('42');
      expect(screen).toContain('(2 rows)');

      // Paging: 2,500 rows read 1,000 at a time arrive whole and in order.
      const paged = expectExit(
        await home.run(['query', '--job', 'SELECT range AS n FROM range(2500) ORDER BY n', '--format', 'ndjson', '--page-size', '1000']),
        0,
      );
      const rows = paged.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).n);
      expect(rows).toEqual(Array.from({ length: 2500 }, (_, i) => i));
    } finally {
      home.remove();
    }
  }, 120_000);

  test('jobs status, watch and results; a failed job exits 8; a pending job is cancelled', async () => {
    const { home, workspaceId } = await freshHome('cli-jobs');
    try {
      const done = await submitJobOk(service.t, user, { sql: 'SELECT range AS n, range * 2 AS twice FROM range(30)', workspace_id: workspaceId });
      await waitForJob(service.t, user, done);
      expect(JSON.parse(expectExit(await home.run(['jobs', 'status', done, '--json']), 0).stdout)).toMatchObject({
        job_id: done,
        status: 'succeeded',
        row_count: 30,
      });
      expect(expectExit(await home.run(['jobs', 'watch', done]), 0).stdout).toContain('status\tsucceeded');
      expect(expectExit(await home.run(['jobs', 'results', done, '--offset', '10', '--limit', '3', '--format', 'csv', '--page-size', '2']), 0).stdout).toBe(
        'n,twice\n10,20\n11,22\n12,24\n',
      );

      const failing = await submitJobOk(service.t, user, { sql: 'SELECT nope FROM range(3)', workspace_id: workspaceId });
      const watched = await home.run(['jobs', 'watch', failing]);
      expect(watched.code).toBe(8);
      expect(watched.stderr).toContain('failed');
      expect((await home.run(['jobs', 'results', failing])).code).toBe(8);

      const slow = await submitJobOk(service.t, user, { sql: slowSql(300), workspace_id: workspaceId });
      await waitForJob(service.t, user, slow, ['running']);
      const pending = await submitJobOk(service.t, user, { sql: 'SELECT 1 AS one', workspace_id: workspaceId });
      expect(JSON.parse(expectExit(await home.run(['jobs', 'cancel', pending, '--json']), 0).stdout)).toEqual({ job_id: pending, status: 'cancelled' });
      expect(JSON.parse(expectExit(await home.run(['jobs', 'status', pending, '--json']), 0).stdout).status).toBe('cancelled');
      const again = await home.run(['jobs', 'cancel', pending]);
      expect(again.code).toBe(6);
      expect(again.stderr).toContain('already been cancelled');
      expect((await home.run(['jobs', 'status', '01a21cac-5638-74fd-ba79-a5cf7b104479'])).code).toBe(5);
      await waitForJob(service.t, user, slow);
    } finally {
      home.remove();
    }
  }, 120_000);

  test('a push interrupted mid-file and run again writes every record exactly once', async () => {
    const { home, workspaceId } = await freshHome('cli-resume');
    try {
      const total = 40_000;
      const path = join(home.dir, 'big.ndjson');
      writeFileSync(path, Array.from({ length: total }, (_, i) => JSON.stringify({ id: i, payload: `record ${i} ${'x'.repeat(60)}` })).join('\n'));
      const args = ['push', 'load.big', path, '--chunk-rows', '2000', '--json'];
      const first = home.spawn(args);
      const count = async () => {
        try {
          return Number((await query(service.t, workspaceId, 'SELECT count(*) AS n FROM load.big'))[0]!.n);
        } catch {
          return 0;
        }
      };
      // Killed once a few chunks are in, while later ones are still to come (likely in the middle of one).
      let seen = 0;
      while ((seen = await count()) < 6_000 && first.exitCode === null) await Bun.sleep(20);
      expect(first.exitCode).toBeNull();
      first.kill('SIGKILL');
      await first.exited;
      const atKill = await count();
      expect(atKill).toBeGreaterThanOrEqual(seen);
      expect(atKill).toBeLessThan(total);
      expect(atKill % 2000).toBe(0);

      const rerun = JSON.parse(expectExit(await home.run(args), 0).stdout);
      expect(rerun.records_written).toBe(total);
      expect(rerun.files[0].chunks).toBe(20);
      expect(await query(service.t, workspaceId, 'SELECT count(*) AS n, count(DISTINCT id) AS ids, min(id) AS low, max(id) AS high FROM load.big')).toEqual([
        { n: total, ids: total, low: 0, high: total - 1 },
      ]);
      // And a third run changes nothing: every chunk is answered from the service's record.
      expectExit(await home.run(args), 0);
      expect(await count()).toBe(total);
    } finally {
      home.remove();
    }
  }, 180_000);

  test('connections ls and sync --watch', async () => {
    const { home, workspaceId } = await freshHome('cli-sync');
    try {
      await source.sql`CREATE TABLE IF NOT EXISTS cli_orders (id bigint PRIMARY KEY, amount integer)`;
      await source.sql`INSERT INTO cli_orders SELECT i, i * 10 FROM generate_series(1, 25) i ON CONFLICT DO NOTHING`;
      const streams = [{ name: 'cli_orders', sync_mode: 'full_refresh_overwrite' }];
      await createConnectionOk(service.t, user, workspaceId, { name: 'shop', connector_type: 'postgres', spec: postgresSpec(source), streams });
      const list = expectExit(await home.run(['connections', 'ls']), 0);
      expect(list.stdout).toMatch(/^shop\tpostgres\tactive\t/);
      const synced = expectExit(await home.run(['connections', 'sync', 'shop', '--watch']), 0);
      expect(synced.stdout).toMatch(/^cli_orders\tsucceeded\t25\t25\t/m);
      expect(await query(service.t, workspaceId, 'SELECT count(*) AS n, sum(amount) AS total FROM shop.cli_orders')).toEqual([{ n: 25, total: 3250 }]);
      const started = expectExit(await home.run(['connections', 'sync', 'shop']), 0);
      expect(started.stdout.trim()).toMatch(/^[0-9a-f-]{36}$/);
      expect((await home.run(['connections', 'sync', 'nothing'])).code).toBe(5);
    } finally {
      home.remove();
    }
  }, 120_000);

  test('transforms run --select with --watch; a failing transform exits 8', async () => {
    const { home, workspaceId } = await freshHome('cli-transforms');
    try {
      await service.t.request(`/api/v1/workspaces/${workspaceId}/push`, {
        method: 'POST',
        token: user.accessToken,
        json: { table: 'raw.sales', records: [{ amount: 5 }, { amount: 7 }] },
      });
      const base = await createTransformOk(service.t, workspaceId, user, {
        name: 'base',
        sql: 'SELECT amount * 2 AS doubled FROM raw.sales',
        target_table: 'marts.base',
      });
      await createTransformOk(service.t, workspaceId, user, {
        name: 'total',
        sql: 'SELECT sum(doubled) AS total FROM marts.base',
        target_table: 'marts.total',
        depends_on: [base.id],
      });
      await createTransformOk(service.t, workspaceId, user, { name: 'broken', sql: "SELECT 1 / 0 AS boom, error('no') AS e", target_table: 'marts.broken' });
      const run = expectExit(await home.run(['transforms', 'run', '--select', '+total', '--watch']), 0);
      expect(
        run.stdout
          .trim()
          .split('\n')
          .map((line) => line.split('\t').slice(0, 2)),
      ).toEqual([
        ['base', 'succeeded'],
        ['total', 'succeeded'],
      ]);
      expect(await query(service.t, workspaceId, 'SELECT total FROM marts.total')).toEqual([{ total: 24 }]);
      const failed = await home.run(['transforms', 'run', '--select', 'broken', '--watch', '--json']);
      expect(failed.code).toBe(8);
      expect(JSON.parse(failed.stdout).runs[0]).toMatchObject({ transform_name: 'broken', status: 'failed' });
    } finally {
      home.remove();
    }
  }, 120_000);
});
