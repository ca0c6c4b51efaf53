import { resolve } from 'node:path';
import { NativeConnection, Worker, bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker';
import { activityLogContext } from './activity-log-context';
import type { TemporalClient } from './client';
import { shardTaskQueue } from './task-queues';
import { AsyncMutex } from '../util/async-mutex';

export const workflowsPath = resolve(import.meta.dir, '..', 'workflows', 'index.ts');
const workflowInterceptorsPath = resolve(import.meta.dir, '..', 'workflows', 'interceptors.ts');

let bundle: Promise<WorkflowBundle> | undefined;

/** The workflow code bundle, built once per process (webpack takes a few seconds). */
export function workflowBundle(): Promise<WorkflowBundle> {
  bundle ??= bundleWorkflowCode({ workflowsPath, workflowInterceptorModules: [workflowInterceptorsPath], logger: quietBundlerLogger });
  return bundle;
}

export interface TaskQueueWorker {
  taskQueue: string;
  activities: object;
  /** Whether this worker also runs the workflows (the main task queue does). */
  workflows: boolean;
  maxConcurrentActivities: number;
  /** The most time between two heartbeats of its activities reaching the server (and a cancel reaching them). */
  heartbeatThrottleMs?: number;
}

export interface WorkerOptions {
  address: string;
  namespace: string;
  workers: TaskQueueWorker[];
  /** On shutdown, how long running activities may go on (heartbeating) before they are cancelled. */
  shutdownGraceMs?: number;
  /** The file of a workflow bundle built ahead (TEMPORAL_WORKFLOW_BUNDLE); absent: built here. */
  workflowBundle?: string;
  /** The process's own client, which starts workflows eagerly on these workers while they run. */
  client?: Pick<TemporalClient, 'attachLocalWorker' | 'detachLocalWorker'>;
  /**
   * Among several worker processes: the shards of the workspaces' queues this one serves (a worker
   * for each task queue's shard, besides the queues themselves), as they change (task-queues.ts).
   */
  shards?: { held(): readonly number[]; onChange(listener: () => void): void };
}

/** How long a stopping worker lets its running activities finish unless told otherwise; then they are cancelled and retried elsewhere. */
const defaultShutdownGraceMs = 30_000;

export interface RunningWorker {
  /** Stops polling, lets running activities finish (bounded by the grace time), then resolves. */
  shutdown(): Promise<void>;
  /** Resolves when every worker has stopped, rejects if one fails. */
  readonly done: Promise<void>;
}

/**
 * Workers for each task queue, over one connection to Temporal; with shards, one more for each task
 * queue's shards this process serves, started and stopped as the assignment changes. A shard given
 * up stops polling at once and finishes what it runs (for the grace time, as at shutdown) while its new
 * worker takes the queue's next tasks.
 */
export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const connection = await NativeConnection.connect({ address: options.address });
  const running = new Map<string, { worker: Worker; run: Promise<void> }>();
  let fail: (error: unknown) => void = () => {};
  const failed = new Promise<never>((_, reject) => (fail = reject));
  // Observed through `done`; a process that never looks at it is not told of it twice.
  failed.catch(() => {});
  let stopped: () => void = () => {};
  const whenStopped = new Promise<void>((resolve) => (stopped = resolve));
  let stopping = false;
  const launch = async (spec: TaskQueueWorker) => {
    const worker = await Worker.create({
      connection,
      namespace: options.namespace,
      taskQueue: spec.taskQueue,
      ...(spec.workflows ? { workflowBundle: options.workflowBundle ? { codePath: options.workflowBundle } : await workflowBundle() } : {}),
      activities: spec.activities,
      maxConcurrentActivityTaskExecutions: spec.maxConcurrentActivities,
      ...(spec.heartbeatThrottleMs === undefined ? {} : { maxHeartbeatThrottleInterval: spec.heartbeatThrottleMs }),
      interceptors: { activity: [activityLogContext] },
      shutdownGraceTime: options.shutdownGraceMs ?? defaultShutdownGraceMs,
    });
    const run = worker.run();
    run.catch((error: unknown) => {
      if (!stopping) fail(error);
    });
    running.set(spec.taskQueue, { worker, run });
  };
  const stop = async (taskQueue: string) => {
    const entry = running.get(taskQueue);
    running.delete(taskQueue);
    if (entry?.worker.getState() === 'RUNNING') entry.worker.shutdown();
    await entry?.run.catch(() => {});
  };
  await Promise.all(options.workers.map(launch));

  const shards = options.shards;
  const turn = new AsyncMutex();
  const reconcile = () =>
    turn.runExclusive(async () => {
      if (stopping || !shards) return;
      const wanted = new Map(
        shards
          .held()
          .flatMap((shard) =>
            options.workers.map((spec) => [shardTaskQueue(spec.taskQueue, shard), { ...spec, taskQueue: shardTaskQueue(spec.taskQueue, shard) }] as const),
          ),
      );
      const base = new Set(options.workers.map((spec) => spec.taskQueue));
      await Promise.all([...running.keys()].filter((queue) => !base.has(queue) && !wanted.has(queue)).map(stop));
      for (const [queue, spec] of wanted) if (!running.has(queue)) await launch(spec);
    });
  shards?.onChange(() => void reconcile().catch(fail));
  await reconcile();

  options.client?.attachLocalWorker(connection);
  let shutdown: Promise<void> | undefined;
  const stopAll = () =>
    (shutdown ??= (async () => {
      stopping = true;
      options.client?.detachLocalWorker();
      await turn.runExclusive(() => Promise.all([...running.keys()].map(stop)));
      await connection.close();
      stopped();
    })());
  return { done: Promise.race([failed, whenStopped]), shutdown: stopAll };
}

// webpack's progress output is noise in the service's JSON logs.
const quietBundlerLogger = {
  log: () => {},
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
};
