import { rmSync } from 'node:fs';
import type { IdempotencyStore } from '../idempotency/idempotency-store';
import type { LakeWriter, RecordsWritten } from '../engine/write/lake-writer';
import type { UploadedFile } from '../engine/write/file-source';
import type { RecordsText } from '../engine/write/records-source';
import { parseTableName, type TableName } from '../engine/write/table-name';
import type { Admission } from '../engine/admission/statement-scheduler';
import type { PlanRow } from '../plans/plan-queries';

/** Refuses a write to a workspace whose lake already holds its plan's storage limit (403 STORAGE_LIMIT_REACHED). */
export interface StorageCheck {
  assertRoom(workspaceId: string, lane: 'interactive', plan: PlanRow): Promise<void>;
}

/** Where a push writes, and how (the JSON body's fields; an upload's query parameters). */
export interface PushTarget {
  table: string;
  primary_key?: string[];
  mode?: 'append' | 'overwrite';
}

export interface PushRequest extends PushTarget {
  records: unknown[];
}

/** An upload received whole into a file (see the push route): its records, and the digest of its bytes. */
export interface ReceivedUpload {
  file: UploadedFile;
  /** SHA-256 of the records' bytes as decoded (a gzip body and its plain form are the same upload), when the push has an idempotency key. */
  sha256?: string;
}

export interface PushResponse {
  records_written: number;
  table: string;
}

const idempotencyScope = 'push';
/** How long a push may wait for its turn among the workspace's statements. */
const admissionWaitMs = 30_000;

interface WriteOptions {
  commitInfo: Record<string, unknown>;
  writeAllowed: Promise<void>;
  admission: Admission;
}

/**
 * `POST /workspaces/{id}/push`: records (a JSON body, or an uploaded NDJSON, CSV or Parquet file)
 * written through the lake writer as one snapshot, with retries made safe by an Idempotency-Key: the
 * key is recorded with the snapshot, so an attempt that died after committing is found and answered,
 * never written twice.
 */
export class PushService {
  constructor(
    private readonly writer: LakeWriter,
    private readonly idempotency: IdempotencyStore,
    private readonly planOf: (workspaceId: string) => Promise<PlanRow>,
    private readonly storage: StorageCheck,
    /** Where uploads are received (a folder of this process, on the same disk as the engines' own). */
    readonly uploadFolder: () => string,
  ) {}

  /** Removes an upload's file if the write did not take it (refused first, or answered from an earlier attempt). */
  discardUpload(upload: ReceivedUpload): void {
    rmSync(upload.file.path, { force: true });
  }

  /**
   * A JSON push. `records` are values, or read from their text by the write (see RecordsText).
   * `recordsText`: the JSON array of values as received, when the caller has it (see recordsSource).
   * `bodyDigest`: the SHA-256 of a large body as received, which stands for the request against its
   * idempotency key, whichever way its records are read (the caller gives it for every body read
   * from its text that has a key).
   */
  push(
    workspaceId: string,
    request: PushTarget & { records: unknown[] | RecordsText },
    options: { idempotencyKey?: string; recordsText?: Uint8Array; bodyDigest?: string } = {},
  ): Promise<PushResponse> {
    const table = parseTableName(request.table);
    const { idempotencyKey, recordsText, bodyDigest } = options;
    return this.idempotent(workspaceId, table, bodyDigest ? { body_sha256: bodyDigest } : request, idempotencyKey, (write) =>
      this.writer.writeRecords(workspaceId, { ...this.target(table, request), records: request.records, recordsText, ...write }),
    );
  }

  /** The same for an upload; an idempotent retry of one that was written leaves the new file unread. */
  pushUpload(workspaceId: string, target: PushTarget, upload: ReceivedUpload, idempotencyKey?: string): Promise<PushResponse> {
    const table = parseTableName(target.table);
    const fingerprint = { ...target, format: upload.file.format, sha256: upload.sha256 };
    return this.idempotent(workspaceId, table, fingerprint, idempotencyKey, (options) =>
      this.writer.writeFile(workspaceId, { ...this.target(table, target), file: upload.file, ...options }),
    );
  }

  private target(table: TableName, target: PushTarget) {
    return { table, mode: target.mode ?? 'append', primaryKey: target.primary_key, source: 'push', queued: true };
  }

  private async idempotent(
    workspaceId: string,
    table: TableName,
    fingerprint: unknown,
    idempotencyKey: string | undefined,
    write: (options: WriteOptions) => Promise<RecordsWritten>,
  ): Promise<PushResponse> {
    if (!idempotencyKey) return this.write(workspaceId, {}, write);

    const start = await this.idempotency.start<PushResponse>(workspaceId, idempotencyScope, idempotencyKey, fingerprint);
    if (start.kind === 'replay') return start.response;
    if (start.kind === 'abandoned') {
      const committed = await this.writer.findCommit(workspaceId, { idempotency_key: idempotencyKey });
      if (committed) {
        const response = { records_written: committed.records_written ?? 0, table: `${table.schema}.${table.table}` };
        await this.idempotency.complete(workspaceId, idempotencyScope, idempotencyKey, response);
        return response;
      }
    }
    try {
      const response = await this.write(workspaceId, { idempotency_key: idempotencyKey }, write);
      await this.idempotency.complete(workspaceId, idempotencyScope, idempotencyKey, response);
      return response;
    } catch (error) {
      await this.idempotency.abandon(workspaceId, idempotencyScope, idempotencyKey);
      throw error;
    }
  }

  private async write(
    workspaceId: string,
    commitInfo: Record<string, unknown>,
    write: (options: WriteOptions) => Promise<RecordsWritten>,
  ): Promise<PushResponse> {
    const plan = await this.planOf(workspaceId);
    // The storage check reads the catalog on a read connection while the write stages its records;
    // nothing is written before it has passed.
    const room = this.storage.assertRoom(workspaceId, 'interactive', plan);
    room.catch(() => {}); // awaited by the write before its statements; one refused earlier leaves it unread
    const written = await write({
      commitInfo,
      writeAllowed: room,
      admission: { limit: plan.max_concurrent_queries, deadline: performance.now() + admissionWaitMs },
    });
    return { records_written: written.rowsWritten, table: written.table };
  }
}
