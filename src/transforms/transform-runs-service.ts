import { AppError } from '../errors/app-error';
import type { Logger } from '../logging/logger';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { Page } from '../util/page';
import type { DagRunRequest } from './dag-run-plan';
import type { DagRunPlanner } from './dag-run-planner';
import {
  countTransformRuns,
  countWorkspaceDagRuns,
  endRun,
  findDagRun,
  finishDagRun,
  listDagRunRuns,
  listTransformRuns,
  listWorkspaceDagRuns,
  type DagRunRow,
  type DagRunStatus,
  type RunRow,
  type RunTrigger,
} from './transform-queries';
import { loadTransforms, runView, type TransformRunView } from './transform-view';
import type { TransformDagWorkflows } from './transform-workflows';

export interface DagRunView {
  dag_run_id: string;
  status: DagRunStatus;
  order: string[];
  runs: TransformRunView[];
}

/** A DAG run as the run history shows it: what started it and when, beside its nodes' runs. */
export interface DagRunRecordView extends DagRunView {
  trigger: RunTrigger;
  /** A run of one transform (POST /transforms/{id}/run), not of the DAG. */
  single: boolean;
  retry_of: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface RunAllInput {
  transform_ids?: string[];
  select?: string;
  only_stale?: boolean;
  retry_from?: string;
}

/**
 * Runs of transforms: each is recorded (its DAG run and a pending run per node) before its workflow
 * starts, so a run is never lost nor started twice; the answer waits a short while for the run to
 * finish and otherwise gives its current state, which the workflow itself answers while it runs.
 */
export class TransformRunsService {
  constructor(
    private readonly store: Store,
    private readonly planner: DagRunPlanner,
    private readonly workflows: TransformDagWorkflows,
    private readonly clock: Clock,
    private readonly waitMs: number,
    private readonly logger: Logger,
  ) {}

  /** Runs one transform, not its dependencies. */
  async runOne(workspaceId: string, transformId: string): Promise<TransformRunView> {
    const view = await this.start(workspaceId, { kind: 'single', transformId }, transformId);
    return view.runs[0]!;
  }

  async runDag(workspaceId: string, input: RunAllInput): Promise<DagRunView> {
    const request: DagRunRequest = input.retry_from
      ? { kind: 'retry', dagRunId: input.retry_from }
      : { kind: 'select', transformIds: input.transform_ids, select: input.select, onlyStale: input.only_stale ?? false };
    return this.start(workspaceId, request);
  }

  async listRuns(workspaceId: string, transformId: string, limit: number): Promise<{ items: TransformRunView[]; total: number }> {
    if (!(await loadTransforms(this.store, workspaceId)).byId.has(transformId)) throw new AppError('NOT_FOUND', 'No such transform');
    const [rows, count] = await Promise.all([
      this.store.all(listTransformRuns, { transform_id: transformId, limit }),
      this.store.first(countTransformRuns, { transform_id: transformId }),
    ]);
    return { items: rows.map(runView), total: Number(count?.total ?? 0) };
  }

  /** The workspace's DAG runs, newest first, each with its nodes' runs (live while it runs). */
  async listDagRuns(workspaceId: string, page: Page): Promise<{ items: DagRunRecordView[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.store.all(listWorkspaceDagRuns, { workspace_id: workspaceId, ...page }),
      this.store.first(countWorkspaceDagRuns, { workspace_id: workspaceId }),
    ]);
    return { items: await Promise.all(rows.map((row) => this.record(row))), total: Number(count?.total ?? 0) };
  }

  /** One DAG run of the workspace; another workspace's is not found. */
  async getDagRun(workspaceId: string, dagRunId: string): Promise<DagRunRecordView> {
    const row = await this.store.first(findDagRun, { id: dagRunId });
    if (!row || row.workspace_id !== workspaceId) throw new AppError('NOT_FOUND', 'No such DAG run');
    return this.record(row);
  }

  private async start(workspaceId: string, request: DagRunRequest, singleId?: string): Promise<DagRunView> {
    await this.planner.check(workspaceId, request);
    const dagRunId = Bun.randomUUIDv7();
    const plan = await this.planner.plan(workspaceId, dagRunId, request, 'manual');
    if (plan.nodes.length === 0) {
      // Nothing to run (nothing stale, nothing left to retry): the run is over before it starts.
      await this.store.run(finishDagRun, { id: dagRunId, status: 'succeeded', now: this.clock.now().toISOString() });
    } else {
      try {
        await this.workflows.start({ workspaceId, dagRunId, request, trigger: 'manual', objectId: singleId ?? dagRunId });
      } catch (error) {
        await this.failUnstarted(dagRunId);
        throw new AppError('SERVICE_UNAVAILABLE', 'The run could not be scheduled; it is recorded as failed', {
          hint: 'Run it again in a moment.',
          cause: error,
        });
      }
    }
    await this.waitForEnd(dagRunId);
    return this.view(dagRunId);
  }

  private async record(dagRun: DagRunRow): Promise<DagRunRecordView> {
    return {
      ...(await this.view(dagRun.id, dagRun)),
      trigger: dagRun.trigger,
      single: Number(dagRun.single) === 1,
      retry_of: dagRun.retry_of,
      created_at: dagRun.created_at,
      finished_at: dagRun.finished_at,
    };
  }

  /** The DAG run as recorded, with the live state of its nodes while its workflow runs. */
  private async view(dagRunId: string, known?: DagRunRow): Promise<DagRunView> {
    const dagRun = known ?? (await this.store.first(findDagRun, { id: dagRunId }))!;
    const plan = JSON.parse(dagRun.plan) as { transform_id: string }[];
    let runs: RunRow[] = await this.store.all(listDagRunRuns, { dag_run_id: dagRunId });
    if (dagRun.status === 'running') {
      const live = await this.workflows.live(dagRunId);
      const liveStatus = new Map(live?.nodes.map((node) => [node.runId, node.status]));
      // Skips are recorded when the run ends; until then the workflow knows them.
      runs = runs.map((run) => (run.status === 'pending' && liveStatus.get(run.id) === 'skipped' ? { ...run, status: 'skipped' } : run));
    }
    const position = new Map(plan.map((node, index) => [node.transform_id, index]));
    runs.sort((a, b) => position.get(a.transform_id)! - position.get(b.transform_id)!);
    return { dag_run_id: dagRunId, status: dagRun.status, order: plan.map((node) => node.transform_id), runs: runs.map(runView) };
  }

  private async waitForEnd(dagRunId: string): Promise<void> {
    const deadline = performance.now() + this.waitMs;
    for (let pause = 20; performance.now() < deadline; pause = Math.min(pause * 2, 250)) {
      const dagRun = await this.store.first(findDagRun, { id: dagRunId });
      if (dagRun?.status !== 'running') return;
      await Bun.sleep(Math.min(pause, Math.max(0, deadline - performance.now())));
    }
  }

  private async failUnstarted(dagRunId: string): Promise<void> {
    const now = this.clock.now().toISOString();
    try {
      for (const run of await this.store.all(listDagRunRuns, { dag_run_id: dagRunId })) {
        await this.store.run(endRun, {
          id: run.id,
          status: 'failed',
          now,
          duration_ms: null,
          code: 'SERVICE_UNAVAILABLE',
          message: 'The run could not be scheduled',
          hint: 'Run it again.',
        });
      }
      await this.store.run(finishDagRun, { id: dagRunId, status: 'failed', now });
    } catch (error) {
      this.logger.error('an unstarted transform run could not be recorded as failed', { dag_run_id: dagRunId, error });
    }
  }
}
