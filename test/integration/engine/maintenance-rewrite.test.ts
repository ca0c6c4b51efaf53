import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../../support/backends';
import type { TestApp } from '../../support/test-app';
import type { TestUser } from '../../support/accounts';
import { createWorkspace } from '../../support/workspaces';
import { pushOk, query } from '../../support/lake';
import { runMaintenance, type MaintenanceReport } from '../../../src/engine/maintenance/run-maintenance';
import { withUser } from '../../support/fixtures';

for (const backend of backends) {
  describe(`maintenance of appended and upserted tables on ${backend}`, () => {
    let t: TestApp, user: TestUser;
    beforeAll(async () => ({ t, user } = await withUser(backend, { label: 'compactor' })));
    afterAll(() => t.stop());

    /** The workspace's maintenance as its scheduled activity runs it: on the background lane, on a write connection. */
    const maintain = (workspaceId: string): Promise<MaintenanceReport> =>
      t.services.engine.engines.with(
        workspaceId,
        (engine) =>
          engine.writeCatalog((connection) => runMaintenance(connection, engine.metadataSchema, { timeTravelDays: 1, targetFileSizeBytes: 128 * 1024 * 1024 })),
        'background',
      );
    const latestSnapshot = (workspaceId: string) =>
      t.services.engine.engines.with(workspaceId, (engine) =>
        engine.read(async (connection) =>
          Number((await connection.read(`SELECT max(snapshot_id) FROM ${engine.metadataSchema}.ducklake_snapshot`)).getRows()[0]![0]),
        ),
      );
    const contents = (workspaceId: string, at?: number) =>
      query(t, workspaceId, `SELECT id, v FROM sales.items${at === undefined ? '' : ` AT (VERSION => ${at})`} ORDER BY id`);

    test('merges the files and rewrites those with deletes, keeping every row and every earlier snapshot within the window', async () => {
      const workspaceId = (await createWorkspace(t, user)).id;
      const snapshots: { id: number; rows: Record<string, unknown>[] }[] = [];
      for (let batch = 0; batch < 6; batch++) {
        const records = Array.from({ length: 5 }, (_, i) => ({ id: batch * 5 + i, v: `first ${batch * 5 + i}` }));
        await pushOk(t, workspaceId, user, { table: 'sales.items', primary_key: ['id'], records });
        snapshots.push({ id: await latestSnapshot(workspaceId), rows: await contents(workspaceId) });
      }
      // Upserts touching every file leave a delete file on each.
      await pushOk(t, workspaceId, user, {
        table: 'sales.items',
        primary_key: ['id'],
        records: [0, 6, 12, 18, 24, 29].map((id) => ({ id, v: `second ${id}` })),
      });
      snapshots.push({ id: await latestSnapshot(workspaceId), rows: await contents(workspaceId) });
      const before = await contents(workspaceId);
      expect(before).toHaveLength(30);

      const report = await maintain(workspaceId);
      expect(report.dataFilesBefore).toBeGreaterThanOrEqual(7);
      expect(report.deleteFilesBefore).toBeGreaterThan(0);
      expect(report.dataFilesAfter).toBe(1);
      expect(report.deleteFilesAfter).toBe(0);
      expect(report.tablesDeferred).toEqual([]);

      expect(await contents(workspaceId)).toEqual(before);
      for (const snapshot of snapshots) expect(await contents(workspaceId, snapshot.id)).toEqual(snapshot.rows);
      // Upserts keep working on the merged file.
      await pushOk(t, workspaceId, user, { table: 'sales.items', primary_key: ['id'], records: [{ id: 1, v: 'third 1' }] });
      expect((await contents(workspaceId)).find((row) => row.id === 1)).toEqual({ id: 1, v: 'third 1' });
    }, 120_000);

    test('runs while pushes and queries go on: none of them fails, every query sees every row, and no row is lost', async () => {
      const workspaceId = (await createWorkspace(t, user)).id;
      for (let batch = 0; batch < 8; batch++) {
        await pushOk(t, workspaceId, user, {
          table: 'sales.items',
          primary_key: ['id'],
          records: Array.from({ length: 20 }, (_, i) => ({ id: batch * 20 + i, v: `v${batch}` })),
        });
      }
      await pushOk(t, workspaceId, user, {
        table: 'sales.items',
        primary_key: ['id'],
        records: Array.from({ length: 16 }, (_, i) => ({ id: i * 10, v: 'upserted' })),
      });

      let maintaining = true;
      const maintenance = maintain(workspaceId).finally(() => (maintaining = false));
      const pushes: number[] = [];
      const counts: number[] = [];
      const busy = async () => {
        for (let round = 0; round < 40 && (maintaining || round < 3); round++) {
          await pushOk(t, workspaceId, user, { table: 'sales.items', records: [{ id: 1000 + round, v: 'during' }] });
          await pushOk(t, workspaceId, user, { table: 'sales.other', records: [{ round }] });
          pushes.push(round);
          const [row] = await query(t, workspaceId, 'SELECT count(*)::INTEGER AS n FROM sales.items WHERE id < 1000');
          counts.push(row!.n as number);
        }
      };
      const [report] = await Promise.all([maintenance, busy()]);
      expect(counts.every((n) => n === 160)).toBe(true);
      // The pushes meanwhile add data files (more of them the longer maintenance takes), never delete
      // files: the upsert's are what shows that maintenance rewrote the table under them.
      expect(report.deleteFilesAfter).toBeLessThan(report.deleteFilesBefore);

      const [total] = await query(
        t,
        workspaceId,
        "SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE v = 'upserted')::INTEGER AS upserted FROM sales.items",
      );
      expect(total).toEqual({ n: 160 + pushes.length, upserted: 16 });
      expect(await query(t, workspaceId, 'SELECT count(*)::INTEGER AS n FROM sales.other')).toEqual([{ n: pushes.length }]);
    }, 180_000);
  });
}
