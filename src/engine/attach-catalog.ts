import { existsSync, mkdirSync } from 'node:fs';
import { Database } from 'bun:sqlite';
import type { EngineConnection } from './duckdb/engine-connection';
import { isCatalogInitializationRace, isCatalogLocked } from './duckdb/duckdb-error';
import { retriedWhileCatalogLocked } from './catalog-retry';
import { attachCatalogStatements, sqliteCatalogFile, workspaceDataPath, type CatalogLocation } from './catalog-attachment';
import { guardWholeCatalogScans } from './whole-catalog-scans';

/**
 * Attaches a workspace's DuckLake catalog on a connection, creating local directories it needs first.
 * `keptConnections`: how many connections to a Postgres catalog the instance keeps between statements.
 */
export async function attachCatalog(connection: EngineConnection, location: CatalogLocation, alias: string, keptConnections?: number): Promise<void> {
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
  const attach = [...catalogPoolSettings(location, keptConnections), ...attachCatalogStatements(location, alias)].join(';\n');
  await retriedWhileCatalogLocked(
    () => connection.configure(attach),
    5,
    (error) => isCatalogLocked(error) || isCatalogInitializationRace(error),
  );
  if (file) await guardWholeCatalogScans(connection, alias, file, created);
}

/**
 * DuckDB's pool for a Postgres catalog: every DuckLake transaction holds one of its connections until
 * it ends (more are opened when statements run side by side, and closed after them), and by default up
 * to four stay open for a minute after. With many instances per process those kept connections were
 * most of what the process held on Postgres; now each instance keeps `kept` for ten seconds.
 */
function catalogPoolSettings(location: CatalogLocation, kept: number | undefined): string[] {
  if (location.catalog.kind !== 'postgres' || kept === undefined) return [];
  return [`SET pg_pool_max_connections = ${Math.max(0, Math.floor(kept))}`, 'SET pg_pool_idle_timeout_millis = 10000'];
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
