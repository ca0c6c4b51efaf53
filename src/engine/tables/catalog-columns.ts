import type { EngineConnection } from '../duckdb/engine-connection';
import { duckdbErrorOf } from '../duckdb/duckdb-error';
import { lakeAlias } from '../catalog-names';
import { sqlIdentifier } from '../sql-literals';
import type { TableName } from '../write/table-name';

export interface CatalogColumn {
  name: string;
  type: string;
  nullable: boolean;
}

/**
 * A lake table's current columns in order, or undefined when the table does not exist. DESCRIBE binds
 * the one table; listing duckdb_columns() goes through every catalog the instance has attached (a
 * sync's source, DuckLake's metadata database), 15 to 20 ms each time on a sync instance. Only the
 * listing says a table is absent: a catalog error of DESCRIBE is asked again that way, so that no other
 * trouble of the catalog ever passes for a missing table (a swap would empty the target instead).
 */
export async function catalogColumns(connection: EngineConnection, name: TableName): Promise<CatalogColumn[] | undefined> {
  try {
    const reader = await connection.read(`DESCRIBE ${[lakeAlias, name.schema, name.table].map(sqlIdentifier).join('.')}`);
    const rows = reader.getRowObjectsJS() as { column_name: string; column_type: string; null: string }[];
    return rows.map((row) => ({ name: row.column_name, type: row.column_type, nullable: row.null === 'YES' }));
  } catch (error) {
    if (duckdbErrorOf(error)?.type !== 'Catalog') throw error;
    return listedColumns(connection, name);
  }
}

async function listedColumns(connection: EngineConnection, name: TableName): Promise<CatalogColumn[] | undefined> {
  const reader = await connection.read(
    `SELECT column_name, data_type, is_nullable FROM system.main.duckdb_columns()
     WHERE database_name = $catalog AND schema_name = $schema AND table_name = $table ORDER BY column_index`,
    { catalog: lakeAlias, schema: name.schema, table: name.table },
  );
  const rows = reader.getRowObjectsJS() as { column_name: string; data_type: string; is_nullable: boolean }[];
  if (rows.length === 0) return undefined;
  return rows.map((row) => ({ name: row.column_name, type: row.data_type, nullable: row.is_nullable }));
}
