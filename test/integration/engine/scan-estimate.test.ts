import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../../support/backends';
import type { TestApp } from '../../support/test-app';
import { pushOk, runQuery } from '../../support/lake';
import { withWorkspace } from '../../support/fixtures';

for (const backend of backends) {
  describe(`scan estimates on ${backend}`, () => {
    let t: TestApp;
    let workspaceId: string;
    const estimate = async (sql: string) => (await t.services.engine.queries.estimate(workspaceId, sql)).estimate.bytes;

    beforeAll(async () => {
      const fixture = await withWorkspace(backend, { label: 'estimates' });
      ({ t, workspaceId } = fixture);
      const { user } = fixture;
      const batch = (from: number) =>
        Array.from({ length: 500 }, (_, i) => ({ id: from + i, label: `row ${from + i} ${'x'.repeat(30)}`, amount: (from + i) * 0.25 }));
      // Two pushes, two data files with disjoint id ranges; a same-named table in another schema.
      await pushOk(t, workspaceId, user, { table: 'sales.events', records: batch(0) });
      await pushOk(t, workspaceId, user, { table: 'sales.events', records: batch(10_000) });
      await pushOk(t, workspaceId, user, { table: 'archive.events', records: batch(0).concat(batch(20_000), batch(30_000)) });
      for (let i = 0; i < 7; i++) await pushOk(t, workspaceId, user, { table: 'main.ticks', records: batch(i * 1000).slice(0, 50) });
    });
    afterAll(() => t.stop());

    test('only the named columns of the named table count', async () => {
      const all = await estimate('SELECT * FROM sales.events');
      const oneColumn = await estimate('SELECT amount FROM sales.events');
      const twoColumns = await estimate('SELECT amount, "Label" FROM sales.events');
      expect(oneColumn).toBeGreaterThan(0);
      expect(twoColumns).toBeGreaterThan(oneColumn);
      expect(all).toBeGreaterThan(twoColumns);
      // The archive table holds three times the rows under the same table name: it is not counted.
      expect(await estimate('SELECT * FROM archive.events')).toBeGreaterThan(all);
      expect(await estimate('SELECT * FROM sales.events JOIN archive.events USING (id)')).toBe(all + (await estimate('SELECT * FROM archive.events')));
      expect(await estimate('SELECT 1')).toBe(0);
    });

    test('a full scan is billed its estimate; a filter that skips a file is billed less', async () => {
      const full = await runQuery(t, workspaceId, 'SELECT * FROM sales.events');
      expect(full.outcome.bytesScanned).toBe(full.outcome.estimate.bytes);
      const pruned = await runQuery(t, workspaceId, 'SELECT * FROM sales.events WHERE id >= 10000');
      expect(pruned.values).toHaveLength(500);
      expect(pruned.outcome.estimate.bytes).toBe(full.outcome.estimate.bytes);
      expect(pruned.outcome.bytesScanned).toBeGreaterThan(0);
      expect(pruned.outcome.bytesScanned).toBeLessThan(full.outcome.bytesScanned);
    });

    test('a scan of more files than its profile names is billed all of them', async () => {
      const full = await runQuery(t, workspaceId, 'SELECT * FROM ticks');
      expect(full.values).toHaveLength(350);
      expect(full.outcome.bytesScanned).toBe(full.outcome.estimate.bytes);
      const pruned = await runQuery(t, workspaceId, 'SELECT * FROM ticks WHERE id >= 6000');
      expect(pruned.values).toHaveLength(50);
      expect(pruned.outcome.bytesScanned).toBeLessThan(full.outcome.bytesScanned / 3);
    });

    test('an overwrite leaves only the live files in the estimate', async () => {
      const before = await estimate('SELECT * FROM archive.events');
      const { user, workspaceId: other } = await withWorkspace(t, { label: 'estimates-overwrite' });
      await pushOk(t, other, user, { table: 'main.numbers', records: Array.from({ length: 1000 }, (_, id) => ({ id })) });
      const large = (await t.services.engine.queries.estimate(other, 'SELECT * FROM numbers')).estimate.bytes;
      await t.request(`/api/v1/workspaces/${other}/push`, {
        method: 'POST',
        token: user.accessToken,
        json: { table: 'main.numbers', mode: 'overwrite', records: [{ id: 1 }] },
      });
      expect((await t.services.engine.queries.estimate(other, 'SELECT * FROM numbers')).estimate.bytes).toBeLessThan(large);
      expect(await estimate('SELECT * FROM archive.events')).toBe(before);
    });
  });
}
