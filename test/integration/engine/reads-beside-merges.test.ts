import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../../support/backends';
import type { TestApp } from '../../support/test-app';
import type { TestUser } from '../../support/accounts';
import { pushOk, query, withCatalogElsewhere } from '../../support/lake';
import { withWorkspace } from '../../support/fixtures';

for (const backend of backends) {
  describe(`reads beside a merge on ${backend}`, () => {
    let t: TestApp, user: TestUser, workspaceId: string;

    beforeAll(async () => ({ t, user, workspaceId } = await withWorkspace(backend, { label: 'beside-merge' })));
    afterAll(() => t.stop());

    test('a statement whose snapshot was read before a merge of its table committed reads every row, in the files the snapshot had', async () => {
      for (const id of [1, 2, 3, 4, 5, 6]) await pushOk(t, workspaceId, user, { table: 'shop.items', records: [{ id }] });
      for (const id of [1, 2]) await pushOk(t, workspaceId, user, { table: 'shop.notes', records: [{ id }] });
      // Maintenance commits through a connection of its own, as a worker's would.
      await withCatalogElsewhere(t, workspaceId, 'merger', async (merger) => {
        // Another table's merge first: its file is then listed after the table's own in the catalog.
        await merger.run("CALL ducklake_merge_adjacent_files('merger', 'notes', schema => 'shop')");
        const seen = await t.services.engine.engines.with(workspaceId, (engine) =>
          engine.read((connection) =>
            connection.readTransaction(async () => {
              const snapshot = Number((await connection.read('SELECT id FROM lake.current_snapshot()')).scalar());
              await merger.run("CALL ducklake_merge_adjacent_files('merger', 'items', schema => 'shop')");
              const rows = await connection.read('SELECT count(*) AS n, sum(id) AS s FROM lake.shop.items');
              return { snapshot, rows: rows.getRowObjectsJS() };
            }),
          ),
        );
        expect(seen.rows).toEqual([{ n: 6n, s: 21n }]);
        const files = await merger.read("SELECT count(*) FROM ducklake_list_files('merger', 'items', schema => 'shop')");
        expect(Number(files.scalar())).toBe(1);
        // Time travel to the snapshot the statement read sees the same rows, from the merged file.
        expect(await query(t, workspaceId, `SELECT count(*) AS n FROM shop.items AT (VERSION => ${seen.snapshot})`)).toEqual([{ n: 6 }]);
      });
    });
  });
}
