import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import { createVerifiedUser } from '../support/accounts';
import { addMember } from '../support/workspaces';
import { pushOk } from '../support/lake';
import { withWorkspace } from '../support/fixtures';

/** A table's history, as the console's time travel uses it: each snapshot's time reads the table as that snapshot left it. */
for (const backend of ['local', 'postgres-s3'] as const) {
  describe(`table history for time travel (${backend})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(backend);
    });
    afterAll(() => t.stop());

    test('each write is listed, and the table reads at each committed_at as that write left it', async () => {
      const { user: owner, workspaceId: id } = await withWorkspace(t, { label: 'snapshots' });
      const viewer = await createVerifiedUser(t, 'snapshots-viewer');
      await addMember(t, id, owner, viewer, 'VIEWER');
      await pushOk(t, id, owner, { table: 'shop.items', records: [{ n: 1 }, { n: 2 }] });
      await pushOk(t, id, owner, { table: 'shop.items', records: [{ n: 3 }] });
      await pushOk(t, id, owner, { table: 'shop.items', records: [{ n: 9 }], mode: 'overwrite' });

      const response = await t.request(`/api/v1/workspaces/${id}/query/tables/shop.items/history`, { token: viewer.accessToken });
      expect(response.status).toBe(200);
      const snapshots = await bodyOf(response);
      expect(snapshots).toHaveLength(3);
      expect(snapshots[2].changes).toContain('created');
      // Microseconds: a time cut to the millisecond would fall before its snapshot.
      for (const snapshot of snapshots) expect(snapshot.committed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      const ids = snapshots.map((s: { snapshot_id: number }) => s.snapshot_id);
      expect([...ids].sort((a, b) => b - a)).toEqual(ids);

      const counts: number[] = [];
      for (const snapshot of snapshots) {
        const read = await t.request(`/api/v1/workspaces/${id}/query`, {
          method: 'POST',
          token: owner.accessToken,
          json: { sql: `SELECT count(*) AS n FROM shop.items FOR SYSTEM_TIME AS OF '${snapshot.committed_at}'` },
        });
        counts.push((await bodyOf(read)).rows[0][0]);
      }
      expect(counts).toEqual([1, 3, 2]);

      const limited = await bodyOf(await t.request(`/api/v1/workspaces/${id}/query/tables/shop.items/history?limit=1`, { token: owner.accessToken }));
      expect(limited).toHaveLength(1);
      expect(limited[0].snapshot_id).toBe(ids[0]);
    });

    test('an unknown table is 404, a stranger 403, a bad limit 422', async () => {
      const { user: owner, workspaceId: id } = await withWorkspace(t, { label: 'snapshots' });
      const stranger = await createVerifiedUser(t, 'snapshots-stranger');
      await pushOk(t, id, owner, { table: 'shop.items', records: [{ n: 1 }] });
      expect((await t.request(`/api/v1/workspaces/${id}/query/tables/shop.nothing/history`, { token: owner.accessToken })).status).toBe(404);
      expect((await t.request(`/api/v1/workspaces/${id}/query/tables/shop.items/history`, { token: stranger.accessToken })).status).toBe(403);
      expect((await t.request(`/api/v1/workspaces/${id}/query/tables/shop.items/history?limit=0`, { token: owner.accessToken })).status).toBe(422);
    });
  });
}
