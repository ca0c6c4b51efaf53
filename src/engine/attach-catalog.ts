import { existsSync, mkdirSync } from 'node:fs';
import { Database } from 'bun:sqlite';
import type { EngineConnection } from './duckdb/engine-connection';
import { isCatalogInitializationRace, isCatalogLocked } from './duckdb/duckdb-error';
import { retriedWhileCatalogLocked } from './catalog-retry';
import { attachCatalogStatements, sqliteCatalogFile, workspaceDataPath, type CatalogLocation } from './catalog-attachment';
import { guardWholeCatalogScans } from './whole-catalog-scans';

/** Attaches a workspace's DuckLake catalog on a connection, creating local directories it needs first. */
export async function attachCatalog(connection: EngineConnection, location: CatalogLocation, alias: string): Promise<void> {
  let file: string | undefined;
  let created = false;
  if (location.catalog.kind === 'sqlite') {
    mkdirSync(location.catalog.dir, { recursive: true });
    file = sqliteCatalogFile(location.catalog.dir, location.workspaceId);
    created = !existsSync(file);
    if (created) createWithWriteAheadLog(file);
  }
  if (location.lake.kind === 'local') mkdirSync(workspaceDataPath(location), { recursive: true });
  // The statements are idempotent (CREATE OR REPLACE, ATTACH IF NOT EXISTS): trying again is safe.
  const attach = attachCatalogStatements(location, alias).join(';\n');
  await retriedWhileCatalogLocked(() => connection.configure(attach), 5, (error) => isCatalogLocked(error) || isCatalogInitializationRace(error));
  if (file) await guardWholeCatalogScans(connection, alias, file, created);
}

/**
 * An embedded catalog keeps a write-ahead log: in SQLite's default mode a query that is reading the
 * catalog (for as long as its transaction lasts) makes every commit fail with "database is locked".
 * The mode is stored in the file, so it is set once, when the file is made. Only then: this is
 * bun:sqlite, a second SQLite library in the process, and closing its handle on a file that DuckDB's
 * SQLite has open would release DuckDB's locks on it (POSIX locks belong to the process), letting two
 * writers into the catalog at once.
 */
function createWithWriteAheadLog(file: string): void {
  const db = new Database(file, { create: true });
  try {
    db.run('PRAGMA journal_mode = WAL');
  } finally {
    db.close();
  }
}
