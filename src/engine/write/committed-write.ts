import type { EngineConnection } from '../duckdb/engine-connection';

/** What a write recorded with its snapshot (its commitInfo), and how many records it wrote. */
export type CommitInfo = Record<string, unknown> & { records_written?: number };

/**
 * Writes committed together in one snapshot (a group of pushes) each leave their own information,
 * with their own count, under this field of the snapshot's.
 */
export const groupField = 'group';

/**
 * The newest snapshot whose commit information holds every given field with the given value (and
 * that `accept`s, when given): a write that died after committing (a push with an idempotency key, a
 * sync's batch) is found here, also one committed in a group (its own information is answered).
 */
export async function findCommit(
  connection: EngineConnection,
  metadata: string,
  match: Record<string, string | number>,
  accept: (info: CommitInfo) => boolean = () => true,
): Promise<CommitInfo | undefined> {
  return (await findCommittedSnapshot(connection, metadata, match, accept))?.info;
}

/** The same, with the id of the snapshot the write made. */
export async function findCommittedSnapshot(
  connection: EngineConnection,
  metadata: string,
  match: Record<string, string | number>,
  accept: (info: CommitInfo) => boolean = () => true,
): Promise<{ snapshotId: number; info: CommitInfo } | undefined> {
  const [field, value] = Object.entries(match)[0] ?? [];
  if (field === undefined) throw new Error('findCommit needs at least one field to match');
  const reader = await connection.read(
    `SELECT snapshot_id, commit_extra_info FROM ${metadata}.ducklake_snapshot_changes
     WHERE commit_extra_info IS NOT NULL AND commit_extra_info LIKE '%' || $needle || '%' ORDER BY snapshot_id DESC`,
    { needle: JSON.stringify(value) },
  );
  for (const [snapshotId, info] of reader.getRows()) {
    const parsed = JSON.parse(String(info)) as CommitInfo;
    const members = Array.isArray(parsed[groupField]) ? (parsed[groupField] as CommitInfo[]) : [];
    for (const candidate of [parsed, ...members]) {
      if (Object.entries(match).every(([key, expected]) => Object.hasOwn(candidate, key) && candidate[key] === expected) && accept(candidate)) {
        return { snapshotId: Number(snapshotId), info: candidate };
      }
    }
  }
  return undefined;
}
