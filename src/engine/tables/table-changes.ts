import { namedQuery } from '../../store/named-query';
import type { CatalogReader } from '../catalog-reader';

type CatalogNumber = number | string | bigint;

/**
 * Per live table and view (`schema.table`, lower case): the newest snapshot that changed what it holds.
 * A table changes when it is created, rows go in or out, or its columns change (DuckLake's own words
 * in its snapshot log); compaction and snapshot expiry rewrite files but not rows, so they do not
 * count. A view changes when it is created or replaced.
 */
const lastChanges = namedQuery<Record<never, never>, { name: string; last_change: CatalogNumber }>(
  'ducklake.table_last_changes',
  `WITH live AS (
     SELECT t.table_id, lower(s.schema_name) || '.' || lower(t.table_name) AS name, t.begin_snapshot
     FROM {catalog}.ducklake_table t JOIN {catalog}.ducklake_schema s ON s.schema_id = t.schema_id
     WHERE t.end_snapshot IS NULL AND s.end_snapshot IS NULL
   ),
   touched AS (
     SELECT live.name, max(c.snapshot_id) AS snapshot_id
     FROM live JOIN {catalog}.ducklake_snapshot_changes c
       ON c.snapshot_id > live.begin_snapshot
      AND (',' || c.changes_made || ',' LIKE '%,inserted_into_table:' || CAST(live.table_id AS VARCHAR) || ',%'
        OR ',' || c.changes_made || ',' LIKE '%,deleted_from_table:' || CAST(live.table_id AS VARCHAR) || ',%'
        OR ',' || c.changes_made || ',' LIKE '%,altered_table:' || CAST(live.table_id AS VARCHAR) || ',%')
     GROUP BY live.name
   )
   SELECT live.name, CASE WHEN touched.snapshot_id IS NULL THEN live.begin_snapshot ELSE touched.snapshot_id END AS last_change
   FROM live LEFT JOIN touched ON touched.name = live.name
   UNION ALL
   SELECT lower(s.schema_name) || '.' || lower(v.view_name) AS name, v.begin_snapshot AS last_change
   FROM {catalog}.ducklake_view v JOIN {catalog}.ducklake_schema s ON s.schema_id = v.schema_id
   WHERE v.end_snapshot IS NULL AND s.end_snapshot IS NULL`,
);

/** `schema.table` → the snapshot that last changed it, for every live table and view of the catalog. */
export async function tableLastChanges(catalog: CatalogReader): Promise<Map<string, number>> {
  const rows = await catalog.all(lastChanges, {});
  return new Map(rows.map((row) => [row.name, Number(row.last_change)]));
}
