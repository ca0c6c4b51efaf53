/** Reads a workspace catalog's current snapshot. */
export type SnapshotRead = (workspaceId: string) => Promise<number>;

interface Reads {
  running?: Promise<number>;
  queued?: Promise<number>;
}

/**
 * The current snapshot of a workspace's catalog, for many viewers at once: a read is made for every
 * view, but views arriving while one is under way share the next read, which starts once that one
 * ends. So each view gets an answer read after it arrived (a write it could have seen is never missed),
 * and a crowd of viewers costs two reads at a time, not one each.
 */
export class SnapshotReads {
  private readonly reads = new Map<string, Reads>();

  constructor(private readonly read: SnapshotRead) {}

  current(workspaceId: string): Promise<number> {
    let reads = this.reads.get(workspaceId);
    if (!reads) {
      reads = {};
      this.reads.set(workspaceId, reads);
    }
    const { running } = reads;
    if (!running) return this.start(workspaceId, reads);
    const state = reads;
    state.queued ??= running
      .catch(() => {})
      .then(() => {
        state.queued = undefined;
        return this.start(workspaceId, state);
      });
    return state.queued;
  }

  private start(workspaceId: string, reads: Reads): Promise<number> {
    const running = this.read(workspaceId).finally(() => {
      if (reads.running !== running) return;
      reads.running = undefined;
      if (!reads.queued) this.reads.delete(workspaceId);
    });
    reads.running = running;
    return running;
  }
}
