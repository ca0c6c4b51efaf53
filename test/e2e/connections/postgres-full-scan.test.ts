import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../../support/test-app';
import { backends } from '../../support/backends';
import type { TestUser } from '../../support/accounts';
import { bodyOf } from '../../support/http';
import { createConnectionOk, createSourceDatabase, postgresSpec, queryRows, syncOk, type SourceDatabase } from '../../support/connections';
import { stagingTableName } from '../../../src/engine/sync/staging';
import { withWorkspace } from '../../support/fixtures';
import { useBusinessPlan } from '../../support/workspaces';

/**
 * A full refresh that overwrites reads an analysed table by parallel scans of it: in one batch when
 * the source estimates it within SYNC_SCAN_BATCH_ROWS, in key-range batches of that size up to four
 * times it, by per-batch queries of SYNC_BATCH_ROWS beyond. Whichever way, the new table holds every
 * source row once, the NULLs of its batching column included, with the columns a query would read.
 */
for (const backend of backends) {
  describe(`postgres full refresh that overwrites, read by scans of the table, on ${backend}`, () => {
    let t: TestApp, user: TestUser, workspaceId: string;
    let source: SourceDatabase;

    /** `<name>`: `rows` rows keyed by `id` (or by nothing), with a date that repeats and is NULL for every 7th row. */
    const table = async (name: string, rows: number, options: { key?: boolean; analyse?: boolean } = {}) => {
      const id = options.key === false ? 'id bigint' : 'id bigint PRIMARY KEY';
      // Never analysed means no row estimate: autovacuum must not analyse it behind the test's back either.
      const storage = options.analyse === false ? ' WITH (autovacuum_enabled = false)' : '';
      await source.sql.unsafe(`CREATE TABLE ${name} (${id}, label text, amount numeric(10,2), day date, at timestamptz, flag boolean)${storage}`);
      await source.sql
        .unsafe(`INSERT INTO ${name} SELECT g, CASE WHEN g % 5 = 0 THEN NULL ELSE 'l' || g END, g / 4.0, CASE WHEN g % 7 = 0 THEN NULL ELSE date '2024-01-01' + (g % 40) END,
        timestamptz '2024-01-01' + g * interval '1 minute', g % 3 = 0 FROM generate_series(1, ${rows}) g`);
      if (options.analyse !== false) await source.sql.unsafe(`ANALYZE ${name}`);
    };

    /** Snapshots the job wrote into its staging table: one per batch. */
    const stagingBatches = (jobId: string) =>
      t.services.engine.engines.with(workspaceId, (engine) =>
        engine.read(async (connection) => {
          const reader = await connection.read(
            `SELECT count(*) FROM ${engine.metadataSchema}.ducklake_snapshot_changes WHERE commit_extra_info LIKE $job AND commit_extra_info LIKE '%"sync_phase":"staging"%'`,
            { job: `%${jobId}%` },
          );
          return Number(reader.getRows()[0]![0]);
        }),
      );

    /** What the table holds, column by column: any row lost or read twice changes it. */
    const contents = (qualified: string): Promise<Record<string, unknown>[]> =>
      queryRows(
        t,
        user,
        workspaceId,
        `SELECT count(*) AS n, count(DISTINCT id) AS d, sum(id) AS ids, count(label) AS labels, sum(amount) AS amount, count(day) AS days, max(day) AS last_day, count(*) FILTER (WHERE flag) AS flags FROM ${qualified}`,
      );
    const columnsOf = async (qualified: string) =>
      (await bodyOf(await t.request(`/api/v1/workspaces/${workspaceId}/query/tables/${qualified}/metadata`, { token: user.accessToken }))).columns;

    beforeAll(async () => {
      source = await createSourceDatabase();
      ({ t, user, workspaceId } = await withWorkspace(backend, {
        worker: true,
        env: { SYNC_BATCH_ROWS: '250', SYNC_SCAN_BATCH_ROWS: '1000' },
        label: 'pg-full-scan',
      }));
      // Three connections: more than the Free plan allows.
      await useBusinessPlan(t, workspaceId);
    });
    afterAll(async () => {
      await t.stop();
      await source.drop();
    });

    test('one scan within the scan batch, key-range scans up to four times it, queries beyond: every row once, the same columns as a read by query', async () => {
      await table('scan_whole', 900);
      await table('scan_ranged', 3_500);
      await table('scan_large', 4_500);
      const streams = ['scan_whole', 'scan_ranged', 'scan_large'];
      const scanned = await createConnectionOk(t, user, workspaceId, {
        name: 'scanned',
        connector_type: 'postgres',
        spec: postgresSpec(source),
        streams: streams.map((name) => ({ name, sync_mode: 'full_refresh_overwrite' })),
      });
      const queried = await createConnectionOk(t, user, workspaceId, {
        name: 'queried',
        connector_type: 'postgres',
        spec: postgresSpec(source),
        streams: streams.map((name) => ({ name, sync_mode: 'full_refresh_append' })),
      });

      const job = await syncOk(t, user, workspaceId, scanned.id);
      expect(job.records_written).toBe(900 + 3_500 + 4_500);
      await syncOk(t, user, workspaceId, queried.id);
      // 900 rows: one scan; 3,500: batches of 1,000; 4,500: beyond four scan batches, batches of 250 by query.
      // Read in one batch, scan_whole replaced the table without a staging table.
      expect(await stagingBatches(job.id)).toBe(0 + 4 + 18);
      for (const name of streams) {
        expect(await contents(`scanned.${name}`)).toEqual(await contents(`queried.${name}`));
        expect(await columnsOf(`scanned.${name}`)).toEqual(await columnsOf(`queried.${name}`));
      }
      expect(await contents('scanned.scan_ranged')).toEqual([
        { n: 3_500, d: 3_500, ids: 6_126_750, labels: 2_800, amount: 1_531_687.5, days: 3_000, last_day: '2024-02-09', flags: 1_166 },
      ]);

      // Overwritten by the next sync: the rows the source has now, once.
      await source.sql.unsafe('DELETE FROM scan_ranged WHERE id > 3000; UPDATE scan_ranged SET flag = true');
      await source.sql.unsafe('ANALYZE scan_ranged');
      const again = await syncOk(t, user, workspaceId, scanned.id, { streams: ['scan_ranged'] });
      expect(again.records_written).toBe(3_000);
      expect(await contents('scanned.scan_ranged')).toEqual([expect.objectContaining({ n: 3_000, d: 3_000, flags: 3_000 })]);
    }, 180_000);

    test('a table read in one batch is replaced in one snapshot, one read in batches is swapped in: both say how the columns changed', async () => {
      await table('change_whole', 500);
      // Beyond four scan batches (an ALTER that rewrites a table also estimates its rows): read by query, staged.
      await table('change_staged', 4_100);
      const connection = await createConnectionOk(t, user, workspaceId, {
        name: 'changes',
        connector_type: 'postgres',
        spec: postgresSpec(source),
        streams: ['change_whole', 'change_staged'].map((name) => ({ name, sync_mode: 'full_refresh_overwrite' })),
      });
      const first = await syncOk(t, user, workspaceId, connection.id);
      expect(first.schema_changes).toEqual([]);
      expect(await stagingBatches(first.id)).toBe(17);
      for (const name of ['change_whole', 'change_staged']) {
        await source.sql.unsafe(`ALTER TABLE ${name} DROP COLUMN label, ALTER COLUMN amount TYPE double precision, ADD COLUMN extra text DEFAULT 'x'`);
      }
      const second = await syncOk(t, user, workspaceId, connection.id);
      for (const name of ['change_whole', 'change_staged']) {
        const changes = second.schema_changes.filter((change: { table: string }) => change.table === `changes.${name}`);
        expect(changes).toEqual(
          expect.arrayContaining([
            { table: `changes.${name}`, column: 'amount', change: 'retyped', from: 'DECIMAL(10,2)', to: 'DOUBLE' },
            { table: `changes.${name}`, column: 'extra', change: 'added', to: 'VARCHAR' },
            { table: `changes.${name}`, column: 'label', change: 'dropped', from: 'VARCHAR' },
          ]),
        );
        expect(changes).toHaveLength(3);
        expect((await columnsOf(`changes.${name}`)).map((column: { name: string }) => column.name)).toEqual(['id', 'amount', 'day', 'at', 'flag', 'extra']);
      }
      expect(
        await queryRows(t, user, workspaceId, "SELECT count(*) AS n, sum(id) AS ids, count(*) FILTER (WHERE extra = 'x') AS extras FROM changes.change_whole"),
      ).toEqual([{ n: 500, ids: 125_250, extras: 500 }]);
      // Nothing staged for the table read in one batch; 17 batches of 250 for the other.
      expect(await stagingBatches(second.id)).toBe(17);
    }, 180_000);

    test('staging tables abandoned jobs left go with the next full refresh, replaced in one batch or swapped in; other streams’ stay', async () => {
      await table('left_whole', 300);
      await table('left_staged', 4_100);
      const streams = ['left_whole', 'left_staged'];
      const connection = await createConnectionOk(t, user, workspaceId, {
        name: 'leftover',
        connector_type: 'postgres',
        spec: postgresSpec(source),
        streams: streams.map((name) => ({ name, sync_mode: 'full_refresh_overwrite' })),
      });
      const abandoned = [...streams, 'other_stream'].map((stream) => stagingTableName(crypto.randomUUID(), stream));
      const tablesOfSchema = () =>
        t.services.engine.engines.with(workspaceId, (engine) =>
          engine.read(async (connection) =>
            (await connection.read("SELECT table_name FROM duckdb_tables() WHERE database_name = 'lake' AND schema_name = 'leftover' ORDER BY table_name"))
              .getRows()
              .map(([name]) => String(name)),
          ),
        );
      await t.services.engine.engines.with(workspaceId, (engine) =>
        engine.writeCatalog(async (connection) => {
          await connection.run('CREATE SCHEMA lake.leftover');
          for (const name of abandoned) await connection.run(`CREATE TABLE lake.leftover."${name}" (half_written INTEGER)`);
        }),
      );
      expect(await tablesOfSchema()).toEqual([...abandoned].sort());

      const job = await syncOk(t, user, workspaceId, connection.id);
      expect(job.records_written).toBe(300 + 4_100);
      expect(await stagingBatches(job.id)).toBe(0 + 17);
      expect(await tablesOfSchema()).toEqual([abandoned[2]!, 'left_staged', 'left_whole'].sort());
    }, 180_000);

    test('types of the source’s own (an enum, a domain, arrays, json) arrive as a read by query brings them', async () => {
      await source.sql.unsafe("CREATE TYPE mood AS ENUM ('calm', 'busy'); CREATE DOMAIN positive AS numeric(8,2) CHECK (VALUE > 0)");
      await source.sql.unsafe(
        `CREATE TABLE typed (id bigint PRIMARY KEY, feeling mood, price positive, tags text[], doc jsonb, seen timestamp, span interval)`,
      );
      await source.sql
        .unsafe(`INSERT INTO typed SELECT g, CASE WHEN g % 2 = 0 THEN 'calm' ELSE 'busy' END::mood, g + 0.5, ARRAY['t' || g, 'x'], jsonb_build_object('n', g),
        timestamp '2024-01-01' + g * interval '1 hour', g * interval '1 minute' FROM generate_series(1, 300) g`);
      // The same built-in types without the enum and the domain: read by a scan.
      await source.sql.unsafe(
        'CREATE TABLE plain AS SELECT id, CAST(feeling AS text) AS feeling, CAST(price AS numeric(8,2)) AS price, tags, doc, seen, span FROM typed',
      );
      await source.sql.unsafe('ALTER TABLE plain ADD PRIMARY KEY (id); ANALYZE typed; ANALYZE plain');
      const streams = (mode: string) => ['typed', 'plain'].map((name) => ({ name, sync_mode: mode }));
      const scanned = await createConnectionOk(t, user, workspaceId, {
        name: 'typed_scan',
        connector_type: 'postgres',
        spec: postgresSpec(source),
        streams: streams('full_refresh_overwrite'),
      });
      const queried = await createConnectionOk(t, user, workspaceId, {
        name: 'typed_query',
        connector_type: 'postgres',
        spec: postgresSpec(source),
        streams: streams('full_refresh_append'),
      });
      const job = await syncOk(t, user, workspaceId, scanned.id);
      expect(job.records_written).toBe(600);
      // typed by query, 250 rows a batch; plain by one scan, without a staging table.
      expect(await stagingBatches(job.id)).toBe(2 + 0);
      expect((await syncOk(t, user, workspaceId, queried.id)).records_written).toBe(600);
      const sample =
        'SELECT CAST(feeling AS VARCHAR) AS feeling, price, tags, CAST(doc AS VARCHAR) AS doc, CAST(seen AS VARCHAR) AS seen, CAST(span AS VARCHAR) AS span FROM ';
      for (const name of ['typed', 'plain']) {
        expect(await columnsOf(`typed_scan.${name}`)).toEqual(await columnsOf(`typed_query.${name}`));
        expect(await queryRows(t, user, workspaceId, `${sample} typed_scan.${name} WHERE id = 7`)).toEqual(
          await queryRows(t, user, workspaceId, `${sample} typed_query.${name} WHERE id = 7`),
        );
      }
    }, 180_000);

    test('a date batching column with NULLs, a table never analysed, a table without a key: every row once', async () => {
      await table('scan_dated', 2_500, { key: false });
      await table('scan_fresh', 800, { analyse: false });
      await table('scan_keyless', 1_200, { key: false, analyse: false });
      const connection = await createConnectionOk(t, user, workspaceId, {
        name: 'dated',
        connector_type: 'postgres',
        spec: postgresSpec(source),
        streams: [
          { name: 'scan_dated', sync_mode: 'full_refresh_overwrite', cursor_field: 'day' },
          { name: 'scan_fresh', sync_mode: 'full_refresh_overwrite' },
          { name: 'scan_keyless', sync_mode: 'full_refresh_overwrite' },
        ],
      });
      const job = await syncOk(t, user, workspaceId, connection.id);
      expect(job.records_written).toBe(2_500 + 800 + 1_200);
      expect(await contents('dated.scan_dated')).toEqual([expect.objectContaining({ n: 2_500, d: 2_500, ids: 3_126_250, days: 2_143 })]);
      expect(await contents('dated.scan_fresh')).toEqual([expect.objectContaining({ n: 800, d: 800, ids: 320_400 })]);
      expect(await contents('dated.scan_keyless')).toEqual([expect.objectContaining({ n: 1_200, d: 1_200, ids: 720_600 })]);
      // 2,500 rows on 40 dates in ranges of at least 1,000 rows; 800 rows never analysed: by query, 250 a
      // batch; the table without a key: one scan, written over the target without a staging table.
      expect(await stagingBatches(job.id)).toBe(3 + 4 + 0);
    }, 180_000);
  });
}
