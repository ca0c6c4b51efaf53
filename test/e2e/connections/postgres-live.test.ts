import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../../support/test-app';
import type { TestUser } from '../../support/accounts';
import { bodyOf } from '../../support/http';
import {
  connectionsPath,
  createConnectionOk,
  createSourceDatabase,
  postgresSpec,
  queryAnswer,
  queryRows,
  type SourceDatabase,
} from '../../support/connections';
import { withWorkspace } from '../../support/fixtures';

/** Asks until the answer satisfies the check: a workspace's instance attaches a changed set of live sources within seconds. */
async function eventually(work: () => Promise<unknown>, check: (value: any) => boolean, timeoutMs = 30_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await work();
    if (check(value) || Date.now() > deadline) return value;
    await Bun.sleep(250);
  }
}

describe('a postgres connection in live query mode', () => {
  let t: TestApp, user: TestUser, workspaceId: string;
  let source: SourceDatabase;

  beforeAll(async () => {
    source = await createSourceDatabase();
    await source.sql.unsafe(`CREATE TABLE accounts (id int PRIMARY KEY, owner text, balance numeric(10,2))`);
    await source.sql.unsafe(`INSERT INTO accounts SELECT g, 'owner ' || g, g * 10 FROM generate_series(1, 25) g`);
    await source.sql.unsafe(`CREATE SCHEMA hidden; CREATE TABLE hidden.secrets (v text); INSERT INTO hidden.secrets VALUES ('do not read')`);
    ({ t, user, workspaceId } = await withWorkspace('local', { worker: true, label: 'pg-live' }));
  });
  afterAll(async () => {
    await t.stop();
    await source.drop();
  });

  test('queries read the source in place: a change is seen without a sync, nothing is copied, nothing else of the source is reachable', async () => {
    const connection = await createConnectionOk(t, user, workspaceId, {
      name: 'bank',
      connector_type: 'postgres',
      spec: postgresSpec(source),
      query_mode: 'live',
    });
    expect(connection.query_mode).toBe('live');

    const total = 'SELECT count(*) AS n, CAST(sum(balance) AS INTEGER) AS s FROM bank.accounts';
    expect(
      await eventually(
        () => queryRows(t, user, workspaceId, total),
        (rows) => rows[0]?.n === 25,
      ),
    ).toEqual([{ n: 25, s: 3250 }]);

    await source.sql.unsafe(`UPDATE accounts SET balance = 0 WHERE id = 25`);
    await source.sql.unsafe(`INSERT INTO accounts VALUES (26, 'late', 1)`);
    expect(await queryRows(t, user, workspaceId, total)).toEqual([{ n: 26, s: 3001 }]);
    expect(await queryRows(t, user, workspaceId, `SELECT owner FROM bank.accounts a JOIN (SELECT 26 AS id) b USING (id)`)).toEqual([{ owner: 'late' }]);

    // Read in place: no sync job ran and the lake holds no table of it.
    const jobs = await t.request(`${connectionsPath(workspaceId)}/${connection.id}/sync-jobs`, { token: user.accessToken });
    expect(await bodyOf(jobs)).toEqual([]);
    const { tables } = await bodyOf(await t.request(`/api/v1/workspaces/${workspaceId}/query/tables`, { token: user.accessToken }));
    expect(JSON.stringify(tables)).not.toContain('accounts');

    // Only the configured schemas, only as <connection>.<table>, and never written to.
    const refusals = [
      'SELECT * FROM bank.secrets',
      'SELECT * FROM bank.hidden.secrets',
      `SELECT * FROM live_${connection.id.replaceAll('-', '')}.public.accounts`,
      `SELECT * FROM postgres_query('live_${connection.id.replaceAll('-', '')}', 'SELECT * FROM hidden.secrets')`,
      `INSERT INTO bank.accounts VALUES (27, 'x', 1)`,
      `SELECT * FROM bank.accounts AT (VERSION => 1)`,
    ];
    for (const sql of refusals) {
      const answer = await queryAnswer(t, user, workspaceId, sql);
      expect({ sql, status: answer.status }).toEqual({ sql, status: 400 });
      expect(JSON.stringify(answer.body)).not.toContain('do not read');
    }
  }, 120_000);

  test('switching a connection to live and back: its name reads the source, then the synced table', async () => {
    const connection = await createConnectionOk(t, user, workspaceId, {
      name: 'ledger',
      connector_type: 'postgres',
      spec: postgresSpec(source),
      streams: [{ name: 'accounts', sync_mode: 'full_refresh_overwrite' }],
    });
    const base = `${connectionsPath(workspaceId)}/${connection.id}`;
    expect((await queryAnswer(t, user, workspaceId, 'SELECT count(*) AS n FROM ledger.accounts')).status).toBe(400);

    expect((await t.request(base, { method: 'PATCH', json: { query_mode: 'live' }, token: user.accessToken })).status).toBe(200);
    const live = await eventually(
      () => queryAnswer(t, user, workspaceId, 'SELECT count(*) AS n FROM ledger.accounts'),
      (answer) => answer.status === 200,
    );
    expect(live.body.data[0].n).toBeGreaterThanOrEqual(25);

    expect((await t.request(base, { method: 'PATCH', json: { query_mode: 'synced' }, token: user.accessToken })).status).toBe(200);
    const synced = await eventually(
      () => queryAnswer(t, user, workspaceId, 'SELECT count(*) AS n FROM ledger.accounts'),
      (answer) => answer.status === 400,
    );
    expect(synced.status).toBe(400);
  }, 120_000);
});
