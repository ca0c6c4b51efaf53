import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

const taskDir = '/proc/self/task';

/**
 * Runs DuckDB's worker threads at a lower scheduling priority than the service's own threads, so that
 * the event loop, password hashing and the runtime's work pool win the CPU whenever tenants' queries
 * compete with them for it; among themselves DuckDB's threads still share it evenly. Tenants' queries
 * are never starved (they get whatever the service leaves), but a login no longer waits for them.
 *
 * DuckDB starts its threads while an instance is created, which happens on a thread of the runtime's
 * work pool; a thread takes its creator's name, and the pool names each of its own threads once
 * ("Bun Pool 0", "Bun Pool 1"…). So every thread that carries a pool thread's name but is not the
 * first with that name is one of DuckDB's. Linux only; elsewhere this does nothing.
 */
export function lowerEngineThreadPriority(nice: number): void {
  if (nice <= 0 || !existsSync(taskDir)) return;
  const byName = new Map<string, number[]>();
  for (const entry of readdirSync(taskDir)) {
    const name = readThreadName(entry);
    if (!name?.startsWith('Bun Pool')) continue;
    byName.set(name, [...(byName.get(name) ?? []), Number(entry)]);
  }
  for (const threads of byName.values()) {
    for (const tid of threads.sort((a, b) => a - b).slice(1)) {
      try {
        if (getPriority(tid) < nice) setPriority(tid, nice);
      } catch {
        // The thread ended in the meantime.
      }
    }
  }
}

function readThreadName(tid: string): string | undefined {
  try {
    return readFileSync(`${taskDir}/${tid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}
