import { Context } from '@temporalio/activity';
import { parseTableName } from '../engine/write/table-name';
import type { Logger } from '../logging/logger';
import type { AfterWriteMaintenance } from '../lake/after-write-maintenance';
import type { QueryGate, WriteSettlement } from '../query/query-gate';
import { isTenantError, type AppError } from '../errors/app-error';
import type { Store, Transaction } from '../store/store';
import type { Clock } from '../util/clock';
import type { DagPlan, DagRunRequest, NodeOutcome } from '../transforms/dag-run-plan';
import type { DagRunPlanner } from '../transforms/dag-run-planner';
import {
  claimRun,
  completeRun,
  endRun,
  findRun,
  finishDagRun,
  type DagRunStatus,
  type RunRow,
  type RunStatus,
  type RunTrigger,
} from '../transforms/transform-queries';
import { loadTransforms } from '../transforms/transform-view';

export interface TransformActivityDeps {
  store: Store;
  planner: DagRunPlanner;
  /** Every statement's checks, cost, usage record and admission, as for any other query. */
  gate: Pick<QueryGate, 'materialize'>;
  /** The plan's storage limit, asked before a node writes (403 STORAGE_LIMIT_REACHED fails the node). */
  storage: { assertRoom(workspaceId: string, lane: 'background'): Promise<void> };
  /** Starts the workspace's maintenance when the table written gathered many small or delete files. */
  maintenance: Pick<AfterWriteMaintenance, 'afterWrite'>;
  /** Counts each DAG run's end by its status. */
  runEnded(status: DagRunStatus): void;
  clock: Clock;
  logger: Logger;
}

/** The DAG run's activities: its plan, one activity per node, and the bookkeeping of how it ended. */
export function createTransformActivities(deps: TransformActivityDeps) {
  return {
    planTransformDag(input: { workspaceId: string; dagRunId: string; request: DagRunRequest; trigger: RunTrigger }): Promise<DagPlan> {
      return deps.planner.plan(input.workspaceId, input.dagRunId, input.request, input.trigger);
    },

    /**
     * Materialises one transform. Its write commits once: an attempt retried after the write committed
     * (its worker died before it could say so) finds the commit by the run's id and records it instead
     * of writing again. The tenant's own errors end the run as failed; anything else is thrown to retry.
     */
    async runTransformNode(input: { workspaceId: string; runId: string; timeoutMs: number }): Promise<NodeOutcome> {
      const run = await deps.store.first(findRun, { id: input.runId });
      if (!run) throw new Error(`transform run ${input.runId} does not exist`);
      if ((await deps.store.run(claimRun, { id: run.id, now: deps.clock.now().toISOString() })) === 0) return outcomeOf(run);
      const claimed = (await deps.store.first(findRun, { id: run.id }))!;
      const context = Context.current();
      const heartbeat = setInterval(() => context.heartbeat(), 1_000);
      try {
        return await materialize(deps, claimed, input.timeoutMs, context.cancellationSignal);
      } finally {
        clearInterval(heartbeat);
      }
    },

    /** Nodes that ended without their activity recording it: skipped, cancelled, or every attempt failed. */
    async endTransformRuns(runs: { runId: string; status: RunStatus; reason: string | null }[]): Promise<void> {
      const now = deps.clock.now().toISOString();
      for (const { runId, status, reason } of runs) {
        const code = status === 'failed' ? 'INTERNAL_ERROR' : status === 'skipped' ? 'SKIPPED' : 'CANCELLED';
        const message =
          status === 'failed'
            ? 'The transform could not be run'
            : status === 'skipped'
              ? `Skipped: ${reason ?? 'a dependency did not succeed'}`
              : 'The run was cancelled';
        await deps.store.run(endRun, {
          id: runId,
          status,
          now,
          duration_ms: null,
          code,
          message,
          hint: status === 'failed' ? (reason?.slice(0, 300) ?? null) : null,
        });
      }
    },

    async finishTransformDag(dagRunId: string, status: DagRunStatus): Promise<void> {
      await deps.store.run(finishDagRun, { id: dagRunId, status, now: deps.clock.now().toISOString() });
      deps.runEnded(status);
    },
  };
}

async function materialize(deps: TransformActivityDeps, run: RunRow, timeoutMs: number, signal: AbortSignal): Promise<NodeOutcome> {
  const transform = (await loadTransforms(deps.store, run.workspace_id)).byId.get(run.transform_id);
  const startedAt = run.started_at ?? deps.clock.now().toISOString();
  if (!transform) return recordRefused(deps, run, startedAt);
  try {
    await deps.storage.assertRoom(run.workspace_id, 'background');
  } catch (error) {
    if (!isTenantError(error)) throw error;
    return recordRefused(deps, run, startedAt, error);
  }
  const caller = { userId: null, apiKeyId: null, kind: 'transform' as const, type: 'system' as const, jobId: run.id, startedAt: new Date(startedAt) };
  const settlement = await deps.gate.materialize(
    caller,
    { workspaceId: run.workspace_id, sql: transform.sql },
    {
      target: parseTableName(transform.target_table),
      materialization: transform.materialization,
      uniqueKey: transform.unique_key === null ? [] : (JSON.parse(transform.unique_key) as string[]),
      // The run's id first: it is what finds the commit again.
      commitInfo: { transform_run_id: run.id, transform_id: transform.id },
      retried: run.attempts > 1,
      label: `transform ${transform.name}`,
      timeoutMs,
      signal,
    },
    (tx, outcome) => recordRun(deps, tx, run, startedAt, outcome),
  );
  if (settlement.status === 'failed') return { status: 'failed', error: settlement.error.message };
  await deps.maintenance.afterWrite(run.workspace_id, [transform.target_table], { trigger: 'after_transform', lane: 'background' });
  return { status: 'succeeded', error: null };
}

/** The run's record of how its write ended; the gate writes the usage record in the same transaction. */
async function recordRun(deps: TransformActivityDeps, tx: Transaction, run: RunRow, startedAt: string, settlement: WriteSettlement): Promise<void> {
  const now = deps.clock.now();
  const durationMs = Math.max(0, now.getTime() - Date.parse(startedAt));
  if (settlement.status === 'failed') {
    const { error } = settlement;
    await tx.run(endRun, {
      id: run.id,
      status: 'failed',
      now: now.toISOString(),
      duration_ms: durationMs,
      code: error.code,
      message: error.message,
      hint: error.hint ?? null,
    });
    return;
  }
  const { written } = settlement;
  await tx.run(completeRun, {
    id: run.id,
    now: now.toISOString(),
    rows_written: written.rowsWritten,
    snapshot_id: written.snapshotId,
    input_snapshot_id: written.inputSnapshotId,
    duration_ms: durationMs,
  });
}

/**
 * A run that never reached the engine: its transform was deleted meanwhile, or the workspace is out
 * of storage. Nothing ran, so nothing is billed.
 */
async function recordRefused(deps: TransformActivityDeps, run: RunRow, startedAt: string, error?: AppError): Promise<NodeOutcome> {
  const now = deps.clock.now();
  const code = error?.code ?? 'NOT_FOUND';
  const message = error?.message ?? 'The transform was deleted before it ran';
  await deps.store.run(endRun, {
    id: run.id,
    status: 'failed',
    now: now.toISOString(),
    duration_ms: Math.max(0, now.getTime() - Date.parse(startedAt)),
    code,
    message,
    hint: error?.hint ?? null,
  });
  return { status: 'failed', error: message };
}

/** The outcome of a run that had ended already (an attempt that finished after recording, before reporting). */
function outcomeOf(run: RunRow): NodeOutcome {
  return run.status === 'succeeded' ? { status: 'succeeded', error: null } : { status: 'failed', error: run.error_message ?? `the run is ${run.status}` };
}

export type TransformActivities = ReturnType<typeof createTransformActivities>;
