import type { EngineConnection } from '../duckdb/engine-connection';
import { isCommitConflict } from '../duckdb/duckdb-error';
import { sqlIdentifier, sqlString } from '../sql-literals';
import { lakeAlias } from '../catalog-names';
import { catalogColumns, type CatalogColumn } from '../tables/catalog-columns';
import { inferColumns } from './infer-schema';
import { planWrite, type WritePlan } from './plan-write';
import { stageRecords } from './stage-records';
import type { TableName } from './table-name';

export interface RecordsWrite {
  /** Who writes, for the snapshot's commit message (`push`, `sync`…). */
  source: string;
  table: TableName;
  records: Record<string, unknown>[];
  mode: 'append' | 'overwrite';
  /** Columns of the table's key; with one, the write upserts. */
  primaryKey: string[];
  /** Recorded with the snapshot, so a retried write can tell that an earlier attempt committed (see findCommit). */
  commitInfo: Record<string, unknown>;
}

export interface WriteOutcome {
  rowsWritten: number;
  createdTable: boolean;
}

const maxAttempts = 5;

/**
 * Writes the records as exactly one DuckLake snapshot: table creation, schema changes, the overwrite's
 * delete or the upsert's replacement of existing keys, and the new rows all commit together or not at
 * all. A commit that loses a race with another writer is retried from a fresh read of the schema.
 * Runs on the workspace's write connection with the table's lock held. `columns` are the table's
 * columns as the caller has just read them under that lock (undefined: no table yet); a retry reads
 * them again.
 */
export async function writeRecords(connection: EngineConnection, stagingDir: string, write: RecordsWrite, columns: CatalogColumn[] | undefined): Promise<WriteOutcome> {
  const inferred = inferColumns(write.records);
  for (let attempt = 1; ; attempt++) {
    const plan = planWrite(attempt === 1 ? columns : await catalogColumns(connection, write.table), inferred);
    const staging = `write_${Bun.randomUUIDv7().replaceAll('-', '')}`;
    const staged = await stageRecords(connection, stagingDir, staging, plan, write.records, write.primaryKey);
    const { rowCount } = staged;
    try {
      await connection.run('BEGIN TRANSACTION');
      await connection.run(
        `CALL ducklake_set_commit_message(${sqlString(lakeAlias)}, 'oxbow', ${sqlString(`${write.source} ${write.mode} ${rowCount} rows`)}, extra_info => ${sqlString(JSON.stringify({ ...write.commitInfo, records_written: rowCount }))})`,
      );
      for (const statement of writeStatements(write, plan, staged.source)) await connection.run(statement);
      await connection.run('COMMIT');
      return { rowsWritten: rowCount, createdTable: plan.createTable };
    } catch (error) {
      await connection.run('ROLLBACK').catch(() => {});
      if (!isCommitConflict(error) || attempt === maxAttempts) throw error;
      await Bun.sleep(25 * 2 ** attempt + Math.random() * 25);
    } finally {
      await staged.release();
    }
  }
}

function writeStatements(write: RecordsWrite, plan: WritePlan, rows: string): string[] {
  const target = `${sqlIdentifier(write.table.schema)}.${sqlIdentifier(write.table.table)}`;
  const statements = [`CREATE SCHEMA IF NOT EXISTS ${sqlIdentifier(write.table.schema)}`];
  if (plan.createTable) {
    statements.push(`CREATE TABLE ${target} (${plan.columns.map((column) => `${sqlIdentifier(column.name)} ${column.type}`).join(', ')})`);
  }
  for (const column of plan.addColumns) statements.push(`ALTER TABLE ${target} ADD COLUMN ${sqlIdentifier(column.name)} ${column.type}`);
  for (const column of plan.promote) statements.push(`ALTER TABLE ${target} ALTER COLUMN ${sqlIdentifier(column.name)} TYPE ${column.type}`);
  if (plan.rebuild) {
    const casts = plan.columns.map((column) => `CAST(${sqlIdentifier(column.name)} AS ${column.type}) AS ${sqlIdentifier(column.name)}`);
    statements.push(`CREATE OR REPLACE TABLE ${target} AS SELECT ${casts.join(', ')} FROM ${target}`);
  }
  if (write.mode === 'overwrite') statements.push(`DELETE FROM ${target}`);
  else if (write.primaryKey.length > 0 && !plan.createTable) {
    const keyColumns = write.primaryKey.map((field) => plan.incoming.find((entry) => entry.field === field)!.column.name);
    const matches = keyColumns.map((column) => `${target}.${sqlIdentifier(column)} = incoming.${sqlIdentifier(column)}`).join(' AND ');
    statements.push(`DELETE FROM ${target} USING ${rows} AS incoming WHERE ${matches}`);
  }
  const names = plan.incoming.map(({ column }) => sqlIdentifier(column.name)).join(', ');
  statements.push(`INSERT INTO ${target} (${names}) SELECT ${names} FROM ${rows}`);
  return statements;
}
