import { AppError } from '../errors/app-error';
import type { Logger } from '../logging/logger';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { DagRunRequest } from './dag-run-plan';
import type { DagRunPlanner } from './dag-run-planner';
import { endRun, findDagRun, finishDagRun, listDagRunRuns, listTransformRuns, countTransformRuns, type DagRunStatus, type RunRow } from './transform-queries';
import { loadTransforms, runView, type TransformRunView } from './transform-view';
import type { TransformDagWorkflows } from './transform-workflows';

export interface DagRunView {
  dag_run_id: string;
  status: DagRunStatus;
  order: string[];
  runs: TransformRunView[];
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
    const [rows, count] = await Promise.all([this.store.all(listTransformRuns, { transform_id: transformId, limit }), this.store.first(countTransformRuns, { transform_id: transformId })]);
    return { items: rows.map(runView), total: Number(count?.total ?? 0) };
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
        throw new AppError('SERVICE_UNAVAILABLE', 'The run could not be scheduled; it is recorded as failed', { hint: 'Run it again in a moment.', cause: error });
      }
    }
    await this.waitForEnd(dagRunId);
    return this.view(dagRunId);
  }

  /** The DAG run as recorded, with the live state of its nodes while its workflow runs. */
  private async view(dagRunId: string): Promise<DagRunView> {
    const dagRun = (await this.store.first(findDagRun, { id: dagRunId }))!;
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
        await this.store.run(endRun, { id: run.id, status: 'failed', now, duration_ms: null, code: 'SERVICE_UNAVAILABLE', message: 'The run could not be scheduled', hint: 'Run it again.' });
      }
      await this.store.run(finishDagRun, { id: dagRunId, status: 'failed', now });
    } catch (error) {
      this.logger.error('an unstarted transform run could not be recorded as failed', { dag_run_id: dagRunId, error });
    }
  }
}
