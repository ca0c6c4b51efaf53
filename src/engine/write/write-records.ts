import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineConnection } from '../duckdb/engine-connection';
import { applyDeletions, deletedRecordsRelation } from './apply-deletions';
import { isCommitConflict } from '../duckdb/duckdb-error';
import { sqlIdentifier, sqlString } from '../sql-literals';
import { lakeAlias } from '../catalog-names';
import { catalogColumns, type CatalogColumn } from '../tables/catalog-columns';
import type { InferredColumn } from './infer-schema';
import { planWrite, type WritePlan } from './plan-write';
import type { StagedRecords } from './stage-records';
import type { TableName } from './table-name';
import { RecordsRejected } from './write-errors';
import type { WriteSource } from './write-source';

export interface RecordsWrite {
  /** Who writes, for the snapshot's commit message (`push`, `sync`…). */
  source: string;
  table: TableName;
  /** The rows: records in memory or a file DuckDB reads (see WriteSource); none for a sync's batch of deletions only. */
  input: WriteSource | undefined;
  mode: 'append' | 'overwrite';
  /**
   * The key the write upserts on, given the table's columns as the write's transaction reads them
   * (undefined: no table yet); asked once, on the first attempt. Throwing refuses the write.
   */
  keyOf(columns: CatalogColumn[] | undefined, incoming: InferredColumn[]): Promise<string[]>;
  /**
   * Recorded with the snapshot, so a retried write can tell that an earlier attempt committed (see
   * findCommit); given the rows written when it depends on them (throwing then abandons the write).
   */
  commitInfo: Record<string, unknown> | ((rowsWritten: number) => Record<string, unknown>);
  /** Added to the snapshot's commit message (`(3 pushes)`). */
  note?: string;
  /** Settled before the write's statements run: a rejection abandons it (a check that ran while it staged its records). */
  writeAllowed?: Promise<void>;
  /** Records deleted at the source (key fields and `_deleted_at`): deleted or marked in the same snapshot, after the upsert. */
  deleted?: { records: Record<string, unknown>[]; mark: boolean };
}

export interface WriteOutcome {
  rowsWritten: number;
  rowsDeleted: number;
  createdTable: boolean;
  /** The key the write upserted on (see keyOf). */
  primaryKey: string[];
}

const maxAttempts = 5;
/**
 * The statements every write runs, kept prepared on the connection: each preparation is a round trip
 * to a thread of the runtime's pool, which a busy machine makes slow.
 */
const kept = { reuse: true };
const commitMessage = `CALL ducklake_set_commit_message(${sqlString(lakeAlias)}, 'oxbow', $message, extra_info => $info)`;

/**
 * Writes the records as exactly one DuckLake snapshot: table creation, schema changes, the overwrite's
 * delete or the upsert's replacement of existing keys, and the new rows all commit together or not at
 * all. A commit that loses a race with another writer is retried from a fresh read of the schema.
 * Runs on the workspace's write connection with the table's lock held. The table's columns are read
 * inside the write's transaction: DuckLake loads its catalog once per transaction, and a read of its
 * own would load it once more (5–20 ms of a push).
 */
export async function writeRecords(connection: EngineConnection, stagingDir: string, write: RecordsWrite): Promise<WriteOutcome> {
  const deletedFile = write.deleted?.records.length ? join(stagingDir, `deleted_${Bun.randomUUIDv7().replaceAll('-', '')}.json`) : undefined;
  if (deletedFile) await Bun.write(deletedFile, JSON.stringify(write.deleted!.records));
  try {
    return await writeInTransaction(connection, stagingDir, write, deletedFile);
  } finally {
    if (deletedFile) rmSync(deletedFile, { force: true });
  }
}

async function writeInTransaction(
  connection: EngineConnection,
  stagingDir: string,
  write: RecordsWrite,
  deletedFile: string | undefined,
): Promise<WriteOutcome> {
  const { input } = write;
  let thorough = false;
  let inferred = input ? await input.columns(connection, thorough) : [];
  let primaryKey: string[] | undefined;
  for (let attempt = 1; ; attempt++) {
    let staged: StagedRecords | undefined;
    await connection.run('BEGIN TRANSACTION', undefined, undefined, kept);
    try {
      const columns = await catalogColumns(connection, write.table);
      primaryKey ??= await write.keyOf(columns, inferred);
      const plan = planWrite(columns, inferred);
      let rowCount = 0;
      if (input) {
        staged = await stageRecords(connection, stagingDir, input, plan, primaryKey);
        await write.writeAllowed;
        const statements = writeStatements(write.table, write.mode, primaryKey, plan, staged.source);
        for (const statement of statements.slice(0, -1)) await connection.run(statement);
        const inserted = await connection.read(statements.at(-1)!);
        rowCount = Number(inserted.getRows()[0]?.[0] ?? 0);
        if (rowCount === 0) throw new RecordsRejected([{ message: 'The input holds no records', type: 'too_short' }]);
      } else {
        await write.writeAllowed;
      }
      // Deletions of a table that does not exist yet have nothing to take out.
      const after = deletedFile && (staged || columns) ? await catalogColumns(connection, write.table) : undefined;
      const target = `${sqlIdentifier(write.table.schema)}.${sqlIdentifier(write.table.table)}`;
      const rowsDeleted = after
        ? await applyDeletions(connection, target, primaryKey, after, {
            source: { relation: deletedRecordsRelation(deletedFile!, primaryKey, after) },
            mark: write.deleted!.mark,
          })
        : 0;
      // Set last, when the count is known (a file's rows are counted by its INSERT); any time before COMMIT will do.
      const own = typeof write.commitInfo === 'function' ? write.commitInfo(rowCount) : write.commitInfo;
      const info = { ...own, records_written: rowCount, records_deleted: rowsDeleted };
      const message = `${write.source} ${write.mode} ${rowCount} rows${write.note ? ` ${write.note}` : ''}`;
      await connection.run(commitMessage, { message, info: JSON.stringify(info) }, undefined, kept);
      await connection.run('COMMIT', undefined, undefined, kept);
      return { rowsWritten: rowCount, rowsDeleted, createdTable: plan.createTable && staged !== undefined, primaryKey };
    } catch (error) {
      await connection.run('ROLLBACK').catch(() => {});
      const meaning = input?.rejection(error, thorough);
      if (meaning && 'rejected' in meaning) throw meaning.rejected;
      if (input && meaning?.readAgainThoroughly) {
        // A type read from a sample of the input did not hold for all of it: read all of it, once.
        thorough = true;
        inferred = await input.columns(connection, thorough);
        attempt--;
        continue;
      }
      if (!isCommitConflict(error) || attempt === maxAttempts) throw error;
      await Bun.sleep(25 * 2 ** attempt + Math.random() * 25);
    } finally {
      await staged?.release();
    }
  }
}

function stageRecords(connection: EngineConnection, stagingDir: string, input: WriteSource, plan: WritePlan, primaryKey: string[]): Promise<StagedRecords> {
  return input.stage(connection, stagingDir, `write_${Bun.randomUUIDv7().replaceAll('-', '')}`, plan, primaryKey);
}

function writeStatements(table: TableName, mode: RecordsWrite['mode'], primaryKey: string[], plan: WritePlan, rows: string): string[] {
  const target = `${sqlIdentifier(table.schema)}.${sqlIdentifier(table.table)}`;
  const statements: string[] = [];
  // A table that exists has its schema: one statement fewer for every write into it.
  if (plan.createTable) {
    statements.push(`CREATE SCHEMA IF NOT EXISTS ${sqlIdentifier(table.schema)}`);
    statements.push(`CREATE TABLE ${target} (${plan.columns.map((column) => `${sqlIdentifier(column.name)} ${column.type}`).join(', ')})`);
  }
  for (const column of plan.addColumns) statements.push(`ALTER TABLE ${target} ADD COLUMN ${sqlIdentifier(column.name)} ${column.type}`);
  for (const column of plan.promote) statements.push(`ALTER TABLE ${target} ALTER COLUMN ${sqlIdentifier(column.name)} TYPE ${column.type}`);
  if (plan.rebuild) {
    const casts = plan.columns.map((column) => `CAST(${sqlIdentifier(column.name)} AS ${column.type}) AS ${sqlIdentifier(column.name)}`);
    statements.push(`CREATE OR REPLACE TABLE ${target} AS SELECT ${casts.join(', ')} FROM ${target}`);
  }
  if (mode === 'overwrite') statements.push(`DELETE FROM ${target}`);
  else if (primaryKey.length > 0 && !plan.createTable) {
    const keyColumns = primaryKey.map((field) => plan.incoming.find((entry) => entry.field === field)!.column.name);
    const matches = keyColumns.map((column) => `${target}.${sqlIdentifier(column)} = incoming.${sqlIdentifier(column)}`).join(' AND ');
    statements.push(`DELETE FROM ${target} USING ${rows} AS incoming WHERE ${matches}`);
  }
  const names = plan.incoming.map(({ column }) => sqlIdentifier(column.name)).join(', ');
  statements.push(`INSERT INTO ${target} (${names}) SELECT ${names} FROM ${rows}`);
  return statements;
}
