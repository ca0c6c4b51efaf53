interface Waiting<W, R> {
  write: W;
  turn: Turn<W, R>;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * The head write's turn: it waits for whatever it needs (a lock, a connection), then calls `take` once
 * for its group, the head and the writes behind it that join it, and answers each one's outcome in
 * that order. Throwing before `take` fails the head alone; after it, the whole group.
 */
export type Turn<W, R> = (head: W, take: () => W[]) => Promise<PromiseSettledResult<R>[]>;

/**
 * Writes to one key (a table) in the order they arrived, one turn at a time. A turn takes its group as
 * late as it can, when it may start writing: the writes that queued meanwhile and `joins` accepts go
 * with it, and the first that does not stays at the head of the queue for the next turn, so the
 * order holds.
 */
export class WriteQueue<W, R> {
  private readonly queues = new Map<string, Waiting<W, R>[]>();

  constructor(private readonly joins: (group: readonly W[], next: W) => boolean) {}

  enqueue(key: string, write: W, turn: Turn<W, R>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const queue = this.queues.get(key);
      const waiting = { write, turn, resolve, reject };
      if (queue) queue.push(waiting);
      else {
        const started = [waiting];
        this.queues.set(key, started);
        void this.drain(key, started);
      }
    });
  }

  private async drain(key: string, queue: Waiting<W, R>[]): Promise<void> {
    while (queue.length > 0) {
      const head = queue[0]!;
      let taken: Waiting<W, R>[] | undefined;
      const take = () => {
        taken ??= this.takeGroup(queue);
        return taken.map((waiting) => waiting.write);
      };
      try {
        const outcomes = await head.turn(head.write, take);
        taken ??= [queue.shift()!];
        taken.forEach((waiting, index) => settle(waiting, outcomes[index] ?? missing()));
      } catch (error) {
        for (const waiting of taken ?? [queue.shift()!]) waiting.reject(error);
      }
    }
    this.queues.delete(key);
  }

  private takeGroup(queue: Waiting<W, R>[]): Waiting<W, R>[] {
    const group = [queue.shift()!];
    const writes = [group[0]!.write];
    while (queue.length > 0 && this.joins(writes, queue[0]!.write)) {
      const next = queue.shift()!;
      group.push(next);
      writes.push(next.write);
    }
    return group;
  }
}

function settle<W, R>(waiting: Waiting<W, R>, outcome: PromiseSettledResult<R>): void {
  if (outcome.status === 'fulfilled') waiting.resolve(outcome.value);
  else waiting.reject(outcome.reason);
}

function missing(): PromiseRejectedResult {
  return { status: 'rejected', reason: new Error('a write of the group was not answered') };
}
