import type { EngineConnection } from '../duckdb/engine-connection';

/**
 * Whether a push with this idempotency key already committed: every push records its key in its
 * snapshot's commit information, so an attempt that died after committing is found there.
 */
export async function findCommittedPush(connection: EngineConnection, metadata: string, idempotencyKey: string): Promise<{ recordsWritten: number } | undefined> {
  const reader = await connection.read(
    `SELECT commit_extra_info FROM ${metadata}.ducklake_snapshot_changes
     WHERE commit_extra_info IS NOT NULL AND commit_extra_info LIKE '%' || $needle || '%' ORDER BY snapshot_id DESC`,
    { needle: JSON.stringify(idempotencyKey) },
  );
  for (const [info] of reader.getRows()) {
    const parsed = JSON.parse(String(info)) as { idempotency_key?: string; records_written?: number };
    if (parsed.idempotency_key === idempotencyKey) return { recordsWritten: parsed.records_written ?? 0 };
  }
  return undefined;
}
