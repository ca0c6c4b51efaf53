import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { AsyncMutex } from '../../util/async-mutex';

const taskDir = '/proc/self/task';

/**
 * DuckDB starts its threads while an instance is created, which happens on a thread of the runtime's
 * work pool; a thread takes its creator's name, and the pool names each of its own threads once
 * ("Bun Pool 0", "Bun Pool 1"…). So every thread that carries a pool thread's name but is not the
 * first with that name is one of DuckDB's. Linux only; elsewhere there are none to be found.
 */
function engineThreadIds(): number[] {
  if (!existsSync(taskDir)) return [];
  const byName = new Map<string, number[]>();
  for (const entry of readdirSync(taskDir)) {
    const name = readThreadName(entry);
    if (!name?.startsWith('Bun Pool')) continue;
    byName.set(name, [...(byName.get(name) ?? []), Number(entry)]);
  }
  return [...byName.values()].flatMap((threads) => threads.sort((a, b) => a - b).slice(1));
}

const creating = new AsyncMutex();

/**
 * Creates a DuckDB instance, runs the threads it started at niceness `nice` (see below) and tells
 * which they are: those that appeared while it was created. Instances are created one at a time in the
 * process, so no other creation's threads mix in.
 */
export function withInstanceThreads<T>(create: () => Promise<T>, nice: number): Promise<{ created: T; threads: number[] }> {
  return creating.runExclusive(async () => {
    const before = new Set(engineThreadIds());
    const created = await create();
    const threads = engineThreadIds().filter((tid) => !before.has(tid));
    lowerPriority(threads, nice);
    return { created, threads };
  });
}

/**
 * Runs DuckDB's worker threads at a lower scheduling priority than the service's own threads, so that
 * the event loop, password hashing and the runtime's work pool win the CPU whenever tenants' queries
 * compete with them for it; among themselves DuckDB's threads still share it evenly. Tenants' queries
 * are never starved (they get whatever the service leaves), but a login no longer waits for them.
 */
function lowerPriority(threads: readonly number[], nice: number): void {
  if (nice <= 0) return;
  for (const tid of threads) {
    try {
      if (getPriority(tid) < nice) setPriority(tid, nice);
    } catch {
      // The thread ended in the meantime.
    }
  }
}

/** CPU time a thread has run, in nanoseconds (the scheduler's own count), or 0 once it has ended. */
export function threadCpuNanos(tid: number): number {
  try {
    return Number(readFileSync(`${taskDir}/${tid}/schedstat`, 'utf8').split(' ', 1)[0]);
  } catch {
    return 0;
  }
}

function readThreadName(tid: string): string | undefined {
  try {
    return readFileSync(`${taskDir}/${tid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}
