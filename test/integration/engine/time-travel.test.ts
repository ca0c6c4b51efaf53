import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../../support/backends';
import type { TestApp } from '../../support/test-app';
import type { TestUser } from '../../support/accounts';
import { pushOk, query, runQuery } from '../../support/lake';
import { withWorkspace } from '../../support/fixtures';

for (const backend of backends) {
  describe(`time travel on ${backend}`, () => {
    let t: TestApp, user: TestUser, workspaceId: string;

    beforeAll(async () => ({ t, user, workspaceId } = await withWorkspace(backend, { label: 'traveller' })));
    afterAll(() => t.stop());

    test('reading as of a time before an overwrite returns the old rows', async () => {
      await pushOk(t, workspaceId, user, {
        table: 'hist.prices',
        records: [
          { item: 'a', price: 1 },
          { item: 'b', price: 2 },
        ],
      });
      await Bun.sleep(50);
      const between = new Date().toISOString();
      await Bun.sleep(50);
      await pushOk(t, workspaceId, user, { table: 'hist.prices', mode: 'overwrite', records: [{ item: 'c', price: 3 }] });
      expect(await query(t, workspaceId, 'SELECT item FROM hist.prices')).toEqual([{ item: 'c' }]);
      expect(await query(t, workspaceId, `SELECT item FROM hist.prices AT (TIMESTAMP => TIMESTAMPTZ '${between}') ORDER BY item`)).toEqual([
        { item: 'a' },
        { item: 'b' },
      ]);
      expect(await query(t, workspaceId, `SELECT p.price FROM hist.prices AS p AT (TIMESTAMP => TIMESTAMPTZ '${between}') WHERE p.item = 'b'`)).toEqual([
        { price: 2 },
      ]);
    });

    test('a time before the table existed is 400 SNAPSHOT_NOT_FOUND with the earliest time in the hint', async () => {
      await pushOk(t, workspaceId, user, { table: 'hist.young', records: [{ a: 1 }] });
      const attempt = runQuery(t, workspaceId, "SELECT * FROM hist.young AT (TIMESTAMP => TIMESTAMPTZ '2001-01-01T00:00:00Z')");
      expect(attempt).rejects.toMatchObject({ code: 'SNAPSHOT_NOT_FOUND', status: 400, hint: expect.stringMatching(/earliest available time is \d{4}-/) });
    });
  });
}
