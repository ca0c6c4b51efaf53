import type { DuckDBConnection } from '@duckdb/node-api';

/** A fixed set of connections handed out one caller at a time; callers queue when all are busy. */
export class ConnectionPool {
  private readonly idle: DuckDBConnection[];
  private readonly waiting: ((connection: DuckDBConnection) => void)[] = [];

  constructor(private readonly connections: DuckDBConnection[]) {
    this.idle = [...connections];
  }

  async use<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const connection = this.idle.pop() ?? (await new Promise<DuckDBConnection>((resolve) => this.waiting.push(resolve)));
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
