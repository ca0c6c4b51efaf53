import { DuckDBInstance } from '@duckdb/node-api';
import { ConnectionPool } from '../connection-pool';
import { parseQuery, type AstNode } from './parse-query';

/**
 * DuckDB's parser on a small in-memory instance of its own, shared by every workspace: parsing needs
 * no data, and the workspaces' instances would add a profile write and catalog lookups to every parse.
 */
export class SqlParser {
  private pool: Promise<{ instance: DuckDBInstance; pool: ConnectionPool }> | undefined;

  constructor(private readonly connections = 2) {}

  async parse(sql: string, translated: boolean): Promise<AstNode> {
    const { pool } = await this.open();
    return pool.use((connection) => parseQuery(connection, sql, translated));
  }

  async close(): Promise<void> {
    if (!this.pool) return;
    const { instance, pool } = await this.pool;
    this.pool = undefined;
    pool.closeAll();
    instance.closeSync();
  }

  private open() {
    this.pool ??= (async () => {
      const instance = await DuckDBInstance.create(':memory:', { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false', enable_external_access: 'false' });
      const connections = await Promise.all(Array.from({ length: this.connections }, () => instance.connect()));
      return { instance, pool: new ConnectionPool(connections) };
    })();
    return this.pool;
  }
}
