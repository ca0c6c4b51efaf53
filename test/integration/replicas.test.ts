// npm test: heavy, it starts four service processes of its own (two API replicas, two workers) and kills some of them.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { gzipSync } from 'node:zlib';
import { namedQuery } from '../../src/store/named-query';
import { createSourceDatabase, postgresSpec, type SourceDatabase } from '../support/connections';
import { logLines, Replicas, type Answer } from '../support/replicas';
import type { ServiceProcess } from '../support/service-process';

/**
 * Two API replicas and two workers, each its own `bun src/main.ts api|worker` process on the test
 * Postgres, MinIO and Temporal, started once for every case here (each case makes its own account and
 * workspaces, and a case that kills a process starts another before it ends, so the cases run in any
 * order). What one process does, every other sees; each workspace's engine work runs on one owner.
 */
const usePlan = namedQuery<{ id: string; plan: string }>('test.replicas_use_plan', 'UPDATE workspaces SET plan_id = :plan WHERE id = :id');
const countConnections = namedQuery<Record<never, never>, { n: number }>(
  'test.replicas_connections',
  'SELECT CAST(count(*) AS INTEGER) AS n FROM pg_stat_activity WHERE datname = current_database()',
);

/** About a second and a half of DuckDB work on this machine, whatever the workspace holds. */
const slowQuery = 'SELECT count(*) AS n FROM range(50000000) t(a) WHERE hash(a) % 7 = 0';
/** Several seconds of it: long enough to kill the process running it. */
const longQuery = 'SELECT count(*) AS n FROM range(300000000) t(a) WHERE hash(a) % 7 = 0';
/** Runs until the query time limit on any machine: a case sees it running before it acts. */
const endlessQuery = 'SELECT count(*) AS n FROM range(1000000000000) t(a) WHERE hash(a) % 7 = 0';

let replicas: Replicas;
let source: SourceDatabase;

beforeAll(async () => {
  // Two instances a process at most, so that a handful of workspaces makes queries wait for one; the
  // machine the tests share opens an instance in seconds when loaded, hence the longer time limit.
  replicas = await Replicas.start({ apis: 2, workers: 2 }, { PUBLIC_VIEWS_PER_LINK: '6', DUCKDB_MAX_INSTANCES: '2', QUERY_TIMEOUT_MS: '60000' });
  source = await createSourceDatabase();
}, 400_000);

afterAll(async () => {
  await replicas?.stop();
  await source?.drop();
});

const api = (index: number) => replicas.apis[index % replicas.apis.length]!;
const query = (via: ServiceProcess, token: string, workspaceId: string, sql: string) =>
  replicas.call(via, '/api/v1/query', { token, json: { workspace_id: workspaceId, sql, format: 'objects' } });
const push = (via: ServiceProcess, token: string, workspaceId: string, records: unknown[], headers: Record<string, string> = {}) =>
  replicas.call(via, `/api/v1/workspaces/${workspaceId}/push`, { token, json: { table: 'app.events', records }, headers });
const countOf = async (via: ServiceProcess, token: string, workspaceId: string) =>
  (await query(via, token, workspaceId, 'SELECT count(*) AS n FROM app.events')).body.data[0].n;
const records = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ id: from + i, v: (from + i) % 97 }));

describe('API replicas and workers sharing one deployment', () => {
  test('any replica answers for any workspace, read-after-write included; each workspace opens one query instance, on its owner', async () => {
    const { token } = await replicas.user('any');
    const workspaces = await Promise.all([0, 1, 2].map((i) => replicas.workspace(api(i), token, `any${i}`)));
    for (const [i, workspaceId] of workspaces.entries()) {
      // Written through one replica, read at once through the other.
      expect((await push(api(i), token, workspaceId, records(0, 10))).status).toBe(200);
      expect(await countOf(api(i + 1), token, workspaceId)).toBe(10);
      expect((await push(api(i + 1), token, workspaceId, records(10, 5))).status).toBe(200);
      expect(await countOf(api(i), token, workspaceId)).toBe(15);
    }
    for (const workspaceId of workspaces) {
      expect(replicas.openedOn(workspaceId).filter((process) => replicas.apis.includes(process))).toHaveLength(1);
    }
    // Usage of queries answered on both replicas adds up (their roll-ups are written in key order, without deadlocks).
    const workspaceId = workspaces[0]!;
    await Promise.all(Array.from({ length: 6 }, (_, i) => query(api(i), token, workspaceId, 'SELECT 1 AS one')));
    const usage = await replicas.call(api(1), `/api/v1/workspaces/${workspaceId}/usage/current`, { token });
    expect(usage.status).toBe(200);
    for (const process of replicas.apis) expect(process.output()).not.toContain('deadlock');
  }, 120_000);

  test('a request that claims to be forwarded without the deployment’s key is an ordinary request: what it claims counts for nothing', async () => {
    const owner = await replicas.user('victim');
    const workspaceId = await replicas.workspace(api(0), owner.token, 'victim');
    const { token } = await replicas.user('intruder');
    const claimed = Buffer.from(JSON.stringify({ caller: { userId: 'someone', via: 'jwt' }, membership: { workspaceId, role: 'OWNER' } })).toString(
      'base64url',
    );
    for (const forwardToken of ['', 'bm90IHRoZSBrZXk', 'A'.repeat(43)]) {
      for (const via of replicas.apis) {
        const headers = { 'x-oxbow-forward-token': forwardToken, 'x-oxbow-forward-identity': claimed };
        const anonymous = await replicas.call(via, '/api/v1/query', { json: { workspace_id: workspaceId, sql: 'SELECT 1 AS one' }, headers });
        expect(anonymous.status).toBe(401);
        const other = await replicas.call(via, '/api/v1/query', { token, json: { workspace_id: workspaceId, sql: 'SELECT 1 AS one' }, headers });
        expect([other.status, other.body.detail?.error?.code]).toEqual([403, 'WORKSPACE_ACCESS_DENIED']);
      }
    }
  }, 60_000);

  test('pushes to one table from both replicas land exactly once; an Idempotency-Key holds across replicas', async () => {
    const { token } = await replicas.user('push');
    const workspaceId = await replicas.workspace(api(0), token, 'push');
    const batches = Array.from({ length: 40 }, (_, i) => i);
    for (let i = 0; i < batches.length; i += 8) {
      const answers = await Promise.all(batches.slice(i, i + 8).map((batch) => push(api(batch), token, workspaceId, records(batch * 1_000, 1_000))));
      expect(answers.map((answer) => answer.status)).toEqual(Array(answers.length).fill(200));
    }
    expect(await countOf(api(1), token, workspaceId)).toBe(40_000);

    const key = { 'idempotency-key': `push-once-${Date.now()}` };
    const first = await push(api(0), token, workspaceId, records(100_000, 3), key);
    const again = await push(api(1), token, workspaceId, records(100_000, 3), key);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await push(api(1), token, workspaceId, records(200_000, 3), key)).status).toBe(409);
    expect(await countOf(api(0), token, workspaceId)).toBe(40_003);
  }, 120_000);

  test('the per-minute query limit and the public view limits count across replicas', async () => {
    const { token } = await replicas.user('limits');
    const workspaceId = await replicas.workspace(api(0), token, 'limits');
    // Free: 10 queries a minute for the workspace, wherever they arrive.
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await query(api(i), token, workspaceId, 'SELECT 1 AS one')).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.slice(10)).toEqual([429, 429]);

    await replicas.store.run(usePlan, { id: workspaceId, plan: 'business' });
    const chart = await replicas.call(api(1), `/api/v1/workspaces/${workspaceId}/charts`, {
      token,
      json: { name: 'ones', title: 'Ones', sql: 'SELECT 1 AS one', chart_type: 'table', config: {} },
    });
    expect(chart.status).toBe(201);
    const link = await replicas.call(api(0), `/api/v1/workspaces/${workspaceId}/charts/ones/publish`, { token, json: {} });
    expect(link.status).toBe(201);
    // PUBLIC_VIEWS_PER_LINK is 6 for this deployment: six views in all, not six per replica.
    const views: number[] = [];
    for (let i = 0; i < 9; i++) views.push((await fetch(`${api(i).baseUrl}/c/${link.body.token}/data`)).status);
    expect(views).toEqual([200, 200, 200, 200, 200, 200, 429, 429, 429]);
  }, 120_000);

  test("a Free workspace never runs more than its plan's 2 queries at once, however they are spread over the replicas", async () => {
    const { token } = await replicas.user('free');
    const workspaceId = await replicas.workspace(api(0), token, 'free');
    expect((await query(api(0), token, workspaceId, 'SELECT 1 AS warm')).status).toBe(200);
    let peak = 0;
    let queued = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const running = await Promise.all(replicas.apis.map((process) => replicas.metric(process, 'oxbow_engine_statements', { state: 'running' })));
        const waiting = await Promise.all(replicas.apis.map((process) => replicas.metric(process, 'oxbow_engine_statements', { state: 'queued' })));
        peak = Math.max(
          peak,
          running.reduce((a, b) => a + b, 0),
        );
        queued = Math.max(
          queued,
          waiting.reduce((a, b) => a + b, 0),
        );
        await Bun.sleep(20);
      }
    })();
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => query(api(i), token, workspaceId, slowQuery)));
    sampling = false;
    await sampler;
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(peak).toBe(2);
    expect(queued).toBeGreaterThan(0);
  }, 120_000);

  test('a live connection made on one replica reads at once on the other, and is gone at once when removed', async () => {
    const { token } = await replicas.user('live');
    const workspaceId = await replicas.workspace(api(0), token, 'live');
    await source.sql.unsafe('CREATE TABLE IF NOT EXISTS accounts (id INTEGER PRIMARY KEY, balance INTEGER)');
    await source.sql.unsafe('INSERT INTO accounts SELECT g, g * 10 FROM generate_series(1, 25) g ON CONFLICT DO NOTHING');
    // The owner has the workspace's query instance open before the connection exists.
    expect((await query(api(0), token, workspaceId, 'SELECT 1 AS warm')).status).toBe(200);
    const owner = replicas.ownerOf(workspaceId);
    const other = replicas.other(owner);

    const created = await replicas.call(other, `/api/v1/workspaces/${workspaceId}/connections`, {
      token,
      json: { name: 'bank', connector_type: 'postgres', spec: postgresSpec(source), query_mode: 'live' },
    });
    expect(created.status).toBe(201);
    const total = 'SELECT count(*) AS n FROM bank.accounts';
    const read = [await query(other, token, workspaceId, total), await query(owner, token, workspaceId, total)];
    expect(read.map((answer) => [answer.status, answer.body.data?.[0]?.n])).toEqual([
      [200, 25],
      [200, 25],
    ]);

    expect((await replicas.call(owner, `/api/v1/workspaces/${workspaceId}/connections/${created.body.id}`, { method: 'DELETE', token })).status).toBe(204);
    const gone = await query(other, token, workspaceId, total);
    expect([gone.status, gone.body.detail?.error?.code]).toEqual([400, 'UNDEFINED_TABLE']);
  }, 120_000);

  test("a deleted workspace's instances close on every process that held one within 2 s", async () => {
    const { token } = await replicas.user('deleted');
    const workspaceId = await replicas.workspace(api(1), token, 'deleted');
    expect((await push(api(0), token, workspaceId, records(0, 10))).status).toBe(200);
    // A job opens the workspace's background instance on a worker.
    const job = await replicas.call(api(1), '/api/v1/query/jobs', { token, json: { workspace_id: workspaceId, sql: 'SELECT count(*) AS n FROM app.events' } });
    expect(job.status).toBeLessThan(300);
    const finished = await waitFor(
      () => replicas.call(api(0), `/api/v1/query/jobs/${job.body.job_id}`, { token }),
      (answer) => answer.body.status === 'succeeded',
      60_000,
    );
    expect(finished.body.status).toBe('succeeded');
    const holders = [...replicas.openedOn(workspaceId, 'interactive'), ...replicas.openedOn(workspaceId, 'background')];
    expect(holders.some((process) => replicas.workers.includes(process))).toBe(true);
    expect(holders.some((process) => replicas.apis.includes(process))).toBe(true);

    expect((await replicas.call(api(0), `/api/v1/workspaces/${workspaceId}`, { method: 'DELETE', token })).status).toBe(204);
    const deletedAt = performance.now();
    const closedEverywhere = () => holders.every((process) => logLines(process, 'workspace engine closed').some((line) => line.workspace_id === workspaceId));
    while (!closedEverywhere() && performance.now() - deletedAt < 5_000) await Bun.sleep(20);
    expect(closedEverywhere()).toBe(true);
    expect(performance.now() - deletedAt).toBeLessThan(2_000);
  }, 120_000);

  test('instances stay within DUCKDB_MAX_INSTANCES per process (a query waits for one), and Postgres connections within their bound', async () => {
    const { token } = await replicas.user('bounded');
    // Six workspaces over two replicas: one of them owns at least three, one more than it may open at once.
    const workspaces = await Promise.all(Array.from({ length: 6 }, (_, i) => replicas.workspace(api(i), token, `bounded${i}`)));
    let peak = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        for (const process of replicas.apis) peak = Math.max(peak, await replicas.metric(process, 'oxbow_engine_instances'));
        await Bun.sleep(20);
      }
    })();
    const answers = await Promise.all(workspaces.map((workspaceId, i) => query(api(i), token, workspaceId, 'SELECT 42 AS n')));
    sampling = false;
    await sampler;
    expect(answers.map((answer) => [answer.status, answer.body.detail?.error?.message])).toEqual(Array(6).fill([200, undefined]));
    expect(peak).toBeLessThanOrEqual(2);
    expect(replicas.apis.some((process) => logLines(process, 'workspace engine closed').some((line) => line.reason === 'room for another workspace'))).toBe(
      true,
    );
    // Per process (docs/operations.md): the metadata pool (10), the catalog readers (4), the cluster
    // session and its listener (2), an idle catalog connection per instance (2 × 1), and one per
    // statement running (16); and this test's own two.
    const { n } = (await replicas.store.first(countConnections, {}))!;
    expect(n).toBeLessThanOrEqual(replicas.apis.length * (10 + 4 + 2 + 2 + 16) + replicas.workers.length * (10 + 4 + 2 + 2 + 16) + 2);
  }, 120_000);

  test('an owner killed outright mid-query: its workspaces answer from the other replica within 10 s, and nothing is answered twice', async () => {
    try {
      const { token } = await replicas.user('failover');
      const workspaceId = await replicas.workspace(api(0), token, 'failover');
      expect((await push(api(0), token, workspaceId, records(0, 10))).status).toBe(200);
      const owner = replicas.ownerOf(workspaceId);
      const survivor = replicas.other(owner);

      const answers: Answer[] = [];
      const direct = query(owner, token, workspaceId, endlessQuery).then(
        (answer) => answers.push(answer),
        () => 'connection lost',
      );
      const forwarded = query(survivor, token, workspaceId, endlessQuery).then((answer) => answers.push(answer));
      // Both statements running on the owner (the Free plan's two at once), the forwarded one included.
      const running = () => replicas.metric(owner, 'oxbow_engine_statements', { state: 'running' });
      for (const started = performance.now(); (await running()) < 2 && performance.now() - started < 30_000;) await Bun.sleep(50);
      expect(await running()).toBe(2);
      await replicas.kill(owner);
      const killedAt = performance.now();
      expect(await direct).toBe('connection lost');
      await forwarded;
      // The forwarded query's one answer: the owner may have run it, so it is not sent again.
      expect(answers.map((answer) => [answer.status, answer.body.detail?.error?.code, answer.headers.get('retry-after')])).toEqual([
        [503, 'SERVICE_UNAVAILABLE', '1'],
      ]);

      let answer = await countAnswer(survivor, token, workspaceId);
      while (answer.status !== 200 && performance.now() - killedAt < 10_000) {
        expect([503, 0]).toContain(answer.status);
        await Bun.sleep(200);
        answer = await countAnswer(survivor, token, workspaceId);
      }
      expect(answer.status).toBe(200);
      expect(answer.body.data[0].n).toBe(10);
      expect(performance.now() - killedAt).toBeLessThan(10_000);

      // A replacement joins with the same environment and takes its share of the workspaces.
      const joined = await replicas.add('api');
      expect(await countOf(joined, token, workspaceId)).toBe(10);
    } finally {
      await replicas.replenish();
    }
  }, 300_000);

  test('an upload sent to a replica that does not own the workspace streams on to its owner: written once, an Idempotency-Key holding', async () => {
    const { token } = await replicas.user('upload');
    const workspaceId = await replicas.workspace(api(0), token, 'upload');
    expect((await query(api(0), token, workspaceId, 'SELECT 1 AS warm')).status).toBe(200);
    const owner = replicas.ownerOf(workspaceId);
    const other = replicas.other(owner);
    const rows = 200_000;
    // Larger than one read of a socket: it streams through the replica in many chunks.
    const csv = gzipSync(Buffer.from(`id,v,label\n${Array.from({ length: rows }, (_, i) => `${i},${i % 97},row ${i}`).join('\n')}\n`));
    const upload = (key: string, body: Uint8Array<ArrayBuffer> = new Uint8Array(csv)) =>
      replicas.call(other, `/api/v1/workspaces/${workspaceId}/push?table=app.uploaded`, {
        token,
        body,
        headers: { 'content-type': 'text/csv', 'content-encoding': 'gzip', 'idempotency-key': key },
      });
    const key = `upload-once-${Date.now()}`;
    const first = await upload(key);
    expect([first.status, first.body]).toEqual([200, { records_written: rows, table: 'app.uploaded' }]);
    // The client did not see the answer and sends it again, through the same replica or the other.
    const again = await upload(key);
    expect([again.status, again.body]).toEqual([200, first.body]);
    const elsewhere = await replicas.call(owner, `/api/v1/workspaces/${workspaceId}/push?table=app.uploaded`, {
      token,
      body: new Uint8Array(csv),
      headers: { 'content-type': 'text/csv', 'content-encoding': 'gzip', 'idempotency-key': key },
    });
    expect([elsewhere.status, elsewhere.body]).toEqual([200, first.body]);
    // The same key with another body is a conflict, not a second write.
    expect((await upload(key, new Uint8Array(gzipSync(Buffer.from('id,v,label\n1,1,other\n'))))).status).toBe(409);
    const total = await query(other, token, workspaceId, 'SELECT count(*) AS n, count(DISTINCT id) AS ids, sum(v) AS v FROM app.uploaded');
    expect(total.body.data).toEqual([{ n: rows, ids: rows, v: Array.from({ length: rows }, (_, i) => i % 97).reduce((a, b) => a + b, 0) }]);
    // The upload was written on the owner: the replica that took it opened no instance of the workspace.
    expect(replicas.openedOn(workspaceId).filter((process) => replicas.apis.includes(process))).toEqual([owner]);
  }, 120_000);

  test("jobs are submitted, listed, followed page by page, cancelled and deleted through either replica; their results are read on the workspace's owner alone", async () => {
    const { token } = await replicas.user('jobroutes');
    const workspaceId = await replicas.workspace(api(0), token, 'jobroutes');
    await replicas.store.run(usePlan, { id: workspaceId, plan: 'business' });
    expect((await push(api(0), token, workspaceId, records(0, 30))).status).toBe(200);
    const owner = replicas.ownerOf(workspaceId);
    const other = replicas.other(owner);
    const submit = (via: ServiceProcess, sql: string) =>
      replicas.call(via, '/api/v1/query/jobs', { token, json: { workspace_id: workspaceId, sql, format: 'objects' } });
    const status = (via: ServiceProcess, jobId: string, page = '') => replicas.call(via, `/api/v1/query/jobs/${jobId}${page}`, { token });

    // A result followed page by page through the replica that does not own the workspace, and through the owner.
    const paged = await submit(other, 'SELECT id, v FROM app.events ORDER BY id');
    expect(paged.status).toBeLessThan(300);
    const done = await waitFor(
      () => status(other, paged.body.job_id),
      (answer) => answer.body.status === 'succeeded',
      60_000,
    );
    expect(done.body.result.row_count).toBe(30);
    for (const via of [other, owner]) {
      const page = await status(via, paged.body.job_id, '?offset=10&limit=5');
      expect([page.status, page.body.result.data]).toEqual([200, records(10, 5)]);
    }

    // A running job cancelled through the replica it was not submitted to; DELETE, which takes pending jobs only, refused for an ended one.
    const running = await submit(owner, endlessQuery);
    expect(
      (
        await waitFor(
          () => status(other, running.body.job_id),
          (answer) => answer.body.status === 'running',
          60_000,
        )
      ).body.status,
    ).toBe('running');
    const cancelled = await replicas.call(other, `/api/v1/query/jobs/${running.body.job_id}/cancel`, { method: 'POST', token });
    expect(cancelled.body).toEqual({ job_id: running.body.job_id, status: 'cancelled' });
    expect((await status(owner, running.body.job_id)).body.status).toBe('cancelled');
    const listed = await replicas.call(other, `/api/v1/query/jobs?workspace_id=${workspaceId}`, { token });
    expect(listed.body.map((job: { job_id: string; status: string }) => [job.job_id, job.status])).toEqual([
      [running.body.job_id, 'cancelled'],
      [paged.body.job_id, 'succeeded'],
    ]);
    expect(listed.headers.get('x-total-count')).toBe('2');
    const stillPending = await replicas.call(owner, `/api/v1/query/jobs/${paged.body.job_id}`, { method: 'DELETE', token });
    expect([stillPending.status, stillPending.body.detail?.error?.code]).toEqual([409, 'JOB_NOT_PENDING']);

    // A query sent with async_after_ms through the other replica: answered at once when quick, handed over as a job when not.
    const quick = await replicas.call(other, '/api/v1/query', {
      token,
      json: { workspace_id: workspaceId, sql: 'SELECT count(*) AS n FROM app.events', format: 'objects', async_after_ms: 20_000 },
    });
    expect([quick.status, quick.body.data]).toEqual([200, [{ n: 30 }]]);
    const handedOver = await replicas.call(other, '/api/v1/query', {
      token,
      json: { workspace_id: workspaceId, sql: slowQuery, format: 'objects', async_after_ms: 100 },
    });
    expect(handedOver.status).toBe(202);
    const finished = await waitFor(
      () => status(other, handedOver.body.job_id),
      (answer) => answer.body.status === 'succeeded',
      60_000,
    );
    expect(finished.body.result.data).toHaveLength(1);

    // However many pages were read through it, the replica that does not own the workspace never opened it.
    expect(replicas.openedOn(workspaceId).filter((process) => replicas.apis.includes(process))).toEqual([owner]);
  }, 180_000);
});

describe('workers sharing the workspaces', () => {
  test("a workspace's jobs run on one worker, which keeps its background instance; each worker serves its share", async () => {
    const { token } = await replicas.user('jobs');
    const workspaces = await Promise.all(Array.from({ length: 6 }, (_, i) => replicas.workspace(api(i), token, `jobs${i}`)));
    await replicas.store.run(usePlan, { id: workspaces[0]!, plan: 'business' });
    const jobs = await Promise.all(
      workspaces.flatMap((workspaceId, i) =>
        Array.from({ length: i === 0 ? 3 : 1 }, () =>
          replicas.call(api(i), '/api/v1/query/jobs', { token, json: { workspace_id: workspaceId, sql: 'SELECT 7 AS n' } }),
        ),
      ),
    );
    for (const job of jobs) {
      expect(job.status).toBeLessThan(300);
      const finished = await waitFor(
        () => replicas.call(api(0), `/api/v1/query/jobs/${job.body.job_id}`, { token }),
        (answer) => answer.body.status === 'succeeded',
        60_000,
      );
      expect(finished.body.status).toBe('succeeded');
    }
    // Three jobs of one workspace: one background instance, on one worker.
    expect(replicas.openedOn(workspaces[0]!, 'background')).toHaveLength(1);
    const holders = new Set(workspaces.map((workspaceId) => replicas.openedOn(workspaceId, 'background')[0]));
    expect([...holders].every((process) => process && replicas.workers.includes(process))).toBe(true);
  }, 120_000);

  test('a worker killed outright mid-job: another worker takes its shards and finishes the job, once', async () => {
    try {
      await workerKilledMidJob();
    } finally {
      await replicas.replenish();
    }
  }, 400_000);
});

async function workerKilledMidJob(): Promise<void> {
  const { token } = await replicas.user('workerkill');
  const workspaceId = await replicas.workspace(api(0), token, 'workerkill');
  const submitted = await replicas.call(api(1), '/api/v1/query/jobs', { token, json: { workspace_id: workspaceId, sql: longQuery } });
  expect(submitted.status).toBeLessThan(300);
  const status = () => replicas.call(api(0), `/api/v1/query/jobs/${submitted.body.job_id}`, { token });
  expect((await waitFor(status, (answer) => answer.body.status === 'running', 60_000)).body.status).toBe('running');
  const opened = () => replicas.openedOn(workspaceId, 'background');
  for (const started = performance.now(); opened().length === 0 && performance.now() - started < 30_000;) await Bun.sleep(50);
  const [runner] = opened();
  expect(runner && replicas.workers.includes(runner)).toBe(true);
  await replicas.kill(runner!);

  const finished = await waitFor(status, (answer) => answer.body.status !== 'running' && answer.body.status !== 'pending', 90_000);
  expect(finished.body.status).toBe('succeeded');
  expect(finished.body.result.row_count).toBe(1);
  const survivor = replicas.openedOn(workspaceId, 'background').filter((process) => process !== runner);
  expect(survivor).toHaveLength(1);
}

async function countAnswer(via: ServiceProcess, token: string, workspaceId: string): Promise<Answer> {
  return query(via, token, workspaceId, 'SELECT count(*) AS n FROM app.events').catch(() => ({ status: 0, headers: new Headers(), body: undefined }));
}

async function waitFor(read: () => Promise<Answer>, accept: (answer: Answer) => boolean, timeoutMs: number): Promise<Answer> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const answer = await read();
    if (accept(answer) || performance.now() > deadline) return answer;
    await Bun.sleep(200);
  }
}
