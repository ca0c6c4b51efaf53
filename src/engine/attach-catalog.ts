import { mkdirSync } from 'node:fs';
import { Database } from 'bun:sqlite';
import type { EngineConnection } from './duckdb/engine-connection';
import { attachCatalogStatements, sqliteCatalogFile, workspaceDataPath, type CatalogLocation } from './catalog-attachment';

/** Attaches a workspace's DuckLake catalog on a connection, creating local directories it needs first. */
export async function attachCatalog(connection: EngineConnection, location: CatalogLocation, alias: string): Promise<void> {
  if (location.catalog.kind === 'sqlite') {
    mkdirSync(location.catalog.dir, { recursive: true });
    useWriteAheadLog(sqliteCatalogFile(location.catalog.dir, location.workspaceId));
  }
  if (location.lake.kind === 'local') mkdirSync(workspaceDataPath(location), { recursive: true });
  await connection.configure(attachCatalogStatements(location, alias).join(';\n'));
}

/**
 * An embedded catalog keeps a write-ahead log: in SQLite's default mode a query that is reading the
 * catalog (for as long as its transaction lasts) makes every commit fail with "database is locked".
 * The mode is stored in the file, so this is a no-op after the first time.
 */
function useWriteAheadLog(file: string): void {
  const db = new Database(file, { create: true });
  try {
    db.run('PRAGMA journal_mode = WAL');
  } finally {
    db.close();
  }
}
