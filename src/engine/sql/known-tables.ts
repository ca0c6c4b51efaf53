import { namedQuery } from '../../store/named-query';
import type { CatalogReader } from '../catalog-reader';

export interface KnownTables {
  /** Live tables as `schema.table`, lower-case. */
  live: Set<string>;
  /** Every table name the catalog ever held (for time travel to dropped or replaced tables). */
  ever: Set<string>;
}

/**
 * `schema.table` of every table the catalog holds now (`live`) or ever held, and of its views (only
 * transforms create views, from SQL that passed the same checks, naming the lake's tables in full).
 */
const tableNames = namedQuery<{ live_only: number }, { name: string }>(
  'ducklake.table_names',
  `SELECT DISTINCT lower(s.schema_name) || '.' || lower(t.table_name) AS name
   FROM {catalog}.ducklake_table t JOIN {catalog}.ducklake_schema s ON s.schema_id = t.schema_id
   WHERE :live_only = 0 OR (t.end_snapshot IS NULL AND s.end_snapshot IS NULL)
   UNION
   SELECT lower(s.schema_name) || '.' || lower(v.view_name) AS name
   FROM {catalog}.ducklake_view v JOIN {catalog}.ducklake_schema s ON s.schema_id = v.schema_id
   WHERE :live_only = 0 OR (v.end_snapshot IS NULL AND s.end_snapshot IS NULL)`,
);

/**
 * The workspace's table names, kept between queries. They are read from DuckLake's own metadata
 * tables: DuckDB's duckdb_tables() waited for every other running statement of the instance. A name
 * missing from the cache reloads it (another process may have created the table); a cached name
 * whose table was dropped elsewhere fails in DuckDB with the same UNDEFINED_TABLE.
 */
export class TableNameCache {
  private live: Set<string> | undefined;

  invalidate(): void {
    this.live = undefined;
  }

  async resolve(catalog: CatalogReader, wanted: string[], withHistory: boolean): Promise<KnownTables> {
    if (!this.live || wanted.some((name) => !this.live!.has(name))) this.live = await names(catalog, true);
    if (!withHistory) return { live: this.live, ever: this.live };
    return { live: this.live, ever: new Set([...this.live, ...(await names(catalog, false))]) };
  }
}

async function names(catalog: CatalogReader, liveOnly: boolean): Promise<Set<string>> {
  return new Set((await catalog.all(tableNames, { live_only: liveOnly ? 1 : 0 })).map((row) => row.name));
}
