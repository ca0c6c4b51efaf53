import type { Membership } from './membership';
import { rendezvous } from './rendezvous';

/** Which shards of the workspaces' task queues this worker serves, as the live workers change. */
export interface ShardAssignment {
  held(): readonly number[];
  onChange(listener: () => void): void;
}

/**
 * Each shard goes to one live worker by rendezvous hashing: every worker computes the same answer
 * from the same members, a worker that joins takes over only the shards it wins, and when one dies
 * (its session ends) the others take its shards over at their next read of the members, within a
 * second or two; the work queued there waits on Temporal meanwhile.
 */
export function shardAssignment(membership: Membership, shards: number): ShardAssignment {
  return {
    held() {
      const workers = membership.members('worker');
      return Array.from({ length: shards }, (_, shard) => shard).filter((shard) => rendezvous(`shard:${shard}`, workers)?.id === membership.self.id);
    },
    onChange(listener) {
      membership.onChange(() => listener());
    },
  };
}
