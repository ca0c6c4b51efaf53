import { rmSync } from 'node:fs';
import type { Store } from '../store/store';
import { catalogSchemaName, sqliteCatalogFile, type CatalogStore } from './catalog-attachment';
import { sqlIdentifier } from './sql-literals';

/** Removes a workspace's DuckLake catalog: its Postgres schema, or its SQLite file. Idempotent. */
export async function dropCatalog(store: Store, catalog: CatalogStore, workspaceId: string): Promise<void> {
  if (catalog.kind === 'postgres') {
    // The schema name derives from a validated uuid; quoting is belt and braces.
    await store.schemaTransaction((tx) => tx.script(`DROP SCHEMA IF EXISTS ${sqlIdentifier(catalogSchemaName(workspaceId))} CASCADE`));
    return;
  }
  const file = sqliteCatalogFile(catalog.dir, workspaceId);
  for (const path of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) rmSync(path, { force: true });
}
