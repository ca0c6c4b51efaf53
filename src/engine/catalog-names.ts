/** The name every workspace instance attaches its DuckLake catalog under. */
export const lakeAlias = 'lake';

/** The database DuckLake attaches beside a catalog attached as `alias`, holding the catalog's own tables. */
export function metadataDatabase(alias: string): string {
  return `__ducklake_metadata_${alias}`;
}

/** The read connections' default catalog: the instance's own empty in-memory database. */
export const readDefaultCatalog = 'memory';

/**
 * Makes the lake a connection's default catalog, the read catalog's schema (which holds the Postgres
 * dialect's macros) searched after it.
 */
export const useLake: readonly string[] = [`USE ${lakeAlias}`, `SET search_path = '${lakeAlias}.main,${readDefaultCatalog}.main'`];

/** Makes the read catalog a connection's default again, with the search path it had. */
export const useReadCatalog: readonly string[] = [`USE ${readDefaultCatalog}`, 'RESET search_path'];
