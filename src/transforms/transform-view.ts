import type { Queryable } from '../store/store';
import { TransformGraph, type GraphNode } from './transform-graph';
import { listWorkspaceTransforms, type RunRow, type RunStatus, type RunTrigger, type TransformRow } from './transform-queries';

export interface TransformRunView {
  id: string;
  transform_id: string;
  transform_name: string;
  dag_run_id: string | null;
  status: RunStatus;
  trigger: RunTrigger;
  rows_written: number | null;
  snapshot_id: number | null;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
  error?: { code: string; message: string; hint?: string };
}

/** A transform as the API shows it: its stored fields with the lists read, and its last run. */
export type TransformView = Omit<TransformRow, 'unique_key' | 'depends_on' | 'reads'> & {
  unique_key: string[] | null;
  depends_on: string[];
  last_run: TransformRunView | null;
};

export type TransformWithDepsView = TransformView & {
  dependencies: { id: string; name: string }[];
  dependents: { id: string; name: string }[];
};

/** A workspace's transforms and the graph they make, read whole (a workspace has tens, not thousands). */
export interface WorkspaceTransforms {
  rows: TransformRow[];
  byId: Map<string, TransformRow>;
  graph: TransformGraph;
}

export async function loadTransforms(db: Queryable, workspaceId: string): Promise<WorkspaceTransforms> {
  const rows = await db.all(listWorkspaceTransforms, { workspace_id: workspaceId });
  return { rows, byId: new Map(rows.map((row) => [row.id, row])), graph: new TransformGraph(rows.map(graphNodeOf)) };
}

export function graphNodeOf(row: Pick<TransformRow, 'id' | 'name' | 'target_table' | 'depends_on' | 'reads'>): GraphNode {
  return { id: row.id, name: row.name, target: row.target_table, dependsOn: JSON.parse(row.depends_on) as string[], reads: JSON.parse(row.reads) as string[] };
}

export function runView(row: RunRow): TransformRunView {
  const view: TransformRunView = {
    id: row.id,
    transform_id: row.transform_id,
    transform_name: row.transform_name,
    dag_run_id: row.single ? null : row.dag_run_id,
    status: row.status,
    trigger: row.trigger,
    rows_written: row.rows_written === null ? null : Number(row.rows_written),
    snapshot_id: row.snapshot_id === null ? null : Number(row.snapshot_id),
    started_at: row.started_at,
    finished_at: row.finished_at,
    duration_ms: row.duration_ms === null ? null : Number(row.duration_ms),
  };
  if (row.error_code) view.error = { code: row.error_code, message: row.error_message ?? '', ...(row.error_hint ? { hint: row.error_hint } : {}) };
  return view;
}

export function transformView(row: TransformRow, lastRun: RunRow | undefined): TransformView {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    name: row.name,
    description: row.description,
    sql: row.sql,
    target_table: row.target_table,
    materialization: row.materialization,
    unique_key: row.unique_key === null ? null : (JSON.parse(row.unique_key) as string[]),
    depends_on: JSON.parse(row.depends_on) as string[],
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_run: lastRun ? runView(lastRun) : null,
  };
}

export function withDeps(view: TransformView, graph: TransformGraph): TransformWithDepsView {
  const named = (node: GraphNode) => ({ id: node.id, name: node.name });
  return { ...view, dependencies: graph.dependencies(view.id).map(named), dependents: graph.dependents(view.id).map(named) };
}
