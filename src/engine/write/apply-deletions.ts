import type { EngineConnection } from '../duckdb/engine-connection';
import { sqlIdentifier, sqlString } from '../sql-literals';
import type { CatalogColumn } from '../tables/catalog-columns';

/** The column a row deleted at the source carries when deletions mark rather than delete. */
export const deletedAtColumn = '_deleted_at';

/**
 * Rows a write takes out of a table because their records were deleted at the source: a relation
 * (written by the service) of the key columns and `_deleted_at`, or every row (`all`: the source
 * table was emptied). `mark` keeps the rows with `_deleted_at` set instead of deleting them.
 */
export interface Deletions {
  source: { relation: string } | { all: true };
  mark: boolean;
}

/**
 * Deletes (or marks) the rows of `table` (SQL, qualified) whose key is in the deletions, inside the
 * caller's transaction: part of the same snapshot as the batch's upserts. A row marked already keeps
 * its first `_deleted_at`. Returns how many rows it deleted or marked.
 */
export async function applyDeletions(
  connection: EngineConnection,
  table: string,
  key: string[],
  columns: CatalogColumn[],
  deletions: Deletions,
): Promise<number> {
  if (deletions.mark && !columns.some((column) => column.name.toLowerCase() === deletedAtColumn)) {
    await connection.run(`ALTER TABLE ${table} ADD COLUMN ${sqlIdentifier(deletedAtColumn)} TIMESTAMPTZ`);
  }
  const marked = sqlIdentifier(deletedAtColumn);
  if ('all' in deletions.source) {
    const sql = deletions.mark ? `UPDATE ${table} SET ${marked} = now() WHERE ${marked} IS NULL` : `DELETE FROM ${table}`;
    return Number((await connection.read(sql)).scalar() ?? 0);
  }
  if (key.length === 0) throw new Error('deletions need the table’s primary key');
  const matches = key.map((column) => `${table}.${sqlIdentifier(column)} = gone.${sqlIdentifier(column)}`).join(' AND ');
  const gone = `(SELECT ${key.map(sqlIdentifier).join(', ')}, max(${marked}) AS ${marked} FROM (${deletions.source.relation}) GROUP BY ALL)`;
  const sql = deletions.mark
    ? `UPDATE ${table} SET ${marked} = gone.${marked} FROM ${gone} AS gone WHERE ${matches} AND ${table}.${marked} IS NULL`
    : `DELETE FROM ${table} USING ${gone} AS gone WHERE ${matches}`;
  return Number((await connection.read(sql)).scalar() ?? 0);
}

/** Deleted records (key fields and `_deleted_at`, JSON) as a relation typed like the table's key columns. */
export function deletedRecordsRelation(file: string, key: string[], columns: CatalogColumn[]): string {
  const types = key.map((name) => {
    const column = columns.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());
    if (!column) throw new Error(`the table has no key column ${name}`);
    return `${sqlString(name)}: ${sqlString(column.type)}`;
  });
  return `SELECT * FROM system.main.read_json(${sqlString(file)}, format = 'array', columns = {${[...types, `${sqlString(deletedAtColumn)}: 'TIMESTAMPTZ'`].join(', ')}})`;
}
