import { AsyncMutex } from './async-mutex';

/** One FIFO lock per key (a table, say), created on demand and dropped when nobody waits on it. */
export class KeyedMutex {
  private readonly locks = new Map<string, { mutex: AsyncMutex; users: number }>();

  async runExclusive<T>(key: string, work: () => Promise<T>): Promise<T> {
    let entry = this.locks.get(key);
    if (!entry) {
      entry = { mutex: new AsyncMutex(), users: 0 };
      this.locks.set(key, entry);
    }
    entry.users += 1;
    try {
      return await entry.mutex.runExclusive(work);
    } finally {
      entry.users -= 1;
      if (entry.users === 0) this.locks.delete(key);
    }
  }
}
