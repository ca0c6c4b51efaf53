import { readFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { parseByteSize } from '../util/byte-size';

/** The memory this process may use: its cgroup's limit where one is set, else the machine's. */
export function processMemoryBytes(): number {
  const machine = totalmem();
  for (const file of ['/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory/memory.limit_in_bytes']) {
    try {
      const limit = Number(readFileSync(file, 'utf8').trim());
      // cgroup v2 says "max" (NaN here) when unlimited; v1 a number near 2^63.
      if (Number.isFinite(limit) && limit > 0 && limit < machine) return limit;
    } catch {
      // No such cgroup file on this host.
    }
  }
  return machine;
}

/** What the instances may use when no budget is set: the rest stays for the runtime, Bun's heap and result buffers. */
const defaultBudgetShare = 0.75;

export interface InstanceBudget {
  /** Instances that may be open at once. */
  instances: number;
  budgetBytes: number;
  /** Whether the budget, not DUCKDB_MAX_INSTANCES, set the number. */
  limitedByMemory: boolean;
}

/**
 * How many engine instances may be open at once: DUCKDB_MAX_INSTANCES, fewer when their memory limits
 * would add up to more than the budget (less what other instances of the process are given: the
 * sync instances of a worker). At least one, whatever the budget.
 */
export function instanceBudget(options: { maxInstances: number; memoryLimit: string; budget: string | undefined; reservedBytes: number }): InstanceBudget {
  const perInstance = parseByteSize(options.memoryLimit);
  const budgetBytes = (options.budget === undefined ? undefined : parseByteSize(options.budget)) ?? Math.floor(processMemoryBytes() * defaultBudgetShare);
  if (perInstance === undefined || perInstance <= 0) return { instances: options.maxInstances, budgetBytes, limitedByMemory: false };
  const fitting = Math.max(1, Math.floor((budgetBytes - options.reservedBytes) / perInstance));
  return { instances: Math.min(options.maxInstances, fitting), budgetBytes, limitedByMemory: fitting < options.maxInstances };
}
