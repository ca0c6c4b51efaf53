/** What the pool needs of a connection: closing it, and knowing when nothing runs on it any more. */
export interface PooledConnection {
  closeSync(): void;
  /** Resolves once the connection is free for the next caller (an abandoned statement has stopped). */
  idle(): Promise<void>;
}

/**
 * A fixed set of connections handed out one caller at a time; callers queue when all are busy. A
 * connection comes back only once it is idle: one whose statement was abandoned stays out of the
 * pool until DuckDB has stopped it, while its caller has long moved on.
 */
export class ConnectionPool<Connection extends PooledConnection> {
  private readonly idleConnections: Connection[];
  private readonly waiting: ((connection: Connection) => void)[] = [];

  constructor(private readonly connections: Connection[]) {
    this.idleConnections = [...connections];
  }

  /** Runs work on a connection; `onReturned` runs once the connection is back in the pool. */
  async use<T>(work: (connection: Connection) => Promise<T>, onReturned?: () => void): Promise<T> {
    const connection = this.idleConnections.pop() ?? (await new Promise<Connection>((resolve) => this.waiting.push(resolve)));
    try {
      return await work(connection);
    } finally {
      void connection.idle().then(() => {
        const next = this.waiting.shift();
        if (next) next(connection);
        else this.idleConnections.push(connection);
        onReturned?.();
      });
    }
  }

  get busy(): number {
    return this.connections.length - this.idleConnections.length;
  }

  /** Resolves once every connection is idle: nothing may close an instance under a running statement. */
  async drained(): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.idle()));
  }

  closeAll(): void {
    for (const connection of this.connections) connection.closeSync();
  }
}
