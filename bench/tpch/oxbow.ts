import type { Config } from '../../src/config';
import { startTestApp } from '../../test/support/test-app';
import { openBenchWorkspace } from '../bench-workspace';
import { tpchTables, type TpchData } from './generate';
import { loadIntoLake } from './lake-load';
import type { QueryEngine } from './measure';
import { toRows } from './results';

const schema = 'tpch';
// A table name right after FROM, JOIN or a comma: the texts also use `nation` as a column alias
// (`n_name AS nation`, `GROUP BY nation`), which no comma or FROM precedes.
const tableReference = new RegExp(`(\\b(?:FROM|JOIN)\\s+|,\\s*)(${tpchTables.join('|')})\\b`, 'gi');

/** The query on the workspace's tables: each table reference gets the schema. */
export function lakeSql(sql: string): string {
  return sql.replace(tableReference, `$1${schema}.$2`);
}

/**
 * The service in process on the local backend (SQLite metadata and catalog, local lake files), the
 * data loaded into one workspace, and its query endpoint over real HTTP as a client calls it.
 */
export async function openOxbow(data: TpchData): Promise<QueryEngine & { loadMs: number; config: Config; workspaceId: string }> {
  const t = await startTestApp('local');
  const { user, workspace, server } = await openBenchWorkspace(t, 'tpch');
  await t.services.engine.engines.release(workspace.id);
  const loadStartedAt = performance.now();
  await loadIntoLake(t.backend.config, workspace.id, schema, data);
  const loadMs = performance.now() - loadStartedAt;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${user.accessToken}` };
  return {
    name: 'Oxbow',
    loadMs,
    config: t.backend.config,
    workspaceId: workspace.id,
    async run(sql) {
      const response = await fetch(`${server.url}/api/v1/workspaces/${workspace.id}/query`, { method: 'POST', headers, body: JSON.stringify({ sql: lakeSql(sql), force: true }) });
      if (response.status !== 200) throw new Error(`Oxbow answered ${response.status}: ${await response.text()}`);
      return toRows(((await response.json()) as { rows: unknown[][] }).rows);
    },
    async close() {
      await server.stop();
      await t.stop();
    },
  };
}
