/** The name every workspace instance attaches its DuckLake catalog under. */
export const lakeAlias = 'lake';

/** The database DuckLake attaches beside a catalog attached as `alias`, holding the catalog's own tables. */
export function metadataDatabase(alias: string): string {
  return `__ducklake_metadata_${alias}`;
}

/** The read connections' default catalog: the instance's own empty in-memory database. */
export const readDefaultCatalog = 'memory';
