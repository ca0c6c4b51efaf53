import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../../support/backends';
import type { TestApp } from '../../support/test-app';
import type { TestUser } from '../../support/accounts';
import { pushOk, query, runQuery, withCatalogElsewhere } from '../../support/lake';
import { withWorkspace } from '../../support/fixtures';

for (const backend of backends) {
  describe(`JSON columns read as jsonb on ${backend}`, () => {
    let t: TestApp, user: TestUser, workspaceId: string;

    beforeAll(async () => {
      ({ t, user, workspaceId } = await withWorkspace(backend, { label: 'json-columns' }));
      await pushOk(t, workspaceId, user, {
        table: 'shop.docs',
        records: [
          { id: 1, body: { bb: 1, a: { d: [1, { y: 2, x: 3 }], c: null } }, note: '{"b":1,"a":2}' },
          { id: 2, body: { k: 'v' }, note: 'plain' },
        ],
      });
    });
    afterAll(() => t.stop());

    test("a JSON column's text, members, merges and equality are jsonb's", async () => {
      const sql = `SELECT d.id, d.body::text AS text, d.body ->> 'a' AS member, (body || '{"z": 1}')::text AS merged, body = '{"k": "v"}' AS same, note::text AS note
                   FROM shop.docs AS d ORDER BY d.id`;
      const { outcome, rows } = await runQuery(t, workspaceId, sql);
      expect(rows).toEqual([
        {
          id: 1,
          text: '{"a": {"c": null, "d": [1, {"x": 3, "y": 2}]}, "bb": 1}',
          member: '{"c": null, "d": [1, {"x": 3, "y": 2}]}',
          merged: '{"a": {"c": null, "d": [1, {"x": 3, "y": 2}]}, "z": 1, "bb": 1}',
          same: false,
          note: '{"b":1,"a":2}',
        },
        { id: 2, text: '{"k": "v"}', member: null, merged: '{"k": "v", "z": 1}', same: true, note: 'plain' },
      ]);
      expect(outcome.rewrites).toContain('JSON columns read as jsonb');
    });

    test('a statement that uses no JSON column where jsonb differs translates as it did', async () => {
      const { outcome } = await runQuery(t, workspaceId, 'SELECT id, jsonb_typeof(body) AS kind, body FROM shop.docs WHERE id = 2 ORDER BY body IS NULL');
      expect(outcome.rewrites).not.toContain('JSON columns read as jsonb');
    });

    test('a table re-created with the column as text is read as text: the translation follows the column types', async () => {
      await pushOk(t, workspaceId, user, { table: 'shop.retyped', records: [{ id: 1, body: { bb: 1, a: { d: [1, { y: 2, x: 3 }], c: null } } }] });
      const sql = 'SELECT id, body::text AS text FROM shop.retyped WHERE id = 1';
      expect(await query(t, workspaceId, sql)).toEqual([{ id: 1, text: '{"a": {"c": null, "d": [1, {"x": 3, "y": 2}]}, "bb": 1}' }]);
      await withCatalogElsewhere(t, workspaceId, 'other', async (connection) => {
        await connection.run('DROP TABLE other.shop.retyped');
        await connection.run('CREATE TABLE other.shop.retyped (id BIGINT, body VARCHAR)');
        await connection.run(`INSERT INTO other.shop.retyped VALUES (1, '{"bb":1,"a":2}')`);
      });
      const { outcome, rows } = await runQuery(t, workspaceId, sql);
      expect(rows).toEqual([{ id: 1, text: '{"bb":1,"a":2}' }]);
      expect(outcome.rewrites).not.toContain('JSON columns read as jsonb');
    });
  });
}
