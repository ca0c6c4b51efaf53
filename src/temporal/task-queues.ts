import { createHash } from 'node:crypto';

/**
 * The task queue a workspace's durable work goes to. One process alone (`serve`, the embedded
 * default) has one worker and needs no more than the queue itself. Among worker processes the
 * workspaces are spread over `shards` queues per kind of work (`<queue>@<shard>`): each shard is served
 * by one live worker (see sharded-workers.ts), which therefore keeps the background instances of its
 * workspaces warm, and Temporal's fairness applies within each shard. The shard of a workspace is the
 * same on every process: the start path, the schedules and the workers' registration all ask here.
 */
export function workspaceTaskQueue(queue: string, workspaceId: string | undefined, shards: number): string {
  if (shards <= 1 || workspaceId === undefined) return queue;
  return shardTaskQueue(queue, shardOf(workspaceId, shards));
}

/** The queue of one shard. */
export function shardTaskQueue(queue: string, shard: number): string {
  return `${queue}@${shard}`;
}

function shardOf(workspaceId: string, shards: number): number {
  return createHash('sha256').update(workspaceId).digest().readUInt32BE(0) % shards;
}
