import { Client, Connection } from '@temporalio/client';

export interface TemporalClient {
  client: Client;
  connection: Connection;
  taskQueue: string;
  /** Answers when the frontend service is reachable (for /health). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** A lazily connecting client, so the API starts (and reports 503 on /health) while Temporal is down. */
export function createTemporalClient(options: { address: string; namespace: string; taskQueue: string }): TemporalClient {
  const connection = Connection.lazy({ address: options.address, connectTimeout: '5s' });
  const client = new Client({ connection, namespace: options.namespace });
  return {
    client,
    connection,
    taskQueue: options.taskQueue,
    async ping() {
      // Not ensureConnected(): it remembers a first failure forever, while the channel itself reconnects.
      await connection.withDeadline(Date.now() + 2_000, () => connection.workflowService.getSystemInfo({}));
    },
    close: () => connection.close(),
  };
}
