import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../../support/backends';
import type { TestApp } from '../../support/test-app';
import type { TestUser } from '../../support/accounts';
import { bodyOf } from '../../support/http';
import { connectionsPath, createConnectionOk, createSourceDatabase, postgresSpec, queryRows, syncOk, type SourceDatabase } from '../../support/connections';
import { withWorkspace } from '../../support/fixtures';

for (const backend of backends) {
  describe(`postgres connection on ${backend}`, () => {
    let t: TestApp, user: TestUser, workspaceId: string;
    let source: SourceDatabase;

    beforeAll(async () => {
      source = await createSourceDatabase();
      await source.sql.unsafe(`CREATE TABLE orders (id int PRIMARY KEY, amount numeric(10,2), note text, updated_at timestamptz NOT NULL)`);
      await source.sql.unsafe(
        `INSERT INTO orders SELECT g, g * 1.5, 'note ' || g, timestamptz '2024-01-01' + g * interval '1 minute' FROM generate_series(1, 2500) g`,
      );
      await source.sql.unsafe(
        `CREATE SCHEMA sales; CREATE TABLE sales.regions (code text PRIMARY KEY, name text); INSERT INTO sales.regions VALUES ('eu', 'Europe'), ('us', 'Americas')`,
      );
      ({ t, user, workspaceId } = await withWorkspace(backend, { worker: true, env: { SYNC_BATCH_ROWS: '1000' }, label: 'pg-sync' }));
    });
    afterAll(async () => {
      await t.stop();
      await source.drop();
    });

    test('discover, preview, sync, query, change a row, sync again', async () => {
      const connection = await createConnectionOk(t, user, workspaceId, {
        name: 'shop',
        connector_type: 'postgres',
        spec: postgresSpec(source, { schemas: ['public', 'sales'] }),
      });
      expect(connection.spec.password).toBe('********');
      const base = `${connectionsPath(workspaceId)}/${connection.id}`;

      const streams = await bodyOf(await t.request(`${base}/streams`, { token: user.accessToken }));
      expect(streams.map((stream: { name: string }) => stream.name).sort()).toEqual(['orders', 'sales_regions']);
      const orders = streams.find((stream: { name: string }) => stream.name === 'orders');
      expect(orders.primary_key).toEqual(['id']);
      expect(orders.cursor_candidates).toContain('updated_at');
      expect(orders.columns).toContainEqual({ name: 'amount', type: 'DECIMAL(10,2)', nullable: true });

      const preview = await bodyOf(await t.request(`${base}/preview`, { method: 'POST', json: { stream: 'orders', limit: 3 }, token: user.accessToken }));
      expect(preview.row_count).toBe(3);
      expect(preview.columns.map((column: { name: string }) => column.name)).toEqual(['id', 'amount', 'note', 'updated_at']);

      const first = await syncOk(t, user, workspaceId, connection.id);
      expect(first.records_written).toBe(2502);
      expect(await queryRows(t, user, workspaceId, 'SELECT count(*) AS n, count(DISTINCT id) AS d FROM shop.orders')).toEqual([{ n: 2500, d: 2500 }]);
      expect(await queryRows(t, user, workspaceId, 'SELECT name FROM shop.sales_regions ORDER BY code')).toEqual([{ name: 'Europe' }, { name: 'Americas' }]);

      await source.sql.unsafe(`UPDATE orders SET note = 'changed' WHERE id = 7`);
      await syncOk(t, user, workspaceId, connection.id);
      expect(await queryRows(t, user, workspaceId, 'SELECT note FROM shop.orders WHERE id = 7')).toEqual([{ note: 'changed' }]);
      expect(await queryRows(t, user, workspaceId, 'SELECT count(*) AS n FROM shop.orders')).toEqual([{ n: 2500 }]);
    }, 180_000);
  });
}
