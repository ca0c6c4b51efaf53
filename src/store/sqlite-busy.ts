import { SQLiteError } from 'bun:sqlite';

const busyDeadlineMs = 10_000;

/**
 * Retries a statement that another connection's lock holds off, without blocking the event loop
 * (bun:sqlite blocks it while SQLite itself waits, so connections keep their busy timeout short).
 */
export async function retryWhileBusy<T>(statement: () => T): Promise<T> {
  const deadline = Date.now() + busyDeadlineMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return statement();
    } catch (error) {
      const busy = error instanceof SQLiteError && (error.code === 'SQLITE_BUSY' || error.code?.startsWith('SQLITE_BUSY_'));
      if (!busy || Date.now() > deadline) throw error;
      await Bun.sleep(Math.min(5 * 2 ** attempt, 100));
    }
  }
}
