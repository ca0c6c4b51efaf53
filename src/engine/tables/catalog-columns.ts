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
 * the one table (a catalog error: there is none); listing duckdb_columns() would go through every
 * catalog the instance has attached (a sync's source, DuckLake's metadata database), 15 to 20 ms each
 * time on a sync instance.
 */
export async function catalogColumns(connection: EngineConnection, name: TableName): Promise<CatalogColumn[] | undefined> {
  try {
    const reader = await connection.read(`DESCRIBE ${[lakeAlias, name.schema, name.table].map(sqlIdentifier).join('.')}`);
    const rows = reader.getRowObjectsJS() as { column_name: string; column_type: string; null: string }[];
    return rows.map((row) => ({ name: row.column_name, type: row.column_type, nullable: row.null === 'YES' }));
  } catch (error) {
    if (duckdbErrorOf(error)?.type === 'Catalog') return undefined;
    throw error;
  }
}
