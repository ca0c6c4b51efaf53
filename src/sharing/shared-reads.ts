interface Reads<T> {
  running?: Promise<T>;
  /** The read the views that arrived since the running one began wait for; it has not started yet. */
  next?: Promise<T>;
}

/**
 * One read by key for many viewers at once, never older than the view: a read starts on the turn of
 * the event loop after the first view that asks for it, so the views that arrive in the same turn (a
 * crowd handed over at once) share it; views arriving while one is under way share the next, which
 * starts once that one ends. So each view gets an answer read after it arrived (a write it could have
 * seen is never missed), and a crowd of viewers costs one or two reads at a time, not one each.
 */
export class SharedReads<T> {
  private readonly reads = new Map<string, Reads<T>>();

  constructor(private readonly read: (key: string) => Promise<T>) {}

  current(key: string): Promise<T> {
    let reads = this.reads.get(key);
    if (!reads) {
      reads = {};
      this.reads.set(key, reads);
    }
    if (reads.next) return reads.next;
    const state = reads;
    const before = state.running ? state.running.then(noop, noop) : nextTurn();
    state.next = before.then(() => {
      state.next = undefined;
      return this.start(key, state);
    });
    return state.next;
  }

  private start(key: string, reads: Reads<T>): Promise<T> {
    const running = this.read(key).finally(() => {
      if (reads.running !== running) return;
      reads.running = undefined;
      if (!reads.next) this.reads.delete(key);
    });
    reads.running = running;
    return running;
  }
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function noop(): void {}
