import type { Logger } from '../logging/logger';
import { listPlans, type PlanRow } from '../plans/plan-queries';
import type { Store } from '../store/store';

/**
 * The plans whose share of running jobs leaves no slot free on a task queue of `slots`. A workspace's
 * jobs all go to one shard of the query-job queue (src/temporal/task-queues.ts), whose worker serves it
 * with `QUERY_JOB_CONCURRENCY` slots: a workspace that runs its plan's whole share must leave at least
 * one of them to the other workspaces of its shard, or their jobs wait behind its backlog.
 */
export function plansCrowdingSlots(plans: readonly Pick<PlanRow, 'id' | 'max_running_jobs'>[], slots: number): Pick<PlanRow, 'id' | 'max_running_jobs'>[] {
  return plans.filter((plan) => plan.max_running_jobs >= slots);
}

/**
 * Checked as a worker starts: a plan whose share is not below the slots is told loudly, with what to
 * change. Not refused: one slot is a deliberate choice for a deployment of a single tenant (and for
 * tests that want jobs to wait).
 */
export async function checkJobCapacity(store: Store, slots: number, logger: Logger): Promise<void> {
  const crowding = plansCrowdingSlots(await store.all(listPlans, {}), slots);
  if (crowding.length === 0) return;
  logger.warn('a plan may run as many query jobs as a worker has slots: another workspace of the same shard can wait behind its jobs', {
    query_job_concurrency: slots,
    plans: crowding.map((plan) => `${plan.id}: ${plan.max_running_jobs}`).join(', '),
    hint: `Set QUERY_JOB_CONCURRENCY above ${Math.max(...crowding.map((plan) => plan.max_running_jobs))}, or lower the plans' max_running_jobs (docs/operations.md, Workers).`,
  });
}
