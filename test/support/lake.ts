import { expect } from 'bun:test';
import { bodyOf } from './http';
import type { TestUser } from './accounts';
import type { TestApp } from './test-app';
import { RowCollector } from '../../src/engine/sql/result-sink';
import type { RunOptions } from '../../src/engine/sql/query-runner';
import { attachCatalog } from '../../src/engine/attach-catalog';
import { createDuckDBInstance } from '../../src/engine/duckdb/create-instance';
import { EngineConnection } from '../../src/engine/duckdb/engine-connection';

export async function push(t: TestApp, workspaceId: string, user: TestUser, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return t.request(`/api/v1/workspaces/${workspaceId}/push`, { method: 'POST', json: body, token: user.accessToken, headers });
}

export async function pushOk(t: TestApp, workspaceId: string, user: TestUser, body: unknown): Promise<{ records_written: number; table: string }> {
  const response = await push(t, workspaceId, user, body);
  if (response.status !== 200) throw new Error(`push failed: ${response.status} ${await response.text()}`);
  return bodyOf(response);
}

/** Runs SQL through the engine's query path (sandbox included). */
export async function runQuery(t: TestApp, workspaceId: string, sql: string, options: Partial<RunOptions> = {}) {
  const collector = new RowCollector();
  const outcome = await t.services.engine.queries.run(workspaceId, sql, collector, { timeoutMs: 30_000, maxRows: 1_000_000, maxBytes: 1e12, ...options });
  return { outcome, rows: collector.objects(), values: collector.collected };
}

/** …and returns the rows as objects. */
export async function query(t: TestApp, workspaceId: string, sql: string): Promise<Record<string, unknown>[]> {
  return (await runQuery(t, workspaceId, sql)).rows;
}

export async function columnsOf(t: TestApp, workspaceId: string, table: string, user: TestUser): Promise<Record<string, string>> {
  const response = await t.request(`/api/v1/workspaces/${workspaceId}/query/tables/${table}/metadata`, { token: user.accessToken });
  expect(response.status).toBe(200);
  const detail = await bodyOf(response);
  return Object.fromEntries(detail.columns.map((column: { name: string; type: string }) => [column.name, column.type]));
}

/**
 * Runs `work` on a DuckDB instance of its own with the workspace's catalog attached as `alias`, as a
 * worker process or maintenance would commit to it; the instance is closed afterwards.
 */
export async function withCatalogElsewhere<T>(t: TestApp, workspaceId: string, alias: string, work: (connection: EngineConnection) => Promise<T>): Promise<T> {
  const location = await t.services.engine.engines.with(workspaceId, async (engine) => engine.location);
  const instance = await createDuckDBInstance({ extensionDir: t.backend.config.duckdb.extensionDir });
  const connection = new EngineConnection(await instance.connect());
  try {
    await attachCatalog(connection, location, alias);
    return await work(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
