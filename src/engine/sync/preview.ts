import { DuckDBTypeId, type DuckDBListType, type DuckDBType } from '@duckdb/node-api';
import type { EngineConnection } from '../duckdb/engine-connection';
import { encodeChunkRows, type JsonValue } from '../sql/encode-values';

export interface PreviewRows {
  columns: { name: string; type: string }[];
  rows: JsonValue[][];
}

/** The first rows of a source's SELECT (written by the service), encoded as the query endpoints encode values. */
export async function previewRows(connection: EngineConnection, select: string, limit: number): Promise<PreviewRows> {
  const result = await connection.read(`SELECT * FROM (\n${select}\n) AS preview LIMIT ${Math.max(0, Math.trunc(limit))}`);
  const types = result.columnTypes();
  const columns = result.columnNames().map((name, index) => ({ name, type: typeName(types[index]!) }));
  const rows = [...result.chunks()].flatMap((chunk) => encodeChunkRows(chunk));
  for (const row of rows) {
    columns.forEach((column, index) => {
      if (column.type === 'JSON' && typeof row[index] === 'string') row[index] = JSON.parse(row[index]) as JsonValue;
    });
  }
  return { columns, rows };
}

function typeName(type: DuckDBType): string {
  if (type.alias) return type.alias;
  if (type.typeId === DuckDBTypeId.LIST && (type as DuckDBListType).valueType.alias) return `${(type as DuckDBListType).valueType.alias}[]`;
  return type.toString();
}
