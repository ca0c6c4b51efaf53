import { resolve } from 'node:path';
import { NativeConnection, Worker, bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker';
import { activityLogContext } from './activity-log-context';
import type { TemporalClient } from './client';

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
}

export interface WorkerOptions {
  address: string;
  namespace: string;
  workers: TaskQueueWorker[];
  /** On shutdown, how long running activities may go on (heartbeating) before they are cancelled. */
  shutdownGraceMs?: number;
  /** The process's own client, which starts workflows eagerly on these workers while they run. */
  client?: Pick<TemporalClient, 'attachLocalWorker' | 'detachLocalWorker'>;
}

export interface RunningWorker {
  workers: Worker[];
  /** Stops polling, lets running activities finish (bounded by the grace time), then resolves. */
  shutdown(): Promise<void>;
  /** Resolves when every worker has stopped, rejects if one fails. */
  readonly done: Promise<void>;
}

/** Workers for each task queue, over one connection to Temporal. */
export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const connection = await NativeConnection.connect({ address: options.address });
  const workers = await Promise.all(
    options.workers.map(async (spec) =>
      Worker.create({
        connection,
        namespace: options.namespace,
        taskQueue: spec.taskQueue,
        ...(spec.workflows ? { workflowBundle: await workflowBundle() } : {}),
        activities: spec.activities,
        maxConcurrentActivityTaskExecutions: spec.maxConcurrentActivities,
        interceptors: { activity: [activityLogContext] },
        shutdownGraceTime: options.shutdownGraceMs ?? 30_000,
      }),
    ),
  );
  const done = Promise.all(workers.map((worker) => worker.run()))
    .then(() => undefined)
    .finally(() => {
      options.client?.detachLocalWorker();
      return connection.close();
    });
  options.client?.attachLocalWorker(connection);
  return {
    workers,
    done,
    async shutdown() {
      options.client?.detachLocalWorker();
      for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
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
