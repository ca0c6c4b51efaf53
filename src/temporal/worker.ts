import { resolve } from 'node:path';
import { NativeConnection, Worker, bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker';

export const workflowsPath = resolve(import.meta.dir, '..', 'workflows', 'index.ts');

let bundle: Promise<WorkflowBundle> | undefined;

/** The workflow code bundle, built once per process (webpack takes a few seconds). */
export function workflowBundle(): Promise<WorkflowBundle> {
  bundle ??= bundleWorkflowCode({ workflowsPath, logger: quietBundlerLogger });
  return bundle;
}

export interface WorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  activities: object;
  maxConcurrentActivities?: number;
}

export interface RunningWorker {
  worker: Worker;
  /** Stops polling, lets running activities finish (bounded by the grace time), then resolves. */
  shutdown(): Promise<void>;
  /** Resolves when the worker stops, rejects if it fails. */
  readonly done: Promise<void>;
}

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const connection = await NativeConnection.connect({ address: options.address });
  const worker = await Worker.create({
    connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    workflowBundle: await workflowBundle(),
    activities: options.activities,
    maxConcurrentActivityTaskExecutions: options.maxConcurrentActivities ?? 20,
    shutdownGraceTime: '30s',
  });
  const done = worker.run().finally(() => connection.close());
  return {
    worker,
    done,
    async shutdown() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
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
