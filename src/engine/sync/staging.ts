import { createHash } from 'node:crypto';
import { lakeAlias } from '../catalog-names';
import type { EngineConnection } from '../duckdb/engine-connection';
import { isCommitConflict } from '../duckdb/duckdb-error';
import { sqlIdentifier, sqlString } from '../sql-literals';
import { catalogColumns } from '../tables/catalog-columns';
import { liveTableNames } from '../tables/lake-metadata';
import type { TableName } from '../write/table-name';

/**
 * A full refresh that overwrites writes its batches into a staging table beside the target, in the
 * same schema (DuckLake renames tables but cannot move them between schemas), then swaps it in: the
 * old table dropped and the staging table renamed in one snapshot, so readers see the old table or the
 * new one, never a half. The name holds the job and a digest of the stream, so a later job finds and
 * drops what an abandoned one left.
 */
const stagingPattern = /^__sync_[0-9a-f]{32}_[0-9a-f]{8}$/;

export function stagingTableName(jobId: string, stream: string): string {
  return `__sync_${jobId.replaceAll('-', '').toLowerCase()}_${streamDigest(stream)}`;
}

/** Staging tables are the sync's business: table listings leave them out. */
export function isStagingTableName(name: string): boolean {
  return stagingPattern.test(name);
}

export interface StagingSwap {
  /** Where DuckLake keeps the lake's own tables. */
  metadataSchema: string;
  schema: string;
  staging: string;
  target: string;
  message: string;
  commitInfo: Record<string, unknown>;
}

/**
 * Replaces the target with the staging table in one snapshot carrying the commit information, and drops
 * the staging tables abandoned jobs left for the same stream. Without a staging table (the source had
 * no rows and no columns were ever seen) the target is emptied. Returns whether the target exists
 * afterwards (the staging table swapped in, or the old one emptied).
 */
export async function swapInStaging(connection: EngineConnection, swap: StagingSwap): Promise<boolean> {
  const staging: TableName = { schema: swap.schema, table: swap.staging };
  const target: TableName = { schema: swap.schema, table: swap.target };
  for (let attempt = 1; ; attempt++) {
    try {
      await connection.run('BEGIN TRANSACTION');
      // Read inside the transaction: what it sees is what it swaps, and DuckLake loads its catalog once.
      const hasStaging = (await catalogColumns(connection, staging)) !== undefined;
      const hasTarget = (await catalogColumns(connection, target)) !== undefined;
      await connection.run(
        `CALL ducklake_set_commit_message(${sqlString(lakeAlias)}, 'oxbow', ${sqlString(swap.message)}, extra_info => ${sqlString(JSON.stringify(swap.commitInfo))})`,
      );
      if (hasStaging) {
        if (hasTarget) await connection.run(`DROP TABLE ${qualified(target)}`);
        await connection.run(`ALTER TABLE ${qualified(staging)} RENAME TO ${sqlIdentifier(swap.target)}`);
      } else if (hasTarget) {
        await connection.run(`DELETE FROM ${qualified(target)}`);
      } else {
        // Nothing to replace and nothing to swap in: the snapshot still records the stream's end.
        await connection.run(`CREATE SCHEMA IF NOT EXISTS ${lakeAlias}.${sqlIdentifier(swap.schema)}`);
      }
      await dropStagingBeside(connection, swap.metadataSchema, swap.schema, swap.staging);
      await connection.run('COMMIT');
      return hasStaging || hasTarget;
    } catch (error) {
      await connection.rollback().catch(() => {});
      if (!isCommitConflict(error) || attempt === 5) throw error;
      await Bun.sleep(25 * 2 ** attempt + Math.random() * 25);
    }
  }
}

/**
 * Drops the stream's staging tables other jobs left behind (their jobs failed or were cancelled). Run
 * inside the transaction that replaces the stream's table, where DuckLake has its catalog loaded
 * already: on its own it would load it once more (25 ms of a sync).
 */
export async function dropAbandonedStaging(connection: EngineConnection, metadataSchema: string, schema: string, stream: string, jobId: string): Promise<void> {
  await dropStagingBeside(connection, metadataSchema, schema, stagingTableName(jobId, stream));
}

/**
 * Drops the staging tables of the same stream as `keep` (its suffix), but `keep`. The catalog's latest
 * snapshot names them; one the transaction does not see any more is already gone.
 */
async function dropStagingBeside(connection: EngineConnection, metadataSchema: string, schema: string, keep: string): Promise<void> {
  const suffix = keep.slice(keep.lastIndexOf('_'));
  for (const table of await liveTableNames(connection, metadataSchema, schema, '__sync_')) {
    if (table !== keep && isStagingTableName(table) && table.endsWith(suffix)) await connection.run(`DROP TABLE IF EXISTS ${qualified({ schema, table })}`);
  }
}

function streamDigest(stream: string): string {
  return createHash('sha256').update(stream).digest('hex').slice(0, 8);
}

function qualified(table: TableName): string {
  return `${lakeAlias}.${sqlIdentifier(table.schema)}.${sqlIdentifier(table.table)}`;
}
