import type { EngineLane, EngineManager } from '../engine/engine-manager';
import { tablesNeedingMaintenance, type MaintenanceThresholds } from '../engine/maintenance/maintenance-need';
import type { Logger } from '../logging/logger';

/** What started a run outside the schedule, as its OxbowTrigger says. */
export type MaintenanceTriggerKind = 'after_push' | 'after_sync' | 'after_transform';

/** The workspace's maintenance on Temporal: its schedule, and a run started now (see workflow-clients/workspace-maintenance). */
export interface MaintenanceRuns {
  ensure(workspaceId: string): Promise<void>;
  /** Starts a run for the workspace unless one started by a write is already under way. */
  startAfterWrite(workspaceId: string, trigger: MaintenanceTriggerKind, tables: string[]): Promise<void>;
}

/** Who wrote, and on which of the workspace's engine lanes its catalog is read. */
interface WriteOrigin {
  trigger: MaintenanceTriggerKind;
  lane: EngineLane;
}

/**
 * After a push, a sync or a transform run: when a table it wrote has gathered many small files or
 * delete files (read from DuckLake's catalog), the workspace's maintenance starts now instead of at
 * its next scheduled run, hours away, while every scan pays for those files. The run is a workflow of
 * its own on the background lane, so the write that asked for it has already committed, and readers
 * keep reading. One run at a time per workspace: the run's workflow id is fixed, and starting it again
 * while it runs is that same run.
 *
 * One check at a time per workspace: writes that end while one is under way add their tables to a
 * single check that follows it, so a loop of small pushes costs one catalog read per check, not one
 * per push. Nothing here fails a write: an unreachable Temporal or a catalog read that fails is
 * logged, and the next write (or the schedule) asks again.
 */
export class AfterWriteMaintenance {
  private readonly checks = new Map<string, { running: Promise<void>; next?: { tables: Set<string>; origin: WriteOrigin } }>();

  constructor(
    private readonly engines: EngineManager,
    private readonly runs: MaintenanceRuns,
    private readonly thresholds: MaintenanceThresholds,
    private readonly logger: Logger,
  ) {}

  /** Resolves once the tables were checked (and a run started if they call for one); never rejects. */
  afterWrite(workspaceId: string, tables: readonly string[], origin: WriteOrigin): Promise<void> {
    const current = this.checks.get(workspaceId);
    if (current) {
      current.next ??= { tables: new Set(), origin };
      for (const table of tables) current.next.tables.add(table);
      return current.running;
    }
    const entry: { running: Promise<void>; next?: { tables: Set<string>; origin: WriteOrigin } } = { running: Promise.resolve() };
    entry.running = (async () => {
      let pending: { tables: Iterable<string>; origin: WriteOrigin } | undefined = { tables, origin };
      try {
        while (pending) {
          await this.check(workspaceId, [...pending.tables], pending.origin);
          pending = entry.next;
          entry.next = undefined;
        }
      } finally {
        this.checks.delete(workspaceId);
      }
    })();
    this.checks.set(workspaceId, entry);
    return entry.running;
  }

  private async check(workspaceId: string, tables: string[], origin: WriteOrigin): Promise<void> {
    await this.runs.ensure(workspaceId);
    try {
      const crossing = await this.engines.with(workspaceId, (engine) => tablesNeedingMaintenance(engine.catalog, tables, this.thresholds), origin.lane);
      if (crossing.length === 0) return;
      await this.runs.startAfterWrite(
        workspaceId,
        origin.trigger,
        crossing.map((counts) => counts.table),
      );
      this.logger.info('lake maintenance started after a write', { workspace_id: workspaceId, trigger: origin.trigger, tables: crossing });
    } catch (error) {
      this.logger.warn('lake maintenance after a write not started; a later write or the schedule takes it up', { workspace_id: workspaceId, error });
    }
  }
}
