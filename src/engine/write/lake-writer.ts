import type { Store } from '../../store/store';
import type { Clock } from '../../util/clock';
import type { Admission } from '../admission/statement-scheduler';
import type { EngineLane, EngineManager } from '../engine-manager';
import type { CatalogColumn } from '../tables/catalog-columns';
import { TableRegistry } from '../tables/table-registry';
import { findCommit, groupField, type CommitInfo } from './committed-write';
import type { WorkspaceEngine } from '../workspace-engine';
import type { EngineConnection } from '../duckdb/engine-connection';
import { WriteQueue } from './write-queue';
import { groupMember, groupSource, joinsGroup, type GroupMember } from './push-group';
import { renameSync, copyFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { checkRecords, sameKey } from './record-checks';
import { qualifiedName, type TableName } from './table-name';
import { PrimaryKeyMismatch, RecordsRejected } from './write-errors';
import { writeRecords, type RecordsWrite } from './write-records';
import { recordsSource, recordsTextSource, type RecordsText } from './records-source';
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
  /**
   * Takes its turn among the table's other queued writes, in arrival order (a push): small appends
   * queued together commit in one snapshot (see writeGroup).
   */
  queued?: boolean;
}

export interface RecordsWriteRequest extends WriteRequest {
  /** The records as values, or read from their text without being kept (see RecordsText). */
  records: unknown[] | RecordsText;
  /** The JSON array `records` was parsed from, as received, when the caller has it (see recordsSource). */
  recordsText?: Uint8Array;
}

export interface FileWriteRequest extends WriteRequest {
  /** Moved into the workspace instance's private folder for the write, and removed after it. */
  file: UploadedFile;
}

/** A queued write: how it runs alone, and how it may join others (see groupMember). */
interface Queued {
  request: WriteRequest;
  member: GroupMember | undefined;
  alone(engine: WorkspaceEngine, connection: EngineConnection): Promise<RecordsWritten>;
}

export interface RecordsWritten {
  table: string;
  rowsWritten: number;
  rowsDeleted: number;
  createdTable: boolean;
}

/**
 * Writes into a workspace's lake tables, for every feature that writes (push, syncs): a write's records
 * commit whole in one snapshot (queued pushes may share theirs, see writeGroup), the table's primary
 * key stays what it was created with, and a write's commit information can be found again. Its errors speak of records, fields and tables (RecordsRejected,
 * InvalidTableName, PrimaryKeyMismatch); each caller says what they mean for its own input.
 */
export class LakeWriter {
  private readonly queue = new WriteQueue<Queued, RecordsWritten>((group, next) =>
    joinsGroup(
      group.map((write) => write.member),
      next.member,
    ),
  );

  constructor(
    private readonly engines: EngineManager,
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  async writeRecords(workspaceId: string, request: RecordsWriteRequest): Promise<RecordsWritten> {
    // A batch of a sync may hold deletions only.
    if (Array.isArray(request.records) && request.records.length === 0 && request.deleted) {
      this.distinctKey(request.primaryKey);
      return this.write(workspaceId, request, () => undefined);
    }
    const records = Array.isArray(request.records) ? checkRecords(request.records) : undefined;
    const source = records ? recordsSource(records, request.recordsText) : recordsTextSource(request.records as RecordsText);
    // Known before the write: a key the write names itself is checked against records held as values
    // first (records still to be read from their text are checked within the write, as they are read).
    const key = this.distinctKey(request.primaryKey);
    if (records) source.checkKey(key, []);
    if (!request.queued) return this.write(workspaceId, request, () => source);
    return this.enqueue(workspaceId, {
      request,
      // Records read from their text are too large to join a group.
      member: records && groupMember(request, records),
      alone: (engine, connection) => this.writeOn(workspaceId, engine, connection, request, source),
    });
  }

  /** Writes the records of an uploaded file (NDJSON, CSV, Parquet), read by DuckDB's own readers. */
  async writeFile(workspaceId: string, request: FileWriteRequest): Promise<RecordsWritten> {
    this.distinctKey(request.primaryKey);
    let path = request.file.path;
    const sourceIn = (stagingDir: string) => {
      path = moveInto(stagingDir, path);
      return fileSource(path, request.file);
    };
    try {
      if (!request.queued) return await this.write(workspaceId, request, sourceIn);
      return await this.enqueue(workspaceId, {
        request,
        member: undefined,
        alone: (engine, connection) => this.writeOn(workspaceId, engine, connection, request, sourceIn(engine.stagingDir)),
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

  private write(workspaceId: string, request: WriteRequest, sourceIn: (stagingDir: string) => WriteSource | undefined): Promise<RecordsWritten> {
    return this.engines.with(
      workspaceId,
      (engine) =>
        engine.writeTable(
          qualifiedName(request.table),
          (connection) => this.writeOn(workspaceId, engine, connection, request, sourceIn(engine.stagingDir)),
          request.admission,
        ),
      request.lane,
    );
  }

  /** Queued behind the table's earlier queued writes; its turn takes the writes that may join it (see push-group). */
  private enqueue(workspaceId: string, write: Queued): Promise<RecordsWritten> {
    const table = qualifiedName(write.request.table);
    return this.queue.enqueue(`${workspaceId}\u0000${table}`, write, (head, take) =>
      this.engines.with(
        workspaceId,
        (engine) => engine.writeTable(table, (connection) => this.writeGroup(workspaceId, engine, connection, take()), head.request.admission),
        head.request.lane,
      ),
    );
  }

  private async writeOn(
    workspaceId: string,
    engine: WorkspaceEngine,
    connection: EngineConnection,
    request: Omit<WriteRequest, 'commitInfo'> & Pick<RecordsWrite, 'commitInfo' | 'note'>,
    input: WriteSource | undefined,
  ): Promise<RecordsWritten> {
    const requestedKey = request.primaryKey ?? [];
    const { table } = request;
    const registry = new TableRegistry(this.store);
    // A key inherited from the table binds this write's records as much as one it names itself.
    const keyOf = async (columns: CatalogColumn[] | undefined, incoming: InferredColumn[]) => {
      const tableKey = columns ? ((await registry.primaryKey(workspaceId, table)) ?? []) : requestedKey;
      if (columns && requestedKey.length > 0 && !sameKey(requestedKey, tableKey)) throw new PrimaryKeyMismatch(qualifiedName(table), tableKey, requestedKey);
      if (tableKey.length > 0) input?.checkKey(tableKey, incoming);
      return tableKey;
    };
    const { source, mode, commitInfo, writeAllowed, deleted, note } = request;
    const result = await writeRecords(connection, engine.stagingDir, { source, table, input, mode, keyOf, commitInfo, writeAllowed, deleted, note });
    const now = this.clock.now().toISOString();
    if (result.createdTable) await registry.created(workspaceId, table, result.primaryKey, now);
    else if (result.rowsWritten > 0 || result.rowsDeleted > 0) await registry.written(workspaceId, table, now);
    return { table: qualifiedName(table), rowsWritten: result.rowsWritten, rowsDeleted: result.rowsDeleted, createdTable: result.createdTable };
  }

  /**
   * Writes a turn's group in one snapshot, each member answered with its own count and its own
   * commit information (an idempotency key) recorded under the snapshot's `group`. When the group
   * fails before committing, its members are written again one by one on the same connection, so
   * that only a member that fails alone fails, with its own error; one that failed after committing
   * fails every member (their retries find the commit, see findCommit).
   */
  private async writeGroup(
    workspaceId: string,
    engine: WorkspaceEngine,
    connection: EngineConnection,
    group: Queued[],
  ): Promise<PromiseSettledResult<RecordsWritten>[]> {
    if (group.length === 1) return [await settled(group[0]!.alone(engine, connection))];
    const members = group.map((write) => write.member!);
    const { source, memberRows } = groupSource(members);
    const groupId = Bun.randomUUIDv7();
    const writeAllowed = Promise.all(group.map((write) => write.request.writeAllowed ?? Promise.resolve())).then(() => undefined);
    writeAllowed.catch(() => {}); // awaited by the write; one that fails earlier leaves it unread
    const head = group[0]!.request;
    const commitInfo = () => {
      const rows = memberRows();
      return {
        group_id: groupId,
        [groupField]: group.map((write, index) => ({ ...write.request.commitInfo, records_written: rows[index], records_deleted: 0 })),
      };
    };
    try {
      const written = await this.writeOn(workspaceId, engine, connection, { ...head, commitInfo, writeAllowed, note: `(${group.length} pushes)` }, source);
      const rows = memberRows();
      return group.map((_, index) => ({
        status: 'fulfilled',
        value: { ...written, rowsWritten: rows[index]!, createdTable: written.createdTable && index === 0 },
      }));
    } catch (error) {
      if (await findCommit(connection, engine.metadataSchema, { group_id: groupId }).catch(() => undefined)) throw error;
      const outcomes: PromiseSettledResult<RecordsWritten>[] = [];
      for (const write of group) outcomes.push(await settled(write.alone(engine, connection)));
      return outcomes;
    }
  }

  /** The newest write whose commit information holds these fields (see findCommit). */
  findCommit(workspaceId: string, match: Record<string, string | number>): Promise<CommitInfo | undefined> {
    return this.engines.with(workspaceId, (engine) => engine.read((connection) => findCommit(connection, engine.metadataSchema, match)));
  }
}

function settled<T>(work: Promise<T>): Promise<PromiseSettledResult<T>> {
  return work.then(
    (value) => ({ status: 'fulfilled', value }),
    (reason: unknown) => ({ status: 'rejected', reason }),
  );
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
