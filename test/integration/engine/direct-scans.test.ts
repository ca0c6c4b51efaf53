import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../../support/backends';
import type { TestApp } from '../../support/test-app';
import type { TestUser } from '../../support/accounts';
import { bodyOf } from '../../support/http';
import { pushOk, query, runQuery, withCatalogElsewhere } from '../../support/lake';
import { checkQuery } from '../../../src/engine/sql/check-query';
import { DirectScans } from '../../../src/engine/sql/direct-scans';
import { QueryAnalyzer } from '../../../src/engine/sql/query-analyzer';
import { runMaintenance } from '../../../src/engine/maintenance/run-maintenance';
import { withWorkspace } from '../../support/fixtures';

for (const backend of backends) {
  describe(`direct scans on ${backend}`, () => {
    let t: TestApp, user: TestUser, workspaceId: string;

    /** How the query path would run `sql` now: the text it runs and whether DuckLake still reads. */
    const plan = (sql: string) =>
      t.services.engine.engines.with(workspaceId, (engine) =>
        engine.read(async (connection) => {
          const analysis = await new QueryAnalyzer(t.services.engine.parser, (text) => ({ sql: text, rewrites: [] })).analyze(workspaceId, sql);
          const known = await engine.tableNames.resolve(engine.catalog, analysis.wantedTables, analysis.timeTravel);
          const scans = new DirectScans(t.services.engine.parser);
          return scans.plan(engine, connection, analysis, checkQuery(analysis.facts, known), await scans.current(engine));
        }),
      );

    beforeAll(async () => {
      ({ t, user, workspaceId } = await withWorkspace(backend, { label: 'direct' }));
      await pushOk(t, workspaceId, user, {
        table: 'shop.orders',
        records: [
          { id: 1, customer: 'ada', amount: 12.5, placed: '2026-01-02T03:04:05Z', tags: ['a', 'b'] },
          { id: 2, customer: 'bob', amount: 7.25, placed: '2026-02-03T04:05:06Z', tags: [] },
          { id: 3, customer: 'ada', amount: null, placed: '2026-03-04T05:06:07Z', tags: ['c'] },
        ],
      });
      await pushOk(t, workspaceId, user, {
        table: 'shop.customers',
        records: [
          { name: 'ada', city: 'Paris' },
          { name: 'bob', city: 'Oslo' },
        ],
      });
    });
    afterAll(() => t.stop());

    test("a table held in one file is read from that file, and answers exactly as DuckLake's scan", async () => {
      const sql =
        'SELECT o.customer, sum(o.amount) AS total, max(c.city) AS city FROM shop.orders o JOIN shop.customers AS c ON c.name = o.customer GROUP BY ALL ORDER BY 1';
      const planned = await plan(sql);
      expect(planned.readsLake).toBe(false);
      expect(planned.sql).toContain('read_parquet');
      expect(await query(t, workspaceId, sql)).toEqual([
        { customer: 'ada', total: 12.5, city: 'Paris' },
        { customer: 'bob', total: 7.25, city: 'Oslo' },
      ]);
      // Column order, names and types are the table's, under every form of reference.
      const star = await runQuery(t, workspaceId, 'SELECT * FROM shop.orders ORDER BY id');
      expect(star.outcome.columns.map((column) => `${column.name} ${column.type}`)).toEqual([
        'id BIGINT',
        'customer VARCHAR',
        'amount DOUBLE',
        'placed TIMESTAMP WITH TIME ZONE',
        'tags JSON',
      ]);
      expect(star.rows[0]).toEqual({ id: 1, customer: 'ada', amount: 12.5, placed: '2026-01-02T03:04:05.000Z', tags: ['a', 'b'] });
      expect(await query(t, workspaceId, 'SELECT x.a, x.b FROM shop.customers AS x(a, b) ORDER BY a')).toEqual([
        { a: 'ada', b: 'Paris' },
        { a: 'bob', b: 'Oslo' },
      ]);
      expect(await query(t, workspaceId, 'SELECT customers.city FROM shop.customers WHERE customers.name = $$bob$$')).toEqual([{ city: 'Oslo' }]);
      expect(await query(t, workspaceId, 'WITH orders AS (SELECT 42 AS id) SELECT id FROM orders')).toEqual([{ id: 42 }]);
      expect(await query(t, workspaceId, 'SELECT count(*) AS n FROM shop.orders a, shop.orders b')).toEqual([{ n: 9 }]);
    });

    test('constants survive the rewrite exactly; file paths and file columns stay out of reach', async () => {
      const [row] = await query(
        t,
        workspaceId,
        'SELECT 9007199254740993 AS big, 60.0 AS sixty, 1e-7 AS small, 18446744073709551615 AS u, count(*) AS n FROM shop.orders',
      );
      expect(row).toEqual({ big: '9007199254740993', sixty: 60, small: 1e-7, u: '18446744073709551615', n: 3 });
      for (const column of ['filename', 'file_row_number']) {
        const response = await t.request(`/api/v1/workspaces/${workspaceId}/query`, {
          method: 'POST',
          token: user.accessToken,
          json: { sql: `SELECT ${column} FROM shop.orders` },
        });
        expect(response.status).toBe(400);
        const body = await response.text();
        expect(body).toContain('UNDEFINED_COLUMN');
        expect(body).not.toContain('read_parquet');
        expect(body).not.toContain('.parquet');
      }
      // The hint quotes the query as written, not the rewritten one.
      const errorOf = async (sql: string) => {
        const response = await t.request(`/api/v1/workspaces/${workspaceId}/query`, { method: 'POST', token: user.accessToken, json: { sql } });
        return (await bodyOf(response)).detail.error as { code: string; hint?: string };
      };
      expect(await errorOf('SELECT amount + nme FROM shop.orders')).toMatchObject({ code: 'UNDEFINED_COLUMN', hint: 'Did you mean "amount"?' });
      const mistyped = await errorOf('SELECT sum(customer) FROM shop.orders');
      // Postgres' undefined function (42883): there is no sum(text). The statement as translated
      // (sum of a macro of Postgres' rule) is not quoted: the user never wrote it.
      expect(mistyped.code).toBe('UNDEFINED_FUNCTION');
      expect(mistyped.hint).not.toContain('pgx_');
      expect(mistyped.hint).not.toContain('read_parquet');
    });

    test('a full direct scan is billed its estimate', async () => {
      const full = await runQuery(t, workspaceId, 'SELECT * FROM shop.orders');
      expect(full.outcome.bytesScanned).toBeGreaterThan(0);
      expect(full.outcome.bytesScanned).toBe(full.outcome.estimate.bytes);
    });

    test('each new snapshot is planned again: a second file joins the list, deletes or a schema change hand the table back to DuckLake', async () => {
      await pushOk(t, workspaceId, user, { table: 'main.growing', records: [{ id: 1 }] });
      expect((await plan('SELECT * FROM growing')).readsLake).toBe(false);
      await pushOk(t, workspaceId, user, { table: 'main.growing', records: [{ id: 2 }] });
      const twoFiles = await plan('SELECT * FROM growing');
      expect(twoFiles.readsLake).toBe(false);
      expect(twoFiles.sql.match(/\.parquet'/g)).toHaveLength(2);
      expect(await query(t, workspaceId, 'SELECT id FROM growing ORDER BY id')).toEqual([{ id: 1 }, { id: 2 }]);
      // An overwrite leaves one file again, read directly, with the new rows.
      await pushOk(t, workspaceId, user, { table: 'main.growing', mode: 'overwrite', records: [{ id: 3 }] });
      expect((await plan('SELECT * FROM growing')).readsLake).toBe(false);
      expect(await query(t, workspaceId, 'SELECT id FROM growing')).toEqual([{ id: 3 }]);

      await pushOk(t, workspaceId, user, {
        table: 'main.keyed',
        primary_key: ['id'],
        records: [
          { id: 1, v: 'a' },
          { id: 2, v: 'b' },
        ],
      });
      await pushOk(t, workspaceId, user, { table: 'main.keyed', primary_key: ['id'], records: [{ id: 2, v: 'B' }] });
      expect((await plan('SELECT * FROM keyed')).readsLake).toBe(true);
      expect(await query(t, workspaceId, 'SELECT id, v FROM keyed ORDER BY id')).toEqual([
        { id: 1, v: 'a' },
        { id: 2, v: 'B' },
      ]);

      await pushOk(t, workspaceId, user, { table: 'main.widening', records: [{ id: 1 }] });
      await pushOk(t, workspaceId, user, { table: 'main.widening', mode: 'overwrite', records: [{ id: 2, extra: 'x' }] });
      expect((await plan('SELECT * FROM widening')).readsLake).toBe(true);
      expect(await query(t, workspaceId, 'SELECT id, extra FROM widening')).toEqual([{ id: 2, extra: 'x' }]);
    });

    test("tables read through DuckLake offer only their own columns, never DuckLake's virtual ones", async () => {
      await pushOk(t, workspaceId, user, { table: 'main.pair', primary_key: ['id'], records: [{ id: 1 }, { id: 2 }] });
      await pushOk(t, workspaceId, user, { table: 'main.pair', primary_key: ['id'], records: [{ id: 2 }] });
      expect((await plan('SELECT * FROM pair')).readsLake).toBe(true);
      for (const sql of [
        'SELECT filename FROM pair',
        'SELECT p.rowid FROM pair p',
        'SELECT file_row_number FROM pair AT (TIMESTAMP => now())',
        'SELECT filename FROM shop.orders',
      ]) {
        const response = await t.request(`/api/v1/workspaces/${workspaceId}/query`, { method: 'POST', token: user.accessToken, json: { sql } });
        const body = await response.text();
        expect(`${response.status} ${body}`).toContain('400');
        expect(body).toContain('UNDEFINED_COLUMN');
        expect(body).not.toContain('.parquet');
      }
      expect(await query(t, workspaceId, 'SELECT x.n FROM pair AS x(n) WHERE x.n > 1')).toEqual([{ n: 2 }]);
      expect(await query(t, workspaceId, 'SELECT count(*) AS n FROM pair TABLESAMPLE 100%')).toEqual([{ n: 2 }]);
      expect(await query(t, workspaceId, 'SELECT pair.* FROM pair ORDER BY 1')).toEqual([{ id: 1 }, { id: 2 }]);
    });

    test('a query reading tables both ways reads them at one snapshot', async () => {
      await pushOk(t, workspaceId, user, { table: 'main.left_side', primary_key: ['id'], records: [{ id: 1 }, { id: 2 }] });
      await pushOk(t, workspaceId, user, { table: 'main.left_side', primary_key: ['id'], records: [{ id: 2 }] });
      const sql = 'SELECT count(*) AS n FROM left_side JOIN shop.customers ON true';
      const planned = await plan(sql);
      const snapshot = await t.services.engine.engines.with(workspaceId, (engine) =>
        engine.read(async (connection) =>
          Number((await connection.read(`SELECT max(snapshot_id) FROM ${engine.metadataSchema}.ducklake_snapshot`)).getRows()[0]![0]),
        ),
      );
      expect(planned.sql).toContain('read_parquet');
      expect(planned.sql).toContain(`AT (VERSION => ${snapshot})`);
      expect(await query(t, workspaceId, sql)).toEqual([{ n: 4 }]);
      // Only DuckLake: its own snapshot, nothing pinned.
      expect((await plan('SELECT count(*) FROM left_side')).sql).not.toContain('AT (');
    });

    test('time travel stays with DuckLake while the live table beside it is read directly', async () => {
      const planned = await plan('SELECT count(*) FROM shop.customers AT (VERSION => 3) JOIN shop.orders ON true');
      expect(planned.readsLake).toBe(true);
      expect(planned.sql).toContain('AT (VERSION => 3)');
      expect(planned.sql).toContain('read_parquet');
    });

    test('a table of many pushes is read from its list of files by a query without filters or joins, billed like its estimate, and answers as DuckLake does', async () => {
      for (let i = 0; i < 7; i++)
        await pushOk(t, workspaceId, user, {
          table: 'main.many',
          records: [
            { id: i, label: `push ${i}` },
            { id: i + 100, label: null },
          ],
        });
      const planned = await plan('SELECT * FROM many');
      expect(planned.readsLake).toBe(false);
      expect(planned.sql.match(/\.parquet'/g)).toHaveLength(7);
      // A filter or a join could let DuckLake skip files unopened (and unbilled): those queries read it through DuckLake.
      expect((await plan('SELECT * FROM many WHERE id > 3')).readsLake).toBe(true);
      expect((await plan('SELECT count(*) FROM many a JOIN shop.customers c ON c.name = a.label')).readsLake).toBe(true);
      const sql = 'SELECT count(*) AS n, sum(id) AS total, count(label) AS labelled FROM many';
      expect(await query(t, workspaceId, sql)).toEqual([{ n: 14, total: 21 + 700 + 21, labelled: 7 }]);
      // The profile names five files at most: the scan of seven still counts them all.
      const full = await runQuery(t, workspaceId, 'SELECT * FROM many');
      expect(full.outcome.bytesScanned).toBe(full.outcome.estimate.bytes);
    });

    test("after maintenance a table's merged file, which carries DuckLake's own columns, and the files pushed since are read directly", async () => {
      for (let i = 0; i < 4; i++)
        await pushOk(t, workspaceId, user, {
          table: 'main.kept',
          primary_key: ['id'],
          records: [
            { id: i, v: `v${i}` },
            { id: 10, v: `last ${i}` },
          ],
        });
      expect((await plan('SELECT * FROM kept')).readsLake).toBe(true);
      await maintain();
      const merged = await plan('SELECT * FROM kept');
      expect(merged.readsLake).toBe(false);
      await pushOk(t, workspaceId, user, { table: 'main.kept', records: [{ id: 20, v: 'after' }] });
      const mixed = await plan('SELECT * FROM kept');
      expect(mixed.readsLake).toBe(false);
      expect(mixed.sql).toContain('UNION ALL');
      const star = await runQuery(t, workspaceId, 'SELECT * FROM kept ORDER BY id');
      expect(star.outcome.columns.map((column) => column.name)).toEqual(['id', 'v']);
      expect(star.rows).toEqual([
        { id: 0, v: 'v0' },
        { id: 1, v: 'v1' },
        { id: 2, v: 'v2' },
        { id: 3, v: 'v3' },
        { id: 10, v: 'last 3' },
        { id: 20, v: 'after' },
      ]);
    });

    test('a plan made at a snapshot before a merge, whose files are listed after it, leaves the merged file (and its newer rows) to DuckLake', async () => {
      for (const id of [1, 2, 3]) await pushOk(t, workspaceId, user, { table: 'shop.merged_later', records: [{ id }] });
      const sql = 'SELECT count(*) AS n, sum(id) AS s FROM shop.merged_later';
      const scans = new DirectScans(t.services.engine.parser);
      const analysis = await new QueryAnalyzer(t.services.engine.parser, (text) => ({ sql: text, rewrites: [] })).analyze(workspaceId, sql);
      const before = await t.services.engine.engines.with(workspaceId, (engine) => scans.current(engine));
      await pushOk(t, workspaceId, user, { table: 'shop.merged_later', records: [{ id: 4 }] });
      // The merge lists its file from the snapshot of the file's oldest rows on, and removes the four it replaced.
      await maintain();
      const planned = await t.services.engine.engines.with(workspaceId, (engine) =>
        engine.read(async (connection) => {
          const known = await engine.tableNames.resolve(engine.catalog, analysis.wantedTables, analysis.timeTravel);
          return scans.plan(engine, connection, analysis, checkQuery(analysis.facts, known), before);
        }),
      );
      expect(planned.readsLake).toBe(true);
      expect(planned.sql).not.toContain('read_parquet');
      // A plan at the current snapshot reads the merged file directly again.
      expect((await plan(sql)).readsLake).toBe(false);
      expect(await query(t, workspaceId, sql)).toEqual([{ n: 4, s: 10 }]);
    });

    test('a table renamed into place, as a full refresh swaps its staging table in, is read directly; a column added since is not', async () => {
      for (const id of [1, 2]) await pushOk(t, workspaceId, user, { table: 'shop.staged', records: [{ id }] });
      const sql = 'SELECT count(*) AS n, sum(id) AS s FROM shop.swapped';
      await withCatalogElsewhere(t, workspaceId, 'other', async (connection) => {
        await connection.run('ALTER TABLE other.shop.staged RENAME TO swapped');
        expect((await plan(sql)).readsLake).toBe(false);
        expect(await query(t, workspaceId, sql)).toEqual([{ n: 2, s: 3 }]);
        await connection.run('ALTER TABLE other.shop.swapped ADD COLUMN note VARCHAR');
      });
      expect((await plan(sql)).readsLake).toBe(true);
      expect(await query(t, workspaceId, sql)).toEqual([{ n: 2, s: 3 }]);
    });

    test('a commit made by another process shows in the next query, also after the snapshot was taken from the unchanged catalog', async () => {
      await pushOk(t, workspaceId, user, { table: 'shop.elsewhere', records: [{ id: 1 }] });
      // Long enough after the push for the catalog's files to vouch for the snapshot (see CatalogChangeWatch).
      await Bun.sleep(120);
      expect(await query(t, workspaceId, 'SELECT count(*) AS n FROM shop.elsewhere')).toEqual([{ n: 1 }]);
      expect(await query(t, workspaceId, 'SELECT count(*) AS n FROM shop.elsewhere')).toEqual([{ n: 1 }]);
      // A worker process commits through an instance of its own.
      await withCatalogElsewhere(t, workspaceId, 'other', (connection) => connection.run('INSERT INTO other.shop.elsewhere VALUES (2)'));
      expect(await query(t, workspaceId, 'SELECT count(*) AS n FROM shop.elsewhere')).toEqual([{ n: 2 }]);
    });

    const maintain = () =>
      t.services.engine.engines.with(workspaceId, (engine) =>
        engine.writeCatalog((connection) => runMaintenance(connection, engine.metadataSchema, { timeTravelDays: 1, targetFileSizeBytes: 128 * 1024 * 1024 })),
      );
  });
}
