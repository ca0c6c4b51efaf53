import type { DuckDBConnection } from '@duckdb/node-api';

/** A fixed set of connections handed out one caller at a time; callers queue when all are busy. */
export class ConnectionPool<Connection extends { closeSync(): void } = DuckDBConnection> {
  private readonly idle: Connection[];
  private readonly waiting: ((connection: Connection) => void)[] = [];

  constructor(private readonly connections: Connection[]) {
    this.idle = [...connections];
  }

  async use<T>(work: (connection: Connection) => Promise<T>): Promise<T> {
    const connection = this.idle.pop() ?? (await new Promise<Connection>((resolve) => this.waiting.push(resolve)));
    try {
      return await work(connection);
    } finally {
      const next = this.waiting.shift();
      if (next) next(connection);
      else this.idle.push(connection);
    }
  }

  get busy(): number {
    return this.connections.length - this.idle.length;
  }

  closeAll(): void {
    for (const connection of this.connections) connection.closeSync();
  }
}
