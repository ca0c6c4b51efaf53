import { mkdirSync } from 'node:fs';
import type { EngineConnection } from './duckdb/engine-connection';
import { attachCatalogStatements, workspaceDataPath, type CatalogLocation } from './catalog-attachment';

/** Attaches a workspace's DuckLake catalog on a connection, creating local directories it needs first. */
export async function attachCatalog(connection: EngineConnection, location: CatalogLocation, alias: string): Promise<void> {
  if (location.catalog.kind === 'sqlite') mkdirSync(location.catalog.dir, { recursive: true });
  if (location.lake.kind === 'local') mkdirSync(workspaceDataPath(location), { recursive: true });
  for (const statement of attachCatalogStatements(location, alias)) await connection.run(statement);
}
