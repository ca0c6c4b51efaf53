import type { Config } from '../../src/config';
import { startTestApp, type TestApp } from '../../test/support/test-app';
import { openBenchWorkspace } from '../bench-workspace';
import { tpchTables, type TpchData } from './generate';
import { loadIntoLake, oneFile, type LoadShape } from './lake-load';
import type { QueryEngine } from './measure';
import { toRows } from './results';

/** The schema of the tables loaded in one statement each: one file per table. */
export const oneFileSchema = 'tpch';
// A table name right after FROM, JOIN or a comma: the texts also use `nation` as a column alias
// (`n_name AS nation`, `GROUP BY nation`), which no comma or FROM precedes.
const tableReference = new RegExp(`(\\b(?:FROM|JOIN)\\s+|,\\s*)(${tpchTables.join('|')})\\b`, 'gi');

/** The query on the workspace's tables: each table reference gets the schema. */
export function lakeSql(sql: string, schema: string): string {
  return sql.replace(tableReference, `$1${schema}.$2`);
}

export interface OxbowService {
  loadMs: Record<string, number>;
  config: Config;
  workspaceId: string;
  t: TestApp;
  /** The query endpoint on the tables of one schema. */
  engine(name: string, schema: string): QueryEngine;
  close(): Promise<void>;
}

/**
 * The service in process on the local backend (SQLite metadata and catalog, local lake files), the
 * data loaded into one workspace once per schema and shape, and its query endpoint over real HTTP as
 * a client calls it.
 */
export async function openOxbow(data: TpchData, shapes: Record<string, LoadShape> = { [oneFileSchema]: oneFile }): Promise<OxbowService> {
  const t = await startTestApp('local');
  const { user, workspace, server } = await openBenchWorkspace(t, 'tpch');
  await t.services.engine.engines.release(workspace.id);
  const loadMs: Record<string, number> = {};
  for (const [schema, shape] of Object.entries(shapes)) {
    const loadStartedAt = performance.now();
    await loadIntoLake(t.backend.config, workspace.id, schema, data, shape);
    loadMs[schema] = performance.now() - loadStartedAt;
  }
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${user.accessToken}` };
  // A run under load outlasts an access token: it is renewed between runs, never inside a timed one.
  let tokens = { access: user.accessToken, refresh: user.refreshToken, at: performance.now() };
  const renewEvery = 5 * 60_000;
  const renew = async () => {
    if (performance.now() - tokens.at < renewEvery) return;
    const response = await fetch(`${server.url}/api/v1/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: tokens.refresh }),
    });
    if (response.status !== 200) throw new Error(`refreshing the token answered ${response.status}: ${await response.text()}`);
    const pair = (await response.json()) as { access_token: string; refresh_token: string };
    tokens = { access: pair.access_token, refresh: pair.refresh_token, at: performance.now() };
    headers.authorization = `Bearer ${tokens.access}`;
  };
  return {
    loadMs,
    config: t.backend.config,
    workspaceId: workspace.id,
    t,
    engine: (name, schema) => ({
      name,
      async run(sql) {
        const body = JSON.stringify({ sql: lakeSql(sql, schema), force: true });
        const response = await fetch(`${server.url}/api/v1/workspaces/${workspace.id}/query`, { method: 'POST', headers, body });
        if (response.status !== 200) throw new Error(`Oxbow answered ${response.status}: ${await response.text()}`);
        return toRows(((await response.json()) as { rows: unknown[][] }).rows);
      },
      beforeRun: renew,
      close: async () => undefined,
    }),
    async close() {
      await server.stop();
      await t.stop();
    },
  };
}
