import type { EngineConnection } from '../duckdb/engine-connection';
import { lakeAlias } from '../catalog-names';
import type { TableName } from '../write/table-name';

export interface CatalogColumn {
  name: string;
  type: string;
  nullable: boolean;
}

/** A lake table's current columns in order, or undefined when the table does not exist. */
export async function catalogColumns(connection: EngineConnection, name: TableName): Promise<CatalogColumn[] | undefined> {
  const reader = await connection.read(
    `SELECT column_name, data_type, is_nullable FROM system.main.duckdb_columns()
     WHERE database_name = $catalog AND schema_name = $schema AND table_name = $table ORDER BY column_index`,
    { catalog: lakeAlias, schema: name.schema, table: name.table },
    undefined,
    // Kept prepared: every write reads its table's columns.
    { reuse: true },
  );
  const rows = reader.getRowObjectsJS() as { column_name: string; data_type: string; is_nullable: boolean }[];
  if (rows.length === 0) return undefined;
  return rows.map((row) => ({ name: row.column_name, type: row.data_type, nullable: row.is_nullable }));
}
