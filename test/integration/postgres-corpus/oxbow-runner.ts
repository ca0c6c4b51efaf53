import { startTestApp, type TestApp } from '../../support/test-app';
import { createVerifiedUser } from '../../support/accounts';
import { createWorkspace } from '../../support/workspaces';
import { datasetStatements } from './dataset-sql';
import { RowCollector } from '../../../src/engine/sql/result-sink';

/** What a query through Oxbow gives back: DuckDB type names and the values as the API encodes them. */
export interface OxbowResult {
  columns: { name: string; type: string }[];
  rows: unknown[][];
}

let service: Promise<{ app: TestApp; workspaceId: string }> | null = null;

/**
 * Runs a Postgres-dialect query through the service's own query path (translation, parsing, the
 * sandbox checks, execution on the workspace's locked DuckDB instance, value encoding) over the corpus
 * dataset loaded into a workspace's lake tables.
 */
export async function runOxbow(sql: string): Promise<OxbowResult> {
  service ??= openService();
  const { app, workspaceId } = await service;
  const collector = new RowCollector();
  const result = await app.services.engine.queries.run(workspaceId, sql, collector, { timeoutMs: 30_000, maxRows: 100_000, maxBytes: 1e9 });
  return { columns: result.columns, rows: collector.collected };
}

export async function closeOxbow(): Promise<void> {
  if (!service) return;
  const { app } = await service;
  service = null;
  await app.stop();
}

async function openService(): Promise<{ app: TestApp; workspaceId: string }> {
  const app = await startTestApp('local');
  const user = await createVerifiedUser(app, 'corpus');
  const { id: workspaceId } = await createWorkspace(app, user, 'corpus');
  // The dataset's exact column types matter to the comparison, so it is loaded with DDL in the lake
  // catalog (a push would infer BIGINT for integer columns, for instance).
  await app.services.engine.engines.with(workspaceId, (engine) =>
    engine.writeCatalog(async (connection) => {
      for (const statement of datasetStatements('duckdb')) await connection.run(statement);
    }),
  );
  return { app, workspaceId };
}
