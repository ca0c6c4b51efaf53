import type { Logger } from '../../logging/logger';
import type { TemporalClient } from '../../temporal/client';
import { ensureMaintenanceSchedule } from './maintenance-schedule';

/**
 * Makes sure each workspace has its maintenance schedule: at creation, and again after writes in case
 * Temporal was unreachable then. Remembers which it has seen, so the check costs nothing afterwards.
 */
export class MaintenanceScheduler {
  private readonly ensured = new Set<string>();

  constructor(
    private readonly temporal: TemporalClient,
    private readonly every: string,
    private readonly logger: Logger,
  ) {}

  async ensure(workspaceId: string): Promise<void> {
    if (this.ensured.has(workspaceId)) return;
    try {
      await ensureMaintenanceSchedule(this.temporal, workspaceId, this.every);
      this.ensured.add(workspaceId);
    } catch (error) {
      this.logger.warn('maintenance schedule not created yet; a later write retries', { workspace_id: workspaceId, error });
    }
  }
}
