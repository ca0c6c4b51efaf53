import type { DagRunRequest } from './dag-run-plan';
import type { DagRunStatus, RunStatus, RunTrigger } from './transform-queries';

export interface LiveNode {
  runId: string;
  status: RunStatus;
}

/** A running DAG run's own answer: its state and each node's. */
export interface LiveDagRun {
  status: DagRunStatus | 'planning';
  nodes: LiveNode[];
}

/** What the transforms service needs of the DAG run workflows and their schedule. */
export interface TransformDagWorkflows {
  start(run: { workspaceId: string; dagRunId: string; request: DagRunRequest; trigger: RunTrigger; objectId: string }): Promise<void>;
  /** The running workflow's own answer; undefined once it has closed (the records answer then). */
  live(dagRunId: string): Promise<LiveDagRun | undefined>;
  cancel(dagRunId: string): Promise<void>;
}

/** A workspace's DAG schedule: a 5-field cron in UTC or `every <duration>`. */
export interface TransformSchedules {
  put(workspaceId: string, schedule: string): Promise<void>;
  remove(workspaceId: string): Promise<void>;
}
