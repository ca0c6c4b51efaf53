import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../../support/backends';
import type { TestApp } from '../../support/test-app';
import { bodyOf } from '../../support/http';
import type { TestUser } from '../../support/accounts';
import { pushOk, query } from '../../support/lake';
import { withWorkspace } from '../../support/fixtures';

for (const backend of backends) {
  describe(`writes beside long reads on ${backend}`, () => {
    let t: TestApp, user: TestUser, workspaceId: string;

    beforeAll(async () => {
      ({ t, user, workspaceId } = await withWorkspace(backend, { env: { QUERY_TIMEOUT_MS: '8000' }, label: 'concurrent' }));
      // Two pushes, two files: queries read the table through DuckLake and its catalog, not straight from one file.
      await pushOk(t, workspaceId, user, { table: 'app.events', records: Array.from({ length: 50 }, (_, id) => ({ id })) });
      await pushOk(t, workspaceId, user, { table: 'app.events', records: Array.from({ length: 50 }, (_, id) => ({ id: 50 + id })) });
    });
    afterAll(() => t.stop());

    test('pushes commit while a long query reads the same table, which keeps its snapshot', async () => {
      // Reads the table through the catalog, then keeps its transaction open for seconds.
      const long = t.request('/api/v1/query', {
        method: 'POST',
        token: user.accessToken,
        json: { sql: 'SELECT (SELECT count(*) FROM app.events) AS n, count(*) AS spin FROM range(3000000000)', workspace_id: workspaceId },
      });
      await Bun.sleep(1_000);
      const pushes = await Promise.all(
        [0, 1, 2].map((batch) =>
          pushOk(t, workspaceId, user, { table: 'app.events', records: Array.from({ length: 10 }, (_, i) => ({ id: 1_000 + batch * 10 + i })) }),
        ),
      );
      expect(pushes.map((result) => result.records_written)).toEqual([10, 10, 10]);
      expect(await query(t, workspaceId, 'SELECT count(*) AS n FROM app.events')).toEqual([{ n: 130 }]);
      const answer = await long;
      // Either it finished on the snapshot it started with, or it ran into the timeout: never a failure of the writes.
      if (answer.status === 200) expect((await bodyOf(answer)).rows[0][0]).toBe(100);
      else expect(answer.status).toBe(408);
    }, 60_000);

    test('two pushes into different tables at once both commit', async () => {
      const results = await Promise.all(
        ['app.left_side', 'app.right_side', 'app.third_side'].map((table) =>
          pushOk(t, workspaceId, user, { table, records: Array.from({ length: 50 }, (_, id) => ({ id })) }),
        ),
      );
      expect(results.map((result) => result.records_written)).toEqual([50, 50, 50]);
    }, 60_000);
  });
}
