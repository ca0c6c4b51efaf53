import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../support/backends';
import { startTestApp, type TestApp } from '../support/test-app';
import { pushOk, query } from '../support/lake';
import { AppError } from '../../src/errors/app-error';
import { catalogSchemaName, workspaceDataPath } from '../../src/engine/catalog-attachment';
import { withWorkspace } from '../support/fixtures';

const secret = 'tenant-a-secret-value';

/**
 * Every attempt runs as tenant B. None may read, write or reveal anything outside B's own catalog, and
 * each must end in a 4xx error of the envelope, never a 500. This list only grows.
 */
function attacks(a: { workspaceId: string; dataPath: string; schema: string }): [string, string][] {
  return [
    ['read_parquet on A’s files', `SELECT * FROM read_parquet('${a.dataPath}**/*.parquet')`],
    ['read_csv on /etc/passwd', "SELECT * FROM read_csv('/etc/passwd')"],
    ['read_json on A’s folder', `SELECT * FROM read_json('${a.dataPath}x.json')`],
    ['read_text on /etc/hostname', "SELECT * FROM read_text('/etc/hostname')"],
    ['read_blob', "SELECT * FROM read_blob('/etc/passwd')"],
    ['glob over the host', "SELECT * FROM glob('/etc/*')"],
    ['parquet_metadata on A', `SELECT * FROM parquet_metadata('${a.dataPath}**/*.parquet')`],
    ['a file as a table name', "SELECT * FROM '/etc/passwd'"],
    ['A’s parquet as a table name', `SELECT * FROM '${a.dataPath}sales/secrets/x.parquet'`],
    ['a relative .. path', `SELECT * FROM '../${a.workspaceId}/sales/secrets/data.parquet'`],
    ['an https URL', "SELECT * FROM read_csv('https://example.com/data.csv')"],
    ['an https URL as a table', "SELECT * FROM 'https://example.com/data.csv'"],
    ['an s3 URL into A', `SELECT * FROM read_parquet('s3://oxbow-test/${a.workspaceId}/**/*.parquet')`],
    ['ATTACH a file', "ATTACH '/tmp/stolen.db' AS stolen"],
    ['COPY TO a file', "COPY (SELECT 1) TO '/tmp/out.csv'"],
    ['EXPORT DATABASE', "EXPORT DATABASE '/tmp/export'"],
    ['INSTALL an extension', 'INSTALL httpfs'],
    ['LOAD an extension', 'LOAD httpfs'],
    ['SET a setting', 'SET enable_external_access = true'],
    ['PRAGMA', 'PRAGMA database_list'],
    ['RESET a setting', 'RESET memory_limit'],
    ['CALL a procedure', "CALL ducklake_expire_snapshots('lake', older_than => now())"],
    ['duckdb_settings()', 'SELECT * FROM duckdb_settings()'],
    ['duckdb_extensions()', 'SELECT * FROM duckdb_extensions()'],
    ['duckdb_databases()', 'SELECT * FROM duckdb_databases()'],
    ['duckdb_secrets()', 'SELECT * FROM duckdb_secrets()'],
    ['duckdb_tables view', 'SELECT * FROM duckdb_tables'],
    ['current_setting', "SELECT current_setting('allowed_directories')"],
    ['which_secret', "SELECT which_secret('s3://oxbow-test/x', 's3')"],
    ['getenv', "SELECT getenv('HOME')"],
    ['the DuckLake metadata catalog', 'SELECT * FROM __ducklake_metadata_lake.ducklake_table'],
    ['A’s metadata schema', `SELECT * FROM __ducklake_metadata_lake.${a.schema}.ducklake_table`],
    ['the metadata store’s users table', 'SELECT * FROM __ducklake_metadata_lake.public.users'],
    ['quoted metadata catalog', 'SELECT * FROM "__ducklake_metadata_lake"."ducklake_snapshot"'],
    ['ducklake_snapshots()', "SELECT * FROM ducklake_snapshots('lake')"],
    ['postgres_query on the metadata', "SELECT * FROM postgres_query('__ducklake_metadata_lake', 'SELECT email FROM users')"],
    ['postgres_scan', "SELECT * FROM postgres_scan('host=127.0.0.1', 'public', 'users')"],
    ['information_schema', 'SELECT * FROM information_schema.tables'],
    ['pg_catalog', 'SELECT * FROM pg_catalog.pg_tables'],
    ['pg_settings', 'SELECT * FROM pg_settings'],
    ['sqlite_master', 'SELECT * FROM sqlite_master'],
    ['system catalog', 'SELECT * FROM system.main.duckdb_settings'],
    ['temp catalog', 'SELECT * FROM temp.main.anything'],
    ['DuckLake’s filename column', 'SELECT filename FROM mine'],
    ['filename under time travel', 'SELECT m.filename FROM mine AS m AT (TIMESTAMP => now())'],
    ['query() table function', "SELECT * FROM query('SELECT * FROM duckdb_settings()')"],
    ['query_table()', "SELECT * FROM query_table('sales.secrets')"],
    ['serialized SQL execution', "SELECT * FROM json_execute_serialized_sql(json_serialize_sql('SELECT 1'))"],
    ['mixed-case function name', "SELECT * FROM ReAd_CsV('/etc/passwd')"],
    ['quoted function name', 'SELECT * FROM "read_csv"(\'/etc/passwd\')'],
    ['a table function hidden in a CTE', "WITH x AS (SELECT * FROM read_csv('/etc/passwd')) SELECT * FROM x"],
    ['a table function in a scalar subquery', "SELECT (SELECT count(*) FROM read_text('/etc/passwd'))"],
    ['a table function in LATERAL', "SELECT * FROM range(3) r, LATERAL read_csv('/etc/passwd')"],
    ['a table function in a UNION branch', "SELECT 1 AS a UNION ALL SELECT count(*) FROM read_text('/etc/passwd')"],
    ['a statement behind a semicolon', "SELECT 1; ATTACH '/tmp/x.db' AS x"],
    ['a statement behind a comment line', 'SELECT 1; -- harmless\nSET enable_external_access = true'],
    ['two selects', 'SELECT 1; SELECT 2'],
    ['A’s table by name', 'SELECT * FROM sales.secrets'],
    ['A’s table qualified with a catalog', 'SELECT * FROM lake.sales.secrets'],
    ['DESCRIBE A’s table', 'DESCRIBE sales.secrets'],
    ['SUMMARIZE over a file', "SUMMARIZE SELECT * FROM read_csv('/etc/passwd')"],
    ['DESCRIBE over a file', "DESCRIBE SELECT * FROM read_csv('/etc/passwd')"],
    ['SHOW TABLES', 'SHOW TABLES'],
    ['SHOW ALL TABLES', 'SHOW ALL TABLES'],
    ['SHOW DATABASES', 'SHOW DATABASES'],
    ['bare DESCRIBE', 'DESCRIBE'],
    ['CREATE TABLE', 'CREATE TABLE main.x AS SELECT 1'],
    ['DROP TABLE', 'DROP TABLE sales.secrets'],
    ['CREATE MACRO', 'CREATE MACRO f() AS 1'],
    ['a parameter marker', 'SELECT $1'],
    ['pg_settings beside a CTE of its name', 'SELECT name, setting FROM pg_settings, (WITH pg_settings AS (SELECT 1 AS x) SELECT x FROM pg_settings) q'],
    [
      'duckdb_databases beside a CTE of its name',
      'SELECT * FROM duckdb_databases, (WITH duckdb_databases AS (SELECT 1 AS x) SELECT x FROM duckdb_databases) q',
    ],
    ['a system view inside its namesake CTE', 'WITH duckdb_settings AS (SELECT * FROM duckdb_settings) SELECT * FROM duckdb_settings'],
    ['SUMMARIZE of DuckLake’s filename column', 'SUMMARIZE SELECT filename FROM mine'],
    ['DESCRIBE of DuckLake’s snapshot column', 'DESCRIBE SELECT snapshot_id, file_row_number FROM mine'],
    ['current_query()', 'SELECT current_query()'],
    ['current_query() in a lambda', 'SELECT list_transform([1], lambda x: current_query())'],
    ['a sum of 200,000 terms', `SELECT ${'1 + '.repeat(200_000)}1`],
    ['50,000 nested parentheses', `SELECT ${'('.repeat(50_000)}1${')'.repeat(50_000)}`],
  ];
}

for (const backend of backends) {
  describe(`sandbox on ${backend}`, () => {
    let t: TestApp;
    let a: { workspaceId: string; dataPath: string; schema: string };
    let b: string;

    beforeAll(async () => {
      t = await startTestApp(backend);
      const { user: alice, workspaceId: workspaceA } = await withWorkspace(t, { label: 'tenant-a' });
      const { user: bob, workspaceId: workspaceB } = await withWorkspace(t, { label: 'tenant-b' });
      b = workspaceB;
      await pushOk(t, workspaceA, alice, { table: 'sales.secrets', records: [{ id: 1, value: secret }] });
      await pushOk(t, b, bob, { table: 'main.mine', records: [{ id: 1, value: 'bob data' }] });
      a = {
        workspaceId: workspaceA,
        dataPath: workspaceDataPath({ workspaceId: workspaceA, catalog: { kind: 'sqlite', dir: '' }, lake: t.backend.config.lake }),
        schema: catalogSchemaName(workspaceA),
      };
    });
    afterAll(() => t.stop());

    test('tenant B reads, describes and summarizes its own data; a statement inside a comment stays a comment', async () => {
      expect(await query(t, b, 'SELECT value FROM mine')).toEqual([{ value: 'bob data' }]);
      expect(await query(t, b, 'SELECT value FROM lake.main.mine')).toEqual([{ value: 'bob data' }]);
      expect((await query(t, b, 'DESCRIBE mine')).map((row) => row.column_name)).toEqual(['id', 'value']);
      expect((await query(t, b, 'SUMMARIZE mine')).length).toBe(2);
      expect(await query(t, b, "SELECT 1 AS one /* ; ATTACH '/tmp/x.db' AS x; */")).toEqual([{ one: 1 }]);
    });

    test('every attack fails with a 4xx error and reveals nothing', async () => {
      const outcomes: { name: string; status: number | string; leaked: boolean }[] = [];
      for (const [name, sql] of attacks(a)) {
        try {
          const rows = await query(t, b, sql);
          outcomes.push({ name, status: 'ran', leaked: JSON.stringify(rows).includes(secret) });
        } catch (error) {
          const status = error instanceof AppError ? error.status : 'not an AppError';
          const text = error instanceof AppError ? `${error.message} ${error.hint ?? ''}` : String(error);
          // The attacker's own input may be echoed; what must never appear is A's data, the host's files or server paths.
          outcomes.push({ name, status, leaked: text.includes(secret) || text.includes('root:') || text.includes(t.backend.config.dataDir) });
        }
      }
      const failures = outcomes.filter((outcome) => outcome.leaked || typeof outcome.status !== 'number' || outcome.status < 400 || outcome.status >= 500);
      expect(failures).toEqual([]);
    });

    test('the locked instance refuses on its own, even for SQL that skips the checks', async () => {
      await t.services.engine.engines.with(b, (engine) =>
        engine.read(async (connection) => {
          for (const sql of [
            `SELECT * FROM read_parquet('${a.dataPath}**/*.parquet')`,
            "SELECT * FROM read_csv('/etc/passwd')",
            "ATTACH '/tmp/escape.db' AS escape",
            'SET enable_external_access = true',
            "SET allowed_directories = ['/']",
            'INSTALL httpfs',
          ]) {
            expect(
              await connection.run(sql).then(
                () => 'ran',
                () => 'refused',
              ),
            ).toBe('refused');
          }
        }),
      );
    });
  });
}
