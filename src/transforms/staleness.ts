import type { EngineManager } from '../engine/engine-manager';
import { tableLastChanges } from '../engine/tables/table-changes';
import type { Queryable } from '../store/store';
import { latestSucceededRuns, type RunRow } from './transform-queries';
import type { WorkspaceTransforms } from './transform-view';

/**
 * Which transforms are stale. A transform is stale when it has never succeeded, when its definition
 * changed after its last successful run started, when its target is gone, when a table it reads has a
 * DuckLake snapshot newer than the one its last successful run read, or when a transform it depends on
 * is stale (that one's next run changes its input). A view reads its inputs when it is queried, so a
 * change of its inputs makes what reads the view stale rather than the view itself.
 */
export class Staleness {
  constructor(
    private readonly engines: EngineManager,
    private readonly db: Queryable,
  ) {}

  async staleIds(workspaceId: string, transforms: WorkspaceTransforms): Promise<Set<string>> {
    if (transforms.rows.length === 0) return new Set();
    const changes = await this.engines.with(workspaceId, (engine) => tableLastChanges(engine.catalog));
    const successes = new Map((await this.db.all(latestSucceededRuns, { workspace_id: workspaceId })).map((run) => [run.transform_id, run]));
    return staleSet(transforms, changes, successes);
  }
}

function staleSet(transforms: WorkspaceTransforms, changes: Map<string, number>, successes: Map<string, RunRow>): Set<string> {
  const { graph, byId } = transforms;
  // A view's target changes whenever one of its inputs does.
  const effective = new Map(changes);
  const stale = new Set<string>();
  for (const id of graph.order()) {
    const row = byId.get(id)!;
    const reads = graph.node(id)!.reads;
    const latestInput = Math.max(-1, ...reads.map((table) => effective.get(table) ?? -1));
    if (row.materialization === 'view') effective.set(row.target_table, Math.max(effective.get(row.target_table) ?? -1, latestInput));
    const success = successes.get(id);
    const upstreamStale = graph.dependencies(id).some((dependency) => stale.has(dependency.id));
    const inputsChanged = row.materialization !== 'view' && success !== undefined && latestInput > Number(success.input_snapshot_id ?? -1);
    if (!success || !changes.has(row.target_table) || row.updated_at > (success.started_at ?? '') || inputsChanged || upstreamStale) stale.add(id);
  }
  return stale;
}
