import { AppError } from '../errors/app-error';
import type { Queryable } from '../store/store';
import { findWorkspacePlan, type PlanRow } from './plan-queries';

/** The plan of a live workspace; a deleted or unknown one is refused like a workspace of others. */
export async function workspacePlan(db: Queryable, workspaceId: string): Promise<PlanRow> {
  const plan = await db.first(findWorkspacePlan, { workspace_id: workspaceId });
  if (!plan) throw new AppError('WORKSPACE_ACCESS_DENIED', 'You are not a member of this workspace');
  return plan;
}
