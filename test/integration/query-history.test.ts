import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../support/backends';
import { type TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import { createVerifiedUser, type TestUser } from '../support/accounts';
import { addMember, createWorkspace, usePlan } from '../support/workspaces';
import { pushOk } from '../support/lake';
import { submitJobOk, useJobsPlan, waitForJob } from '../support/jobs';
import { createTransformOk } from '../support/transforms';
import { createConnectionOk, createSourceDatabase, postgresSpec, syncOk, type SourceDatabase } from '../support/connections';
import { namedQuery } from '../../src/store/named-query';
import type { housekeepingWorkflow } from '../../src/workflows/housekeeping';
import { withWorkspace } from '../support/fixtures';

for (const backend of backends) {
  describe(`query history (${backend})`, () => {
    let t: TestApp;
    let source: SourceDatabase;
    let owner: TestUser;
    let viewer: TestUser;
    let workspaceId: string;
    let apiKey: { id: string; key: string };
    let jobId: string;

    const history = async (query = '', user = owner) => {
      const response = await t.request(`/api/v1/workspaces/${workspaceId}/queries${query}`, { token: user.accessToken });
      expect(response.status).toBe(200);
      return { entries: (await bodyOf(response)) as any[], total: Number(response.headers.get('x-total-count')) };
    };
    const post = (path: string, json?: unknown, headers: Record<string, string> = {}) =>
      t.request(`/api/v1${path}`, { method: 'POST', json, token: headers['x-api-key'] ? undefined : owner.accessToken, headers });

    beforeAll(async () => {
      source = await createSourceDatabase();
      await source.sql.unsafe('CREATE TABLE items (id int PRIMARY KEY, label text)');
      await source.sql.unsafe("INSERT INTO items SELECT g, 'item ' || g FROM generate_series(1, 5) g");
      ({ t, user: owner, workspaceId } = await withWorkspace(backend, { worker: true, label: 'historian' }));
      viewer = await createVerifiedUser(t, 'history-viewer');
      await addMember(t, workspaceId, owner, viewer, 'VIEWER');
      await useJobsPlan(t, workspaceId, 2);
      apiKey = await bodyOf(await post('/auth/api-keys', { name: 'history' }));
      await pushOk(t, workspaceId, owner, {
        table: 'shop.orders',
        records: [
          { id: 1, region: 'north', amount: 10 },
          { id: 2, region: 'south', amount: 20 },
        ],
      });

      // One statement of every kind.
      expect((await post('/query', { sql: "SELECT id FROM shop.orders WHERE region SIMILAR TO 'n%'", workspace_id: workspaceId })).status).toBe(200);
      expect((await post('/query', { sql: 'SELECT missing FROM shop.orders', workspace_id: workspaceId })).status).toBe(400);
      expect((await post('/execute', { sql: 'SELECT count(*) AS n FROM shop.orders', workspace_id: workspaceId }, { 'x-api-key': apiKey.key })).status).toBe(
        200,
      );
      jobId = await submitJobOk(t, owner, { sql: 'SELECT sum(amount) AS total FROM shop.orders', workspace_id: workspaceId });
      await waitForJob(t, owner, jobId);
      expect(
        (
          await post(`/workspaces/${workspaceId}/saved-queries`, {
            name: 'by-region',
            sql: 'SELECT id FROM shop.orders WHERE region = {{region}}',
            parameters: [{ name: 'region', type: 'string' }],
          })
        ).status,
      ).toBe(201);
      expect((await post(`/workspaces/${workspaceId}/saved-queries/by-region/run`, { parameters: { region: 'south' } })).status).toBe(200);
      const chart = {
        name: 'amounts',
        title: 'Amounts',
        sql: 'SELECT region, amount FROM shop.orders',
        chart_type: 'bar',
        config: { x: 'region', y: ['amount'] },
      };
      expect((await post(`/workspaces/${workspaceId}/charts`, chart)).status).toBe(201);
      const { token } = await bodyOf(await post(`/workspaces/${workspaceId}/charts/amounts/publish`, {}));
      expect((await t.request(`/c/${token}/data`)).status).toBe(200);
      const transform = await createTransformOk(t, workspaceId, owner, {
        name: 'totals',
        sql: 'SELECT region, sum(amount) AS total FROM shop.orders GROUP BY region',
        target_table: 'marts.totals',
      });
      expect((await post(`/workspaces/${workspaceId}/transforms/${transform.id}/run`)).status).toBe(200);
      const connection = await createConnectionOk(t, owner, workspaceId, { name: 'inventory', connector_type: 'postgres', spec: postgresSpec(source) });
      await syncOk(t, owner, workspaceId, connection.id);
      // The transform's run ends on its own workflow.
      for (let i = 0; i < 200 && !(await history('?kind=transform')).entries.some((entry) => entry.status === 'succeeded'); i++) await Bun.sleep(100);
    }, 180_000);
    afterAll(async () => {
      await t.stop();
      await source.drop();
    });

    test('every kind of statement is listed, most recent first, with its SQL, translation, caller, times and cost', async () => {
      const { entries, total } = await history('?limit=200');
      expect(total).toBe(entries.length);
      expect(new Set(entries.map((entry) => entry.kind))).toEqual(new Set(['query', 'execute', 'job', 'saved_query', 'chart', 'transform', 'sync']));
      const times = entries.map((entry) => Date.parse(entry.started_at));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      for (const entry of entries) {
        // A copy: toMatchObject leaves its matchers in the object it checks.
        expect({ ...entry }).toMatchObject({
          query_id: expect.any(String),
          status: expect.stringMatching(/^(succeeded|failed)$/),
          sql: expect.any(String),
          started_at: expect.any(String),
          duration_ms: expect.any(Number),
          bytes_scanned: expect.any(Number),
          cpu_ms: expect.any(Number),
          cost_eur: expect.any(Number),
        });
      }
      const byKind = (kind: string) => entries.filter((entry) => entry.kind === kind);

      const [translated] = byKind('query').filter((entry) => entry.status === 'succeeded');
      expect(translated).toMatchObject({
        sql: "SELECT id FROM shop.orders WHERE region SIMILAR TO 'n%'",
        translated_sql: expect.stringContaining('regexp_full_match'),
        caller: { type: 'user', id: owner.userId },
        rows: 1,
        estimated_bytes: expect.any(Number),
      });
      const [failed] = byKind('query').filter((entry) => entry.status === 'failed');
      expect(failed).toMatchObject({ error_code: 'UNDEFINED_COLUMN', sql: 'SELECT missing FROM shop.orders', caller: { type: 'user', id: owner.userId } });
      expect(failed.rows).toBeUndefined();
      expect(failed.translated_sql).toBeUndefined();
      expect(byKind('execute')[0]).toMatchObject({ sql: 'SELECT count(*) AS n FROM shop.orders', caller: { type: 'api_key', id: apiKey.id }, rows: 1 });
      expect(byKind('job')[0]).toMatchObject({ job_id: jobId, query_id: jobId, status: 'succeeded', caller: { type: 'user', id: owner.userId }, rows: 1 });
      expect(byKind('saved_query')[0]).toMatchObject({ caller: { type: 'user', id: owner.userId }, rows: 1 });
      expect(byKind('chart')[0]).toMatchObject({ sql: 'SELECT region, amount FROM shop.orders', caller: { type: 'public' }, rows: 2 });
      expect(byKind('transform')[0]).toMatchObject({
        status: 'succeeded',
        sql: 'SELECT region, sum(amount) AS total FROM shop.orders GROUP BY region',
        caller: { type: 'system' },
      });
      expect(byKind('sync')[0]).toMatchObject({ status: 'succeeded', caller: { type: 'user', id: owner.userId }, rows: 5 });
      for (const entry of entries) expect(entry.job_id === undefined).toBe(entry.kind !== 'job');
    });

    test('filters by kind, status, caller and time; pages with X-Total-Count', async () => {
      const all = await history('?limit=200');
      expect((await history('?kind=job')).entries.map((entry) => entry.query_id)).toEqual([jobId]);
      expect((await history('?status=failed')).entries.map((entry) => entry.error_code)).toEqual(['UNDEFINED_COLUMN']);
      const byKey = await history(`?caller_id=${apiKey.id}`);
      expect(byKey.entries.map((entry) => entry.kind)).toEqual(['execute']);
      const oldest = all.entries.at(-1)!;
      const newest = all.entries[0]!;
      expect((await history(`?until=${encodeURIComponent(oldest.started_at)}`)).total).toBe(0);
      const since = await history(`?since=${encodeURIComponent(newest.started_at)}`);
      expect(since.entries.map((entry) => entry.query_id)).toContain(newest.query_id);
      expect(since.total).toBeLessThan(all.total);
      const page = await history('?limit=2&offset=1');
      expect(page.total).toBe(all.total);
      expect(page.entries.map((entry) => entry.query_id)).toEqual(all.entries.slice(1, 3).map((entry) => entry.query_id));
      for (const bad of ['?kind=nope', '?status=done', '?since=yesterday', '?limit=0', '?limit=201']) {
        expect((await t.request(`/api/v1/workspaces/${workspaceId}/queries${bad}`, { token: owner.accessToken })).status).toBe(422);
      }
    });

    test('VIEWER and above read it; nobody else learns of it', async () => {
      expect((await history('', viewer)).total).toBeGreaterThan(0);
      const stranger = await createVerifiedUser(t, 'history-stranger');
      expect((await t.request(`/api/v1/workspaces/${workspaceId}/queries`, { token: stranger.accessToken })).status).toBe(403);
      expect((await t.request(`/api/v1/workspaces/${workspaceId}/queries`)).status).toBe(401);
    });

    test('entries are kept as long as the plan says (Free 7 days, Business 90), then swept', async () => {
      const free = (await createWorkspace(t, owner, 'history-free')).id;
      const business = (await createWorkspace(t, owner, 'history-business')).id;
      await usePlan(t, business, 'business');
      for (const id of [free, business]) expect((await post(`/workspaces/${id}/query`, { sql: 'SELECT 1 AS one' })).status).toBe(200);
      const count = async (id: string, token = owner.accessToken) =>
        Number((await t.request(`/api/v1/workspaces/${id}/queries`, { token })).headers.get('x-total-count'));
      expect([await count(free), await count(business)]).toEqual([1, 1]);
      t.clock.advance(8 * 24 * 3_600_000);
      try {
        await t.infra.temporal.client.workflow.execute<typeof housekeepingWorkflow>('housekeepingWorkflow', {
          workflowId: `history-sweep-${crypto.randomUUID()}`,
          taskQueue: t.infra.temporal.taskQueue,
        });
        const login = await bodyOf(await t.request('/api/v1/auth/login', { method: 'POST', json: { email: owner.email, password: owner.password } }));
        expect([await count(free, login.access_token), await count(business, login.access_token)]).toEqual([0, 1]);
      } finally {
        t.clock.advance(-8 * 24 * 3_600_000);
      }
    }, 60_000);

    test('the history goes with its workspace', async () => {
      const doomed = (await createWorkspace(t, owner, 'history-doomed')).id;
      expect((await post(`/workspaces/${doomed}/query`, { sql: 'SELECT 1 AS one' })).status).toBe(200);
      // Its entry is written (it is, a few milliseconds after the answer) before the workspace goes.
      await t.services.usageRecorded();
      expect((await t.request(`/api/v1/workspaces/${doomed}`, { method: 'DELETE', token: owner.accessToken })).status).toBe(204);
      await t.infra.temporal.client.workflow.getHandle(`workspace-purge-${doomed}`).result();
      const left = namedQuery<{ id: string }, { n: number | string }>('test.history_left', 'SELECT count(*) AS n FROM query_history WHERE workspace_id = :id');
      expect(Number((await t.infra.store.first(left, { id: doomed }))?.n)).toBe(0);
      expect((await history()).total).toBeGreaterThan(0);
    }, 60_000);
  });
}
