import type { PlanRow } from './plan-queries';

const bytesPerTb = 1e12;

/** What scanning this many bytes costs on the plan, in euros, to the hundred-millionth. */
export function costOf(bytes: number, plan: PlanRow): number {
  return Math.round((bytes / bytesPerTb) * plan.price_per_tb_scanned_eur * 1e8) / 1e8;
}
