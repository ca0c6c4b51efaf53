import type { ReplicationNames } from '../connectors/connector';
import { namedQuery } from '../store/named-query';
import type { Store } from '../store/store';

export type ReplicationSlotRow = {
  connection_id: string;
  workspace_id: string;
  slot_name: string;
  publication_name: string;
  created_lsn: string;
  /** JSON: stream → the created_lsn of the slot its last full read was made under. */
  snapshots: string;
  created_at: string;
};

const findReplicationSlot = namedQuery<{ connection_id: string }, ReplicationSlotRow>(
  'replication_slots.find',
  'SELECT * FROM replication_slots WHERE connection_id = :connection_id',
);
const upsertReplicationSlot = namedQuery<ReplicationSlotRow>(
  'replication_slots.upsert',
  `INSERT INTO replication_slots (connection_id, workspace_id, slot_name, publication_name, created_lsn, snapshots, created_at)
   VALUES (:connection_id, :workspace_id, :slot_name, :publication_name, :created_lsn, :snapshots, :created_at)
   ON CONFLICT (connection_id) DO UPDATE SET slot_name = excluded.slot_name, publication_name = excluded.publication_name, created_lsn = excluded.created_lsn,
     snapshots = excluded.snapshots, created_at = excluded.created_at`,
);
const setReplicationSnapshots = namedQuery<{ connection_id: string; created_lsn: string; snapshots: string }>(
  'replication_slots.set_snapshots',
  'UPDATE replication_slots SET snapshots = :snapshots WHERE connection_id = :connection_id AND created_lsn = :created_lsn',
);
export const deleteReplicationSlot = namedQuery<{ connection_id: string }>(
  'replication_slots.delete',
  'DELETE FROM replication_slots WHERE connection_id = :connection_id',
);
export const deleteWorkspaceReplicationSlots = namedQuery<{ workspace_id: string }>(
  'replication_slots.delete_for_workspace',
  'DELETE FROM replication_slots WHERE workspace_id = :workspace_id',
);

/** The slot and publication of a connection: named after it (63 characters at most, as Postgres allows). */
export function replicationNames(connectionId: string): ReplicationNames {
  const name = `oxbow_${connectionId.replaceAll('-', '')}`;
  return { slot: name, publication: name };
}

/**
 * What the service knows of each connection's replication slot: the LSN it was made at, and for each
 * stream, the slot its last full read of the table was made under. A stream whose last full read
 * belongs to another slot (or none) is read whole again: the changes before this slot are unknown.
 */
export class ReplicationState {
  constructor(private readonly store: Store) {}

  /** The slot as the source now has it: a new one (or one the service never recorded) starts with no stream read under it. */
  async current(
    connection: { id: string; workspace_id: string },
    slot: { created: boolean; lsn: string },
    now: string,
  ): Promise<{ createdLsn: string; snapshots: Record<string, string> }> {
    const row = await this.store.first(findReplicationSlot, { connection_id: connection.id });
    if (row && !slot.created) return { createdLsn: row.created_lsn, snapshots: JSON.parse(row.snapshots) as Record<string, string> };
    const names = replicationNames(connection.id);
    await this.store.run(upsertReplicationSlot, {
      connection_id: connection.id,
      workspace_id: connection.workspace_id,
      slot_name: names.slot,
      publication_name: names.publication,
      created_lsn: slot.lsn,
      snapshots: '{}',
      created_at: now,
    });
    return { createdLsn: slot.lsn, snapshots: {} };
  }

  /** The stream's table was read whole under the slot made at `createdLsn`. */
  async snapshotted(connectionId: string, createdLsn: string, snapshots: Record<string, string>): Promise<void> {
    await this.store.run(setReplicationSnapshots, { connection_id: connectionId, created_lsn: createdLsn, snapshots: JSON.stringify(snapshots) });
  }

  async has(connectionId: string): Promise<boolean> {
    return (await this.store.first(findReplicationSlot, { connection_id: connectionId })) !== undefined;
  }

  async forget(connectionId: string): Promise<void> {
    await this.store.run(deleteReplicationSlot, { connection_id: connectionId });
  }
}
