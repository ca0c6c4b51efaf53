import { Client, Connection, isGrpcDeadlineError, isGrpcServiceError, ServiceError, type ConnectionLike } from '@temporalio/client';
import { AppError } from '../errors/app-error';

export interface TemporalClient {
  client: Client;
  connection: Connection;
  taskQueue: string;
  /** Shards of the workspaces' task queues (1: none; see task-queues.ts). */
  shards: number;
  /**
   * Runs a client call with a deadline; an unreachable server becomes 503 SERVICE_UNAVAILABLE instead
   * of a request that hangs until the client gives up.
   */
  call<T>(work: () => Promise<T>, timeoutMs?: number): Promise<T>;
  /**
   * A client over the connection of a worker running in this process, while it runs (see
   * attachLocalWorker): the only kind of client whose starts the server can hand straight to that
   * worker (eager workflow start), skipping a round of task dispatch.
   */
  readonly local: { client: Client; connection: ConnectionLike } | undefined;
  attachLocalWorker(connection: ConnectionLike): void;
  detachLocalWorker(): void;
  /** Answers when the frontend service is reachable (for /health). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const grpcUnavailable = 14;

/** A lazily connecting client, so the API starts (and reports 503 on /health) while Temporal is down. */
export function createTemporalClient(options: { address: string; namespace: string; taskQueue: string; shards?: number }): TemporalClient {
  const connection = Connection.lazy({ address: options.address, connectTimeout: '5s' });
  const client = new Client({ connection, namespace: options.namespace });
  const call = async <T>(work: () => Promise<T>, timeoutMs = 5_000): Promise<T> => {
    try {
      return await connection.withDeadline(Date.now() + timeoutMs, work);
    } catch (error) {
      if (isUnreachable(error)) {
        throw new AppError('SERVICE_UNAVAILABLE', 'Durable work cannot be scheduled right now; nothing was changed', {
          hint: 'Try again in a moment.',
          cause: error,
        });
      }
      throw error;
    }
  };
  let local: TemporalClient['local'];
  return {
    client,
    connection,
    taskQueue: options.taskQueue,
    shards: options.shards ?? 1,
    call,
    get local() {
      return local;
    },
    attachLocalWorker(workerConnection) {
      local = { client: new Client({ connection: workerConnection, namespace: options.namespace }), connection: workerConnection };
    },
    detachLocalWorker() {
      local = undefined;
    },
    // Not ensureConnected(): it remembers a first failure forever, while the channel itself reconnects.
    ping: () => call(() => connection.workflowService.getSystemInfo({}), 2_000).then(() => undefined),
    close: () => connection.close(),
  };
}

function isUnreachable(error: unknown): boolean {
  const cause = error instanceof ServiceError ? error.cause : error;
  return isGrpcDeadlineError(cause) || (isGrpcServiceError(cause) && cause.code === grpcUnavailable);
}
