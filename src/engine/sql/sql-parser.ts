import { DuckDBInstance, type DuckDBPreparedStatement } from '@duckdb/node-api';
import { ConnectionPool } from '../connection-pool';
import { EngineConnection } from '../duckdb/engine-connection';
import { withInstanceThreads } from '../duckdb/engine-threads';
import { parseQuery, serializeSqlStatement, type AstNode, type SqlSerializer } from './parse-query';

/** Writes a parse tree back as SQL text. */
const deserializeSqlStatement = 'SELECT system.main.json_deserialize_sql($1::JSON)';

/** A connection with the (de)serializing statements prepared on it, which halves the cost of a parse. */
class SerializingConnection {
  private constructor(
    private readonly connection: EngineConnection,
    private readonly serializing: DuckDBPreparedStatement,
    private readonly deserializing: DuckDBPreparedStatement,
  ) {}

  static async open(instance: DuckDBInstance): Promise<SerializingConnection> {
    const connection = new EngineConnection(await instance.connect());
    return new SerializingConnection(connection, await connection.prepare(serializeSqlStatement), await connection.prepare(deserializeSqlStatement));
  }

  readonly serialize: SqlSerializer = async (sql) => {
    this.serializing.bindVarchar(1, sql);
    return String((await this.connection.execute(this.serializing)).scalar());
  };

  async deserialize(statementJson: string): Promise<string> {
    this.deserializing.bindVarchar(1, statementJson);
    return String((await this.connection.execute(this.deserializing)).scalar());
  }

  idle(): Promise<void> {
    return this.connection.idle();
  }

  closeSync(): void {
    this.serializing.destroySync();
    this.deserializing.destroySync();
    this.connection.closeSync();
  }
}

/**
 * DuckDB's parser on a small in-memory instance of its own, shared by every workspace: parsing needs
 * no data, and the workspaces' instances would add a profile write and catalog lookups to every parse.
 */
export class SqlParser {
  private pool: Promise<{ instance: DuckDBInstance; pool: ConnectionPool<SerializingConnection> }> | undefined;

  constructor(private readonly options: { connections?: number; threadNice?: number } = {}) {}

  async parse(sql: string, translated: boolean): Promise<AstNode> {
    const { pool } = await this.open();
    return pool.use((connection) => parseQuery(connection.serialize, sql, translated));
  }

  /** The SQL text of a (rewritten) parse tree, given as `statementJson` writes it, as DuckDB writes it. */
  async unparse(statementJson: string): Promise<string> {
    const { pool } = await this.open();
    return pool.use((connection) => connection.deserialize(statementJson));
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
      const settings = {
        autoinstall_known_extensions: 'false',
        autoload_known_extensions: 'false',
        enable_external_access: 'false',
        scheduler_process_partial: 'true',
        // One thread of DuckDB's own executes the parses (nothing else runs tasks: see pending-statement.ts).
        threads: '1',
        external_threads: '0',
      };
      const { created: instance } = await withInstanceThreads(() => DuckDBInstance.create(':memory:', settings), this.options.threadNice ?? 0);
      const connections = await Promise.all(Array.from({ length: this.options.connections ?? 2 }, () => SerializingConnection.open(instance)));
      return { instance, pool: new ConnectionPool(connections) };
    })();
    return this.pool;
  }
}
