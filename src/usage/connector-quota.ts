import { AppError } from '../errors/app-error';
import { workspacePlan } from '../plans/workspace-plan';
import type { Queryable } from '../store/store';

/** How many connectors (connections) a workspace has, read on `db`. The connections feature provides it. */
export type ConnectorCount = (workspaceId: string, db: Queryable) => Promise<number>;

/**
 * The plan's connector limit (NULL: none). The connections feature provides the count and asks
 * `assertRoom` before it creates a connection, in the transaction that creates it (holding a lock on
 * the workspace), so two creations at once cannot both take the last place; the dashboard reports
 * `used`.
 */
export class ConnectorQuota {
  constructor(
    private readonly db: Queryable,
    private readonly count: ConnectorCount,
  ) {}

  used(workspaceId: string, db: Queryable = this.db): Promise<number> {
    return this.count(workspaceId, db);
  }

  async assertRoom(workspaceId: string, db: Queryable = this.db): Promise<void> {
    const plan = await workspacePlan(db, workspaceId);
    const used = await this.count(workspaceId, db);
    if (plan.connector_limit === null || used < plan.connector_limit) return;
    throw new AppError('CONNECTOR_LIMIT_REACHED', `The workspace has ${used} connectors; the ${plan.name} plan allows ${plan.connector_limit}`, {
      hint: 'Delete a connection you no longer need, or move the workspace to a plan with more connectors.',
    });
  }
}
