import type { Store } from '../../store/store';
import type { Clock } from '../../util/clock';
import type { Admission } from '../admission/statement-scheduler';
import type { EngineLane, EngineManager } from '../engine-manager';
import type { CatalogColumn } from '../tables/catalog-columns';
import { TableRegistry } from '../tables/table-registry';
import { findCommit, type CommitInfo } from './committed-write';
import { renameSync, copyFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { checkRecords, sameKey } from './record-checks';
import { qualifiedName, type TableName } from './table-name';
import { PrimaryKeyMismatch, RecordsRejected } from './write-errors';
import { writeRecords } from './write-records';
import { recordsSource } from './records-source';
import { fileSource, type UploadedFile } from './file-source';
import type { WriteSource } from './write-source';
import type { InferredColumn } from './infer-schema';

interface WriteRequest {
  table: TableName;
  mode: 'append' | 'overwrite';
  /** The key the write names; without one the table's own applies (a new table then has none). */
  primaryKey?: string[];
  /** Who writes (`push`, `sync`…), for the snapshot's commit message. */
  source: string;
  /** Recorded with the snapshot: what findCommit looks for after a write whose outcome was lost. */
  commitInfo: Record<string, unknown>;
  /** A tenant's write waits for its turn among the process's statements. */
  admission?: Admission;
  /** Settled before the write's statements run: a rejection abandons it (a check the caller runs meanwhile). */
  writeAllowed?: Promise<void>;
  /** Durable work (a sync) writes on the workspace's background instance, apart from its requests. */
  lane?: EngineLane;
  /** Records deleted at the source (a sync): their rows deleted or marked in the same snapshot (see applyDeletions). */
  deleted?: { records: Record<string, unknown>[]; mark: boolean };
}

export interface RecordsWriteRequest extends WriteRequest {
  records: unknown[];
  /** The JSON array `records` was parsed from, as received, when the caller has it (see recordsSource). */
  recordsText?: Uint8Array;
}

export interface FileWriteRequest extends WriteRequest {
  /** Moved into the workspace instance's private folder for the write, and removed after it. */
  file: UploadedFile;
}

export interface RecordsWritten {
  table: string;
  rowsWritten: number;
  rowsDeleted: number;
  createdTable: boolean;
}

/**
 * Writes into a workspace's lake tables, for every feature that writes (push, syncs): records become
 * exactly one snapshot, the table's primary key stays what it was created with, and a write's commit
 * information can be found again. Its errors speak of records, fields and tables (RecordsRejected,
 * InvalidTableName, PrimaryKeyMismatch); each caller says what they mean for its own input.
 */
export class LakeWriter {
  constructor(
    private readonly engines: EngineManager,
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  async writeRecords(workspaceId: string, request: RecordsWriteRequest): Promise<RecordsWritten> {
    // A batch of a sync may hold deletions only.
    if (request.records.length === 0 && request.deleted) {
      this.distinctKey(request.primaryKey);
      return this.write(workspaceId, request, () => undefined);
    }
    const source = recordsSource(checkRecords(request.records), request.recordsText);
    // Known before the write: a key the write names itself is checked against the records first.
    source.checkKey(this.distinctKey(request.primaryKey), []);
    return this.write(workspaceId, request, () => source);
  }

  /** Writes the records of an uploaded file (NDJSON, CSV, Parquet), read by DuckDB's own readers. */
  async writeFile(workspaceId: string, request: FileWriteRequest): Promise<RecordsWritten> {
    this.distinctKey(request.primaryKey);
    let path = request.file.path;
    try {
      return await this.write(workspaceId, request, (stagingDir) => {
        path = moveInto(stagingDir, path);
        return fileSource(path, request.file);
      });
    } finally {
      rmSync(path, { force: true });
    }
  }

  private distinctKey(primaryKey: string[] | undefined): string[] {
    const key = primaryKey ?? [];
    if (new Set(key).size !== key.length) throw new RecordsRejected([{ message: 'Primary key columns must be distinct', type: 'value_error' }]);
    return key;
  }

  private async write(workspaceId: string, request: WriteRequest, sourceIn: (stagingDir: string) => WriteSource | undefined): Promise<RecordsWritten> {
    const requestedKey = request.primaryKey ?? [];
    const { table } = request;
    const registry = new TableRegistry(this.store);
    const outcome = await this.engines.with(
      workspaceId,
      (engine) =>
        engine.writeTable(
          qualifiedName(table),
          async (connection) => {
            const input = sourceIn(engine.stagingDir);
            // A key inherited from the table binds this write's records as much as one it names itself.
            const keyOf = async (columns: CatalogColumn[] | undefined, incoming: InferredColumn[]) => {
              const tableKey = columns ? ((await registry.primaryKey(workspaceId, table)) ?? []) : requestedKey;
              if (columns && requestedKey.length > 0 && !sameKey(requestedKey, tableKey))
                throw new PrimaryKeyMismatch(qualifiedName(table), tableKey, requestedKey);
              if (tableKey.length > 0) input?.checkKey(tableKey, incoming);
              return tableKey;
            };
            const { source, mode, commitInfo, writeAllowed, deleted } = request;
            const result = await writeRecords(connection, engine.stagingDir, { source, table, input, mode, keyOf, commitInfo, writeAllowed, deleted });
            const now = this.clock.now().toISOString();
            if (result.createdTable) await registry.created(workspaceId, table, result.primaryKey, now);
            else if (result.rowsWritten > 0 || result.rowsDeleted > 0) await registry.written(workspaceId, table, now);
            return result;
          },
          request.admission,
        ),
      request.lane,
    );
    return { table: qualifiedName(table), rowsWritten: outcome.rowsWritten, rowsDeleted: outcome.rowsDeleted, createdTable: outcome.createdTable };
  }

  /** The newest write whose commit information holds these fields (see findCommit). */
  findCommit(workspaceId: string, match: Record<string, string | number>): Promise<CommitInfo | undefined> {
    return this.engines.with(workspaceId, (engine) => engine.read((connection) => findCommit(connection, engine.metadataSchema, match)));
  }
}

/** The file, moved into the instance's private folder (the only one its locked-down readers may read). */
function moveInto(folder: string, path: string): string {
  const target = join(folder, basename(path));
  if (target === path) return path;
  try {
    renameSync(path, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    copyFileSync(path, target);
    rmSync(path, { force: true });
  }
  return target;
}
