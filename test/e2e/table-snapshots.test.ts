import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import { createVerifiedUser } from '../support/accounts';
import { addMember, createWorkspace } from '../support/workspaces';
import { pushOk } from '../support/lake';

/** A table's snapshots (an extension for the console's time travel): newest first, each readable with FOR SYSTEM_TIME AS OF. */
for (const backend of ['local', 'postgres-s3'] as const) {
  describe(`table snapshots (${backend})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(backend);
    });
    afterAll(() => t.stop());

    test('each write is listed with what it did, and the table reads as it was at each', async () => {
      const owner = await createVerifiedUser(t, 'snapshots');
      const viewer = await createVerifiedUser(t, 'snapshots-viewer');
      const { id } = await createWorkspace(t, owner);
      await addMember(t, id, owner, viewer, 'VIEWER');
      await pushOk(t, id, owner, { table: 'shop.items', records: [{ n: 1 }, { n: 2 }] });
      await pushOk(t, id, owner, { table: 'shop.items', records: [{ n: 3 }] });
      await pushOk(t, id, owner, { table: 'shop.items', records: [{ n: 9 }], mode: 'overwrite' });

      const response = await t.request(`/api/v1/workspaces/${id}/query/tables/shop.items/snapshots`, { token: viewer.accessToken });
      expect(response.status).toBe(200);
      const snapshots = await bodyOf(response);
      expect(snapshots.map((s: { change: string }) => s.change)).toEqual(['update', 'insert', 'created']);
      expect(snapshots.map((s: { rows_added: number; rows_removed: number }) => [s.rows_added, s.rows_removed])).toEqual([[1, 3], [1, 0], [2, 0]]);
      const ids = snapshots.map((s: { snapshot_id: number }) => s.snapshot_id);
      expect([...ids].sort((a, b) => b - a)).toEqual(ids);

      const counts: number[] = [];
      for (const snapshot of snapshots) {
        const read = await t.request(`/api/v1/workspaces/${id}/query`, { method: 'POST', token: owner.accessToken, json: { sql: `SELECT count(*) AS n FROM shop.items FOR SYSTEM_TIME AS OF '${snapshot.snapshot_time}'` } });
        counts.push((await bodyOf(read)).rows[0][0]);
      }
      expect(counts).toEqual([1, 3, 2]);

      const limited = await bodyOf(await t.request(`/api/v1/workspaces/${id}/query/tables/shop.items/snapshots?limit=1`, { token: owner.accessToken }));
      expect(limited).toHaveLength(1);
      expect(limited[0].snapshot_id).toBe(ids[0]);
    });

    test('an unknown table is 404, a stranger 403, a bad limit 422', async () => {
      const owner = await createVerifiedUser(t, 'snapshots');
      const stranger = await createVerifiedUser(t, 'snapshots-stranger');
      const { id } = await createWorkspace(t, owner);
      await pushOk(t, id, owner, { table: 'shop.items', records: [{ n: 1 }] });
      expect((await t.request(`/api/v1/workspaces/${id}/query/tables/shop.nothing/snapshots`, { token: owner.accessToken })).status).toBe(404);
      expect((await t.request(`/api/v1/workspaces/${id}/query/tables/shop.items/snapshots`, { token: stranger.accessToken })).status).toBe(403);
      expect((await t.request(`/api/v1/workspaces/${id}/query/tables/shop.items/snapshots?limit=0`, { token: owner.accessToken })).status).toBe(422);
    });
  });
}
