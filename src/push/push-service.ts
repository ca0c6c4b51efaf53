import type { IdempotencyStore } from '../idempotency/idempotency-store';
import type { LakeWriter } from '../engine/write/lake-writer';
import { parseTableName } from '../engine/write/table-name';
import type { PlanRow } from '../plans/plan-queries';

/** Refuses a write to a workspace whose lake already holds its plan's storage limit (403 STORAGE_LIMIT_REACHED). */
export interface StorageCheck {
  assertRoom(workspaceId: string, lane: 'interactive', plan: PlanRow): Promise<void>;
}

export interface PushRequest {
  table: string;
  records: unknown[];
  primary_key?: string[];
  mode?: 'append' | 'overwrite';
}

export interface PushResponse {
  records_written: number;
  table: string;
}

const idempotencyScope = 'push';
/** How long a push may wait for its turn among the workspace's statements. */
const admissionWaitMs = 30_000;

/**
 * `POST /workspaces/{id}/push`: records written through the lake writer as one snapshot, with retries
 * made safe by an Idempotency-Key: the key is recorded with the snapshot, so an attempt that died
 * after committing is found and answered, never written twice.
 */
export class PushService {
  constructor(
    private readonly writer: LakeWriter,
    private readonly idempotency: IdempotencyStore,
    private readonly planOf: (workspaceId: string) => Promise<PlanRow>,
    private readonly storage: StorageCheck,
  ) {}

  async push(workspaceId: string, request: PushRequest, idempotencyKey?: string): Promise<PushResponse> {
    const table = parseTableName(request.table);
    if (!idempotencyKey) return this.write(workspaceId, table, request, {});

    const start = await this.idempotency.start<PushResponse>(workspaceId, idempotencyScope, idempotencyKey, request);
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
      const response = await this.write(workspaceId, table, request, { idempotency_key: idempotencyKey });
      await this.idempotency.complete(workspaceId, idempotencyScope, idempotencyKey, response);
      return response;
    } catch (error) {
      await this.idempotency.abandon(workspaceId, idempotencyScope, idempotencyKey);
      throw error;
    }
  }

  private async write(workspaceId: string, table: ReturnType<typeof parseTableName>, request: PushRequest, commitInfo: Record<string, unknown>): Promise<PushResponse> {
    const plan = await this.planOf(workspaceId);
    // The storage check reads the catalog on a read connection while the write stages its records;
    // nothing is written before it has passed.
    const room = this.storage.assertRoom(workspaceId, 'interactive', plan);
    room.catch(() => {}); // awaited by the write before its statements; one refused earlier leaves it unread
    const written = await this.writer.writeRecords(workspaceId, {
      table,
      records: request.records,
      mode: request.mode ?? 'append',
      primaryKey: request.primary_key,
      source: 'push',
      commitInfo,
      writeAllowed: room,
      admission: { limit: plan.max_concurrent_queries, deadline: performance.now() + admissionWaitMs },
    });
    return { records_written: written.rowsWritten, table: written.table };
  }
}
