import { AppError } from '../errors/app-error';
import type { Store, Transaction } from '../store/store';
import type { Clock } from '../util/clock';
import type { DagPlan, DagRunRequest } from './dag-run-plan';
import { selectIds } from './selector';
import type { Staleness } from './staleness';
import { findDagRun, insertDagRun, insertRun, listDagRunRuns, type RunTrigger } from './transform-queries';
import { loadTransforms, type WorkspaceTransforms } from './transform-view';

const retried = new Set(['failed', 'skipped', 'cancelled']);

/**
 * Decides which transforms a DAG run takes and records the run with a pending run per node, in one
 * transaction. Planning the same DAG run again returns what was recorded: the API plans before it
 * starts the workflow, and the workflow's own planning (after a restart, or for a scheduled run) finds it.
 */
export class DagRunPlanner {
  constructor(
    private readonly store: Store,
    private readonly staleness: Staleness,
    private readonly clock: Clock,
  ) {}

  async plan(workspaceId: string, dagRunId: string, request: DagRunRequest, trigger: RunTrigger): Promise<DagPlan> {
    const recorded = await this.recorded(dagRunId);
    if (recorded) return recorded;
    const transforms = await loadTransforms(this.store, workspaceId);
    const ids = await this.select(workspaceId, transforms, request);
    const order = transforms.graph.order(ids);
    const now = this.clock.now().toISOString();
    return this.store.transaction(async (tx) => {
      // Two planners of one run (a retried activity beside the API) record it once.
      await tx.lock(`transform-dag-run:${dagRunId}`);
      const again = await this.recorded(dagRunId, tx);
      if (again) return again;
      const selected = new Set(order);
      const plan = order.map((transformId) => ({ transform_id: transformId, depends_on: transforms.graph.dependenciesWithin(transformId, selected) }));
      await tx.run(insertDagRun, {
        id: dagRunId,
        workspace_id: workspaceId,
        trigger,
        single: request.kind === 'single' ? 1 : 0,
        plan: JSON.stringify(plan),
        retry_of: request.kind === 'retry' ? request.dagRunId : null,
        now,
      });
      const nodes = [];
      for (const { transform_id: transformId, depends_on: dependsOn } of plan) {
        const row = transforms.byId.get(transformId)!;
        const runId = Bun.randomUUIDv7();
        await tx.run(insertRun, {
          id: runId,
          workspace_id: workspaceId,
          transform_id: transformId,
          transform_name: row.name,
          dag_run_id: dagRunId,
          trigger,
          now,
        });
        nodes.push({ transformId, runId, name: row.name, dependsOn });
      }
      return { dagRunId, order, nodes };
    });
  }

  /** Checks a request before anything is recorded: unknown transforms, selectors and runs are refused. */
  async check(workspaceId: string, request: DagRunRequest): Promise<void> {
    await this.select(workspaceId, await loadTransforms(this.store, workspaceId), request, false);
  }

  private async select(workspaceId: string, transforms: WorkspaceTransforms, request: DagRunRequest, withStaleness = true): Promise<Set<string>> {
    const { graph } = transforms;
    const stale = async () => (withStaleness ? this.staleness.staleIds(workspaceId, transforms) : new Set(transforms.byId.keys()));
    switch (request.kind) {
      case 'single':
        if (!transforms.byId.has(request.transformId)) throw new AppError('NOT_FOUND', 'No such transform');
        return new Set([request.transformId]);
      case 'select': {
        let ids = new Set(transforms.byId.keys());
        if (request.transformIds && request.transformIds.length > 0) {
          const unknown = request.transformIds.filter((id) => !transforms.byId.has(id));
          if (unknown.length > 0) throw new AppError('NOT_FOUND', `No transform has the id ${unknown.join(', ')}`);
          ids = graph.withUpstream(request.transformIds);
        }
        if (request.select !== undefined) {
          const selected = selectIds(graph, request.select);
          ids = request.transformIds?.length ? new Set([...ids].filter((id) => selected.has(id))) : selected;
        }
        if (!request.onlyStale) return ids;
        const staleIds = await stale();
        return new Set([...ids].filter((id) => staleIds.has(id)));
      }
      case 'retry': {
        const run = await this.store.first(findDagRun, { id: request.dagRunId });
        if (!run || run.workspace_id !== workspaceId)
          throw new AppError('NOT_FOUND', 'No such DAG run in this workspace', { hint: 'retry_from takes the dag_run_id of an earlier run.' });
        const runs = await this.store.all(listDagRunRuns, { dag_run_id: request.dagRunId });
        return new Set(runs.filter((entry) => retried.has(entry.status) && transforms.byId.has(entry.transform_id)).map((entry) => entry.transform_id));
      }
      case 'downstream': {
        const changed = new Set(request.tables.map((table) => table.toLowerCase()));
        const readers = graph.nodes.filter((node) => node.reads.some((table) => changed.has(table))).map((node) => node.id);
        const staleIds = await stale();
        return new Set([...graph.withDownstream(readers)].filter((id) => staleIds.has(id)));
      }
    }
  }

  private async recorded(dagRunId: string, db: Store | Transaction = this.store): Promise<DagPlan | undefined> {
    const run = await db.first(findDagRun, { id: dagRunId });
    if (!run) return undefined;
    const plan = JSON.parse(run.plan) as { transform_id: string; depends_on: string[] }[];
    const runs = new Map((await db.all(listDagRunRuns, { dag_run_id: dagRunId })).map((entry) => [entry.transform_id, entry]));
    const nodes = plan.map(({ transform_id: transformId, depends_on: dependsOn }) => {
      const entry = runs.get(transformId)!;
      return { transformId, runId: entry.id, name: entry.transform_name, dependsOn };
    });
    return { dagRunId, order: plan.map((node) => node.transform_id), nodes };
  }
}
