import type { PruneParams } from '../housekeeping/prune';
import { namedQuery } from '../store/named-query';

export type Materialization = 'table' | 'view' | 'incremental';
export type RunStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'skipped' | 'cancelled';
export type DagRunStatus = 'running' | 'succeeded' | 'failed' | 'cancelled';
export type RunTrigger = 'manual' | 'schedule' | 'after_sync';

export interface TransformRow {
  id: string;
  workspace_id: string;
  name: string;
  description: string | null;
  sql: string;
  target_table: string;
  materialization: Materialization;
  unique_key: string | null;
  depends_on: string;
  reads: string;
  created_at: string;
  updated_at: string;
}

export interface RunRow {
  id: string;
  workspace_id: string;
  transform_id: string;
  transform_name: string;
  dag_run_id: string;
  single: number;
  status: RunStatus;
  trigger: RunTrigger;
  rows_written: number | null;
  snapshot_id: number | null;
  input_snapshot_id: number | null;
  attempts: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
  error_code: string | null;
  error_message: string | null;
  error_hint: string | null;
}

export interface DagRunRow {
  id: string;
  workspace_id: string;
  trigger: RunTrigger;
  single: number;
  status: DagRunStatus;
  plan: string;
  retry_of: string | null;
  created_at: string;
  finished_at: string | null;
}

type TransformParams = Omit<TransformRow, 'created_at' | 'updated_at'> & { now: string };

export const insertTransform = namedQuery<TransformParams>(
  'transforms.insert',
  `INSERT INTO transforms (id, workspace_id, name, description, sql, target_table, materialization, unique_key, depends_on, reads, created_at, updated_at)
   VALUES (:id, :workspace_id, :name, :description, :sql, :target_table, :materialization, :unique_key, :depends_on, :reads, :now, :now)`,
);

export const updateTransform = namedQuery<TransformParams>(
  'transforms.update',
  `UPDATE transforms SET name = :name, description = :description, sql = :sql, target_table = :target_table, materialization = :materialization,
     unique_key = :unique_key, depends_on = :depends_on, reads = :reads, updated_at = :now
   WHERE id = :id AND workspace_id = :workspace_id`,
);

export const deleteTransform = namedQuery<{ id: string; workspace_id: string }>(
  'transforms.delete',
  'DELETE FROM transforms WHERE id = :id AND workspace_id = :workspace_id',
);

/** Every transform of a workspace: the graph is small and always read whole. */
export const listWorkspaceTransforms = namedQuery<{ workspace_id: string }, TransformRow>(
  'transforms.list_for_workspace',
  'SELECT * FROM transforms WHERE workspace_id = :workspace_id ORDER BY created_at, id',
);

/** The newest run of each transform of a workspace that is not merely planned. */
export const latestRuns = namedQuery<{ workspace_id: string }, RunRow>(
  'transform_runs.latest_per_transform',
  `SELECT r.*, d.single FROM transform_runs r JOIN transform_dag_runs d ON d.id = r.dag_run_id
   WHERE r.workspace_id = :workspace_id AND r.id = (
     SELECT r2.id FROM transform_runs r2 WHERE r2.transform_id = r.transform_id ORDER BY r2.created_at DESC, r2.id DESC LIMIT 1)`,
);

/** The newest succeeded run of each transform: what staleness compares the inputs with. */
export const latestSucceededRuns = namedQuery<{ workspace_id: string }, RunRow>(
  'transform_runs.latest_succeeded_per_transform',
  `SELECT r.*, 0 AS single FROM transform_runs r
   WHERE r.workspace_id = :workspace_id AND r.status = 'succeeded' AND r.id = (
     SELECT r2.id FROM transform_runs r2 WHERE r2.transform_id = r.transform_id AND r2.status = 'succeeded' ORDER BY r2.finished_at DESC, r2.id DESC LIMIT 1)`,
);

export const listTransformRuns = namedQuery<{ transform_id: string; limit: number }, RunRow>(
  'transform_runs.list_for_transform',
  `SELECT r.*, d.single FROM transform_runs r JOIN transform_dag_runs d ON d.id = r.dag_run_id
   WHERE r.transform_id = :transform_id ORDER BY r.created_at DESC, r.id DESC LIMIT :limit`,
);

export const countTransformRuns = namedQuery<{ transform_id: string }, { total: number }>(
  'transform_runs.count_for_transform',
  'SELECT count(*) AS total FROM transform_runs WHERE transform_id = :transform_id',
);

export const findRun = namedQuery<{ id: string }, RunRow>(
  'transform_runs.find',
  'SELECT r.*, d.single FROM transform_runs r JOIN transform_dag_runs d ON d.id = r.dag_run_id WHERE r.id = :id',
);

export const listDagRunRuns = namedQuery<{ dag_run_id: string }, RunRow>(
  'transform_runs.list_for_dag_run',
  'SELECT r.*, d.single FROM transform_runs r JOIN transform_dag_runs d ON d.id = r.dag_run_id WHERE r.dag_run_id = :dag_run_id',
);

export const insertDagRun = namedQuery<{
  id: string;
  workspace_id: string;
  trigger: RunTrigger;
  single: number;
  plan: string;
  retry_of: string | null;
  now: string;
}>(
  'transform_dag_runs.insert',
  `INSERT INTO transform_dag_runs (id, workspace_id, trigger, single, status, plan, retry_of, created_at)
   VALUES (:id, :workspace_id, :trigger, :single, 'running', :plan, :retry_of, :now)`,
);

export const findDagRun = namedQuery<{ id: string }, DagRunRow>('transform_dag_runs.find', 'SELECT * FROM transform_dag_runs WHERE id = :id');

/** A workspace's DAG runs (and runs of one transform), newest first: the run history. */
export const listWorkspaceDagRuns = namedQuery<{ workspace_id: string; limit: number; offset: number }, DagRunRow>(
  'transform_dag_runs.list_for_workspace',
  'SELECT * FROM transform_dag_runs WHERE workspace_id = :workspace_id ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset',
);

export const countWorkspaceDagRuns = namedQuery<{ workspace_id: string }, { total: number }>(
  'transform_dag_runs.count_for_workspace',
  'SELECT count(*) AS total FROM transform_dag_runs WHERE workspace_id = :workspace_id',
);

export const finishDagRun = namedQuery<{ id: string; status: DagRunStatus; now: string }>(
  'transform_dag_runs.finish',
  "UPDATE transform_dag_runs SET status = :status, finished_at = :now WHERE id = :id AND status = 'running'",
);

export const insertRun = namedQuery<{
  id: string;
  workspace_id: string;
  transform_id: string;
  transform_name: string;
  dag_run_id: string;
  trigger: RunTrigger;
  now: string;
}>(
  'transform_runs.insert',
  `INSERT INTO transform_runs (id, workspace_id, transform_id, transform_name, dag_run_id, status, trigger, created_at)
   VALUES (:id, :workspace_id, :transform_id, :transform_name, :dag_run_id, 'pending', :trigger, :now)`,
);

/** The node's activity claims its run; a retried attempt of a run that died while running claims it again. */
export const claimRun = namedQuery<{ id: string; now: string }>(
  'transform_runs.claim',
  `UPDATE transform_runs SET status = 'running', started_at = COALESCE(started_at, :now), attempts = attempts + 1
   WHERE id = :id AND status IN ('pending', 'running')`,
);

export const completeRun = namedQuery<{ id: string; now: string; rows_written: number; snapshot_id: number; input_snapshot_id: number; duration_ms: number }>(
  'transform_runs.complete',
  `UPDATE transform_runs SET status = 'succeeded', finished_at = :now, rows_written = :rows_written, snapshot_id = :snapshot_id,
     input_snapshot_id = :input_snapshot_id, duration_ms = :duration_ms
   WHERE id = :id AND status IN ('pending', 'running')`,
);

/** Failed, skipped or cancelled: a run that ends without writing. */
export const endRun = namedQuery<{
  id: string;
  status: RunStatus;
  now: string;
  duration_ms: number | null;
  code: string | null;
  message: string | null;
  hint: string | null;
}>(
  'transform_runs.end',
  `UPDATE transform_runs SET status = :status, finished_at = :now, duration_ms = :duration_ms, error_code = :code, error_message = :message, error_hint = :hint
   WHERE id = :id AND status IN ('pending', 'running')`,
);

export const deleteWorkspaceTransforms = namedQuery<{ workspace_id: string }>(
  'transforms.delete_for_workspace',
  'DELETE FROM transforms WHERE workspace_id = :workspace_id',
);
export const deleteWorkspaceTransformRuns = namedQuery<{ workspace_id: string }>(
  'transform_runs.delete_for_workspace',
  'DELETE FROM transform_runs WHERE workspace_id = :workspace_id',
);
export const deleteWorkspaceDagRuns = namedQuery<{ workspace_id: string }>(
  'transform_dag_runs.delete_for_workspace',
  'DELETE FROM transform_dag_runs WHERE workspace_id = :workspace_id',
);

/** Runs of transforms that no longer exist, ended a day ago: nothing lists them any more. */
export const pruneOrphanTransformRuns = namedQuery<PruneParams>(
  'transform_runs.prune_orphans',
  `DELETE FROM transform_runs WHERE finished_at < :cutoff AND NOT EXISTS (SELECT 1 FROM transforms t WHERE t.id = transform_runs.transform_id)`,
);

/** DAG runs none of whose node runs are left. */
export const pruneEmptyDagRuns = namedQuery<PruneParams>(
  'transform_dag_runs.prune_empty',
  `DELETE FROM transform_dag_runs WHERE finished_at < :cutoff AND NOT EXISTS (SELECT 1 FROM transform_runs r WHERE r.dag_run_id = transform_dag_runs.id)`,
);

export const findSchedule = namedQuery<{ workspace_id: string }, { schedule: string; updated_at: string }>(
  'transform_schedules.find',
  'SELECT schedule, updated_at FROM transform_schedules WHERE workspace_id = :workspace_id',
);

export const upsertSchedule = namedQuery<{ workspace_id: string; schedule: string; now: string }>(
  'transform_schedules.upsert',
  `INSERT INTO transform_schedules (workspace_id, schedule, updated_at) VALUES (:workspace_id, :schedule, :now)
   ON CONFLICT (workspace_id) DO UPDATE SET schedule = excluded.schedule, updated_at = excluded.updated_at`,
);

export const deleteSchedule = namedQuery<{ workspace_id: string }>(
  'transform_schedules.delete',
  'DELETE FROM transform_schedules WHERE workspace_id = :workspace_id',
);

export const listRunningDagRuns = namedQuery<{ workspace_id: string }, { id: string }>(
  'transform_dag_runs.list_running',
  "SELECT id FROM transform_dag_runs WHERE workspace_id = :workspace_id AND status = 'running'",
);
