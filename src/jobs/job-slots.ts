import type { Transaction } from '../store/store';
import { findWorkspacePlan } from '../plans/plan-queries';
import { admitJob, countHeldSlots, listWaitingJobs } from './job-queries';

/**
 * Admission of a workspace's jobs to its running slots (its plan's `max_running_jobs`), in the
 * caller's transaction: whenever a job is submitted or ends, the workspace's free slots go to its
 * waiting jobs, highest priority first. Only an admitted job puts its query on the workers' task
 * queue, so the queue holds at most each workspace's share, and the workers' capacity, larger than
 * any one share, always has room for another workspace's job.
 *
 * Race-free across processes: the workspace's slots are counted and given under a lock held to the
 * end of the transaction (a Postgres advisory lock; SQLite's write transactions are exclusive).
 * Returns the jobs admitted now, whose workflows the caller tells once the transaction has committed.
 */
export async function admitWaiting(tx: Transaction, workspaceId: string, now: string): Promise<string[]> {
  await lockSlots(tx, workspaceId);
  // A deleted workspace's jobs are cancelled by its purge; none is admitted meanwhile.
  const plan = await tx.first(findWorkspacePlan, { workspace_id: workspaceId });
  if (!plan) return [];
  const held = Number((await tx.first(countHeldSlots, { workspace_id: workspaceId }))?.held ?? 0);
  const free = plan.max_running_jobs - held;
  if (free <= 0) return [];
  const waiting = await tx.all(listWaitingJobs, { workspace_id: workspaceId, limit: free });
  for (const { id } of waiting) await tx.run(admitJob, { id, now });
  return waiting.map(({ id }) => id);
}

/**
 * The workspace's slots locked to the end of the transaction. A transaction that ends a job takes it
 * before it changes the job's row: admission updates waiting jobs' rows under it, so taking the two in
 * the other order could deadlock with it.
 */
export function lockSlots(tx: Transaction, workspaceId: string): Promise<void> {
  return tx.lock(`job-slots:${workspaceId}`);
}
