import {
  ActivityFailure,
  CancellationScope,
  CancelledFailure,
  condition,
  defineQuery,
  isCancellation,
  proxyActivities,
  setHandler,
  uuid4,
} from '@temporalio/workflow';
import type { TransformActivities } from '../activities/transform-activities';
import type { DagRunRequest, NodeOutcome } from '../transforms/dag-run-plan';
import type { DagRunStatus, RunStatus, RunTrigger } from '../transforms/transform-queries';

export interface TransformDagInput {
  workspaceId: string;
  /** Chosen by whoever starts the run; a scheduled run makes its own. */
  dagRunId?: string;
  request: DagRunRequest;
  trigger: RunTrigger;
  /** Nodes that run at once, at most. */
  maxParallel: number;
  /** Time limit of one node's statement. */
  timeoutMs: number;
}

export interface DagNodeState {
  transformId: string;
  runId: string;
  name: string;
  dependsOn: string[];
  status: RunStatus;
  /** Workflow time when the node was started and when it ended. */
  startedAt: string | null;
  finishedAt: string | null;
  error: string | null;
}

export interface DagLiveStatus {
  dagRunId: string | null;
  status: DagRunStatus | 'planning';
  order: string[];
  nodes: DagNodeState[];
}

export const transformDagStatusQuery = defineQuery<DagLiveStatus>('status');

const { planTransformDag, endTransformRuns, finishTransformDag } = proxyActivities<TransformActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumAttempts: 10 },
});

const ended: RunStatus[] = ['succeeded', 'failed', 'skipped', 'cancelled'];

/**
 * One run of transforms in dependency order. The plan (which transforms, their run records) is made
 * once, by an activity, and replays from history after a restart. A node starts once every node it
 * depends on has succeeded, independent nodes side by side up to `maxParallel`; a node whose
 * dependency failed, was skipped or cancelled is skipped, and the rest goes on. Each node is one
 * activity (heartbeating, retried on another worker if its worker dies; its write is found committed
 * rather than applied twice). Cancelling the workflow cancels the running nodes and marks what did not
 * finish as cancelled. The `status` query answers the live state of every node.
 */
export async function transformDagWorkflow(input: TransformDagInput): Promise<DagRunStatus> {
  const dagRunId = input.dagRunId ?? uuid4();
  const live: DagLiveStatus = { dagRunId, status: 'planning', order: [], nodes: [] };
  setHandler(transformDagStatusQuery, () => live);

  const plan = await planTransformDag({ workspaceId: input.workspaceId, dagRunId, request: input.request, trigger: input.trigger });
  live.order = plan.order;
  live.nodes = plan.nodes.map((node) => ({ ...node, status: 'pending', startedAt: null, finishedAt: null, error: null }));
  live.status = 'running';
  if (live.nodes.length === 0) {
    live.status = 'succeeded';
    await finishTransformDag(dagRunId, live.status);
    return live.status;
  }

  /** Nodes that ended without their activity recording it (skipped, cancelled, or every attempt failed). */
  const unrecorded: Unrecorded = new Map();
  try {
    live.status = await runNodes(live.nodes, input, unrecorded);
  } catch (error) {
    if (!isCancellation(error)) throw error;
    live.status = 'cancelled';
    for (const node of live.nodes) {
      if (ended.includes(node.status)) continue;
      node.status = 'cancelled';
      unrecorded.set(node.runId, { status: 'cancelled', reason: null });
    }
  }
  await CancellationScope.nonCancellable(async () => {
    const runs = [...unrecorded.entries()].map(([runId, { status, reason }]) => ({ runId, status, reason }));
    if (runs.length > 0) await endTransformRuns(runs);
    await finishTransformDag(dagRunId, live.status as DagRunStatus);
  });
  return live.status;
}

type Unrecorded = Map<string, { status: RunStatus; reason: string | null }>;

/**
 * Starts every node whose dependencies all succeeded, up to `maxParallel` at once, skips those whose
 * dependency did not, and waits for a node to end before looking again, until none runs.
 */
async function runNodes(nodes: DagNodeState[], input: TransformDagInput, unrecorded: Unrecorded): Promise<'succeeded' | 'failed'> {
  const { runTransformNode } = proxyActivities<TransformActivities>({
    startToCloseTimeout: input.timeoutMs + 120_000,
    heartbeatTimeout: '20 seconds',
    retry: { initialInterval: '2 seconds', maximumAttempts: 3 },
  });
  const byId = new Map(nodes.map((node) => [node.transformId, node]));
  let running = 0;
  const start = (node: DagNodeState) => {
    node.status = 'running';
    node.startedAt = new Date().toISOString();
    running += 1;
    runTransformNode({ workspaceId: input.workspaceId, runId: node.runId, timeoutMs: input.timeoutMs })
      .then((outcome: NodeOutcome) => {
        node.status = outcome.status;
        node.error = outcome.error;
      })
      .catch((error: unknown) => {
        const cancelled = isCancellation(error) || (error instanceof ActivityFailure && error.cause instanceof CancelledFailure);
        node.status = cancelled ? 'cancelled' : 'failed';
        node.error = cancelled ? null : failureMessage(error);
        unrecorded.set(node.runId, { status: node.status, reason: node.error });
      })
      .finally(() => {
        node.finishedAt = new Date().toISOString();
        running -= 1;
      });
  };
  for (;;) {
    skipBlocked(nodes, byId, unrecorded);
    for (const node of nodes) {
      if (running >= input.maxParallel) break;
      if (node.status === 'pending' && node.dependsOn.every((id) => byId.get(id)!.status === 'succeeded')) start(node);
    }
    if (running === 0) break;
    const before = nodes.map((node) => node.status).join();
    await condition(() => nodes.map((node) => node.status).join() !== before);
  }
  return nodes.every((node) => node.status === 'succeeded') ? 'succeeded' : 'failed';
}

/** Skips every pending node one of whose dependencies failed, was skipped or cancelled, until none is left. */
function skipBlocked(nodes: DagNodeState[], byId: Map<string, DagNodeState>, unrecorded: Unrecorded): void {
  for (let changed = true; changed;) {
    changed = false;
    for (const node of nodes) {
      if (node.status !== 'pending') continue;
      const blocker = node.dependsOn.map((id) => byId.get(id)!).find((dependency) => ['failed', 'skipped', 'cancelled'].includes(dependency.status));
      if (!blocker) continue;
      node.status = 'skipped';
      node.error = `${blocker.name} ${blocker.status === 'failed' ? 'failed' : `was ${blocker.status}`}`;
      unrecorded.set(node.runId, { status: 'skipped', reason: node.error });
      changed = true;
    }
  }
}

function failureMessage(error: unknown): string {
  if (error instanceof ActivityFailure && error.cause instanceof Error) return error.cause.message;
  return error instanceof Error ? error.message : String(error);
}
