import type { RunStatus } from './transform-queries';

/** Which transforms a DAG run takes. */
export type DagRunRequest =
  /** One transform, without its dependencies. */
  | { kind: 'single'; transformId: string }
  /** All transforms, or the named ones with their upstream, or a dbt-style selector; optionally only the stale ones. */
  | { kind: 'select'; transformIds?: string[]; select?: string; onlyStale: boolean }
  /** The failed, skipped and cancelled nodes of an earlier run. */
  | { kind: 'retry'; dagRunId: string }
  /** The stale transforms reading the changed tables, and the stale ones downstream of them (after a sync). */
  | { kind: 'downstream'; tables: string[] };

export interface PlannedNode {
  transformId: string;
  runId: string;
  name: string;
  /** Transforms of the same run this one waits for. */
  dependsOn: string[];
}

export interface DagPlan {
  dagRunId: string;
  /** Transform ids in an order that respects every dependency. */
  order: string[];
  nodes: PlannedNode[];
}

/** How one node's run ended, as its activity recorded it. */
export interface NodeOutcome {
  status: Extract<RunStatus, 'succeeded' | 'failed'>;
  error: string | null;
}
