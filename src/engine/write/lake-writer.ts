import type { Store } from '../../store/store';
import type { Clock } from '../../util/clock';
import type { Admission } from '../admission/statement-scheduler';
import type { EngineLane, EngineManager } from '../engine-manager';
import type { CatalogColumn } from '../tables/catalog-columns';
import { TableRegistry } from '../tables/table-registry';
import { findCommit, type CommitInfo } from './committed-write';
import { checkKeyPresence, checkRecords, sameKey } from './record-checks';
import { qualifiedName, type TableName } from './table-name';
import { PrimaryKeyMismatch, RecordsRejected } from './write-errors';
import { writeRecords } from './write-records';

export interface RecordsWriteRequest {
  table: TableName;
  records: unknown[];
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
    const records = request.records.length === 0 && request.deleted ? [] : checkRecords(request.records);
    const requestedKey = request.primaryKey ?? [];
    if (new Set(requestedKey).size !== requestedKey.length) throw new RecordsRejected([{ message: 'Primary key columns must be distinct', type: 'value_error' }]);
    checkKeyPresence(records, requestedKey);
    const { table } = request;
    const registry = new TableRegistry(this.store);
    const outcome = await this.engines.with(workspaceId, (engine) =>
      engine.writeTable(
        qualifiedName(table),
        async (connection) => {
          // A key inherited from the table binds this write's records as much as one it names itself.
          const keyOf = async (columns: CatalogColumn[] | undefined) => {
            const tableKey = columns ? ((await registry.primaryKey(workspaceId, table)) ?? []) : requestedKey;
            if (columns && requestedKey.length > 0 && !sameKey(requestedKey, tableKey)) throw new PrimaryKeyMismatch(qualifiedName(table), tableKey, requestedKey);
            if (tableKey.length > 0) checkKeyPresence(records, tableKey);
            return tableKey;
          };
          const { source, mode, commitInfo, writeAllowed, deleted } = request;
          const result = await writeRecords(connection, engine.stagingDir, { source, table, records, mode, keyOf, commitInfo, writeAllowed, deleted });
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
