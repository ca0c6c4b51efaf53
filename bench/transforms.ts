// A 20-node transform DAG over TPC-H SF1 through the service (its HTTP run endpoint, the DAG workflow on
// Temporal, each node materialised into a DuckLake table) against the same 20 CREATE TABLE … AS
// statements run one after another on a raw DuckDB over the same data, in the same run; and the
// orchestration cost per node, from a chain of transforms that do nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { testEnv } from '../test/support/test-env';
import { startTestApp, type TestApp } from '../test/support/test-app';
import { sqlString } from '../src/engine/sql-literals';
import { findDagRun, listDagRunRuns } from '../src/transforms/transform-queries';
import { openBenchWorkspace } from './bench-workspace';
import { median, report } from './support';
import { generateTpch, tpchTables } from './tpch/generate';
import { loadIntoLake } from './tpch/lake-load';

const runs = 3;

/** The DAG: `{src}` is the schema of the TPC-H tables, `{out}` the schema the transforms write. */
const nodes: { name: string; sql: string }[] = [
  {
    name: 'order_revenue',
    sql: 'SELECT l_orderkey, sum(l_extendedprice * (1 - l_discount)) AS revenue, count(*) AS items FROM {src}.lineitem GROUP BY l_orderkey',
  },
  {
    name: 'orders_enriched',
    sql: 'SELECT o_orderkey, o_custkey, o_orderdate, o_orderpriority, r.revenue, r.items FROM {src}.orders o JOIN {out}.order_revenue r ON r.l_orderkey = o.o_orderkey',
  },
  { name: 'customer_revenue', sql: 'SELECT o_custkey, sum(revenue) AS revenue, count(*) AS orders FROM {out}.orders_enriched GROUP BY o_custkey' },
  {
    name: 'customer_nation',
    sql: 'SELECT c_custkey, c_name, n_name, r_name FROM {src}.customer JOIN {src}.nation ON c_nationkey = n_nationkey JOIN {src}.region ON n_regionkey = r_regionkey',
  },
  {
    name: 'revenue_by_nation',
    sql: 'SELECT n_name, sum(revenue) AS revenue FROM {out}.customer_revenue JOIN {out}.customer_nation ON c_custkey = o_custkey GROUP BY n_name',
  },
  { name: 'monthly_revenue', sql: "SELECT date_trunc('month', o_orderdate) AS month, sum(revenue) AS revenue FROM {out}.orders_enriched GROUP BY 1" },
  { name: 'ship_modes', sql: 'SELECT l_shipmode, count(*) AS lines, sum(l_quantity) AS quantity FROM {src}.lineitem GROUP BY l_shipmode' },
  {
    name: 'pricing_summary',
    sql: 'SELECT l_returnflag, l_linestatus, sum(l_quantity) AS qty, sum(l_extendedprice) AS price, avg(l_discount) AS discount, count(*) AS lines FROM {src}.lineitem GROUP BY l_returnflag, l_linestatus',
  },
  { name: 'part_sales', sql: 'SELECT l_partkey, sum(l_quantity) AS qty, sum(l_extendedprice) AS value FROM {src}.lineitem GROUP BY l_partkey' },
  { name: 'part_enriched', sql: 'SELECT p_partkey, p_brand, p_type, s.qty, s.value FROM {src}.part JOIN {out}.part_sales s ON s.l_partkey = p_partkey' },
  { name: 'brand_sales', sql: 'SELECT p_brand, sum(value) AS value, sum(qty) AS qty FROM {out}.part_enriched GROUP BY p_brand' },
  { name: 'supplier_stock', sql: 'SELECT ps_suppkey, sum(ps_supplycost * ps_availqty) AS stock_value FROM {src}.partsupp GROUP BY ps_suppkey' },
  {
    name: 'supplier_nation',
    sql: 'SELECT s_suppkey, s_name, n_name, st.stock_value FROM {src}.supplier JOIN {src}.nation ON s_nationkey = n_nationkey JOIN {out}.supplier_stock st ON st.ps_suppkey = s_suppkey',
  },
  { name: 'stock_by_nation', sql: 'SELECT n_name, sum(stock_value) AS stock_value FROM {out}.supplier_nation GROUP BY n_name' },
  {
    name: 'nation_summary',
    sql: 'SELECT r.n_name, r.revenue, s.stock_value FROM {out}.revenue_by_nation r JOIN {out}.stock_by_nation s ON s.n_name = r.n_name',
  },
  { name: 'top_customers', sql: 'SELECT o_custkey, revenue, orders FROM {out}.customer_revenue ORDER BY revenue DESC LIMIT 1000' },
  {
    name: 'top_customer_details',
    sql: 'SELECT t.o_custkey, t.revenue, c.c_name, c.n_name FROM {out}.top_customers t JOIN {out}.customer_nation c ON c.c_custkey = t.o_custkey',
  },
  { name: 'priority_revenue', sql: 'SELECT o_orderpriority, count(*) AS orders, sum(revenue) AS revenue FROM {out}.orders_enriched GROUP BY o_orderpriority' },
  { name: 'late_lines', sql: 'SELECT l_orderkey, count(*) AS late FROM {src}.lineitem WHERE l_receiptdate > l_commitdate GROUP BY l_orderkey' },
  {
    name: 'late_by_month',
    sql: "SELECT date_trunc('month', o_orderdate) AS month, sum(late) AS late FROM {out}.late_lines JOIN {src}.orders ON o_orderkey = l_orderkey GROUP BY 1",
  },
];

const sqlIn = (sql: string, src: string, out: string) => sql.replaceAll('{src}', src).replaceAll('{out}', out);
const ms = (value: number) => Math.round(value);
// The machine is shared: a run is compared with the raw run just before it, which saw about the same load.
const pairs = (service: number[], raw: number[]) => service.map((value, index) => (value / raw[index]!).toFixed(2)).join(', ');
const ratios = (service: number[], raw: number[]) => median(service.map((value, index) => value / raw[index]!)).toFixed(2);

const extensionDir = join(testEnv.toolsDir(), 'duckdb-extensions');
const data = await generateTpch(extensionDir, 1);
const rawDir = mkdtempSync(join(tmpdir(), 'oxbow-bench-transforms-'));
let t: TestApp | undefined;
try {
  // Raw DuckDB with the service's threads and memory, writing tables of a database file, reading the
  // TPC-H tables either from its own storage (loaded beforehand) or as views over the same Parquet
  // files the lake was loaded from (as in the TPC-H benchmark; the lake keeps its tables in Parquet).
  const openRaw = async (name: string, source: 'native' | 'parquet') => {
    const instance = await DuckDBInstance.create(join(rawDir, `${name}.duckdb`), { threads: '2', memory_limit: '1GB' });
    const connection = await instance.connect();
    await connection.run('CREATE SCHEMA tpch; CREATE SCHEMA bench');
    for (const table of tpchTables) {
      const parquet = `SELECT * FROM read_parquet(${sqlString(data.parquet[table])})`;
      await connection.run(source === 'native' ? `CREATE TABLE tpch.${table} AS ${parquet}` : `CREATE VIEW tpch.${table} AS ${parquet}`);
    }
    return {
      async run() {
        const startedAt = performance.now();
        for (const node of nodes) await connection.run(`CREATE OR REPLACE TABLE bench.${node.name} AS ${sqlIn(node.sql, 'tpch', 'bench')}`);
        return performance.now() - startedAt;
      },
      close() {
        connection.closeSync();
        instance.closeSync();
      },
    };
  };
  const rawNative = await openRaw('native', 'native');
  const rawParquet = await openRaw('parquet', 'parquet');

  t = await startTestApp('local', { worker: true });
  const { user, workspace, server } = await openBenchWorkspace(t, 'transforms');
  await t.services.engine.engines.release(workspace.id);
  await loadIntoLake(t.backend.config, workspace.id, 'tpch', data);
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${user.accessToken}` };
  const api = `${server.url}/api/v1/workspaces/${workspace.id}/transforms`;
  const call = async (path: string, body?: unknown) => {
    const response = await fetch(`${api}${path}`, { method: 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (response.status >= 300) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: string; dag_run_id: string; status: string };
  };
  for (const node of nodes) await call('', { name: node.name, sql: sqlIn(node.sql, 'tpch', 'bench'), target_table: `bench.${node.name}` });
  const dagRun = async (body: unknown) => {
    const startedAt = performance.now();
    const run = await call('/run', body);
    const store = t!.infra.store;
    for (let status = run.status; status === 'running'; status = (await store.first(findDagRun, { id: run.dag_run_id }))!.status) await Bun.sleep(20);
    const final = (await store.first(findDagRun, { id: run.dag_run_id }))!.status;
    if (final !== 'succeeded') {
      const failed = (await store.all(listDagRunRuns, { dag_run_id: run.dag_run_id })).filter((entry) => entry.status !== 'succeeded');
      throw new Error(
        `the DAG run ${run.dag_run_id} ${final}: ${failed.map((entry) => `${entry.transform_name} ${entry.status} ${entry.error_message} ${entry.error_hint ?? ''}`).join('; ')}`,
      );
    }
    const elapsed = performance.now() - startedAt;
    const nodeRuns = await store.all(listDagRunRuns, { dag_run_id: run.dag_run_id });
    nodeMs.push(nodeRuns.reduce((sum, entry) => sum + Number(entry.duration_ms ?? 0), 0) / nodeRuns.length);
    return elapsed;
  };
  const nodeMs: number[] = [];

  // Empty transforms chained one after another: what the orchestration costs a node.
  let previous: string | undefined;
  for (let index = 0; index < nodes.length; index++) {
    previous = (await call('', { name: `empty_${index}`, sql: 'SELECT 1 AS x', target_table: `empty.t${index}`, depends_on: previous ? [previous] : [] })).id;
  }

  // Warm-up of both, then the runs alternate.
  await rawNative.run();
  await rawParquet.run();
  await dagRun({ select: nodes.map((node) => node.name).join(' ') });
  const rawMs: number[] = [];
  const parquetMs: number[] = [];
  const serviceMs: number[] = [];
  const emptyMs: number[] = [];
  const realNodeMs: number[] = [];
  const emptyNodeMs: number[] = [];
  for (let run = 0; run < runs; run++) {
    rawMs.push(await rawNative.run());
    parquetMs.push(await rawParquet.run());
    serviceMs.push(await dagRun({ select: nodes.map((node) => node.name).join(' ') }));
    realNodeMs.push(nodeMs.at(-1)!);
    emptyMs.push(await dagRun({ select: '+empty_19' }));
    emptyNodeMs.push(nodeMs.at(-1)!);
  }
  const raw20 = median(rawMs);
  const parquet20 = median(parquetMs);
  const service20 = median(serviceMs);
  const empty20 = median(emptyMs);
  report(
    'transforms',
    [
      { what: '20 CREATE TABLE … AS one after another, raw DuckDB, tables in its own storage', 'median ms': ms(raw20), runs: rawMs.map(ms).join(', ') },
      {
        what: '20 CREATE TABLE … AS one after another, raw DuckDB, tables as views over the Parquet files',
        'median ms': ms(parquet20),
        runs: parquetMs.map(ms).join(', '),
      },
      { what: '20-node DAG through the service (HTTP → Temporal → DuckLake tables)', 'median ms': ms(service20), runs: serviceMs.map(ms).join(', ') },
      { what: 'service ÷ raw over Parquet, medians', 'median ms': `${(service20 / parquet20).toFixed(2)} (target ≤ 1.3)`, runs: '' },
      {
        what: 'service ÷ raw over Parquet, each run against the raw run just before it',
        'median ms': ratios(serviceMs, parquetMs),
        runs: pairs(serviceMs, parquetMs),
      },
      { what: 'service ÷ raw in its own storage, medians', 'median ms': (service20 / raw20).toFixed(2), runs: '' },
      {
        what: 'service ÷ raw in its own storage, each run against the raw run just before it',
        'median ms': ratios(serviceMs, rawMs),
        runs: pairs(serviceMs, rawMs),
      },
      { what: 'chain of 20 empty transforms', 'median ms': ms(empty20), runs: emptyMs.map(ms).join(', ') },
      { what: 'orchestration per node (chain ÷ 20)', 'median ms': ms(empty20 / 20), runs: '' },
      {
        what: 'an empty node’s activity (claim to record, materialisation included)',
        'median ms': ms(median(emptyNodeMs)),
        runs: emptyNodeMs.map(ms).join(', '),
      },
      { what: 'a TPC-H node’s activity, mean over the 20', 'median ms': ms(median(realNodeMs)), runs: realNodeMs.map(ms).join(', ') },
      { what: 'a raw statement (own storage), mean over the 20', 'median ms': ms(raw20 / 20), runs: '' },
    ],
    { scale_factor: 1, runs, max_parallel: t.backend.config.transforms.maxParallel, duckdb_threads: t.backend.config.duckdb.threads },
  );
  await server.stop();
  rawNative.close();
  rawParquet.close();
} finally {
  await t?.stop();
  data.cleanup();
  rmSync(rawDir, { recursive: true, force: true });
}
process.exit(0);
