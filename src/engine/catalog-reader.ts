import postgres from 'postgres';
import type { DuckDBPreparedStatement } from '@duckdb/node-api';
import { bindParameters, compileQuery, namedQuery, type NamedQuery, type SqlParams } from '../store/named-query';
import { catalogSchemaName, type CatalogStore } from './catalog-attachment';
import { lakeAlias, metadataDatabase } from './catalog-names';
import type { ConnectionPool } from './connection-pool';
import type { EngineConnection } from './duckdb/engine-connection';

/**
 * Read-only queries on one workspace's DuckLake metadata tables. A Postgres catalog is read through
 * the catalog database's own driver (well under a millisecond, against 10 to 30 ms through DuckDB's
 * postgres_scanner). An embedded SQLite catalog is read through DuckDB's own SQLite, on connections of
 * the workspace's instance: a second SQLite library in the process (Bun's) would not see DuckDB's
 * locks, and with the catalog's write-ahead log it kept reading a snapshot from before DuckDB's
 * commits. Query texts write `{catalog}.ducklake_…` for the tables.
 */
export interface CatalogReader {
  all<P extends SqlParams, R>(query: NamedQuery<P, R>, params: P): Promise<R[]>;
  close(): void;
}

/** Opens the readers of a catalog store's workspaces; Postgres readers share one small pool. */
export class CatalogReaders {
  private pool: postgres.Sql | undefined;

  constructor(private readonly store: CatalogStore) {}

  /**
   * The workspace's catalog must exist (DuckLake creates it when the engine first attaches it). An
   * embedded catalog is read on the given connections of the workspace's instance.
   */
  open(workspaceId: string, engineConnections: ConnectionPool<EngineConnection>): CatalogReader {
    if (this.store.kind === 'sqlite') return new EmbeddedCatalogReader(engineConnections, `${metadataDatabase(lakeAlias)}.`);
    this.pool ??= postgres(this.store.url, { max: 4, idle_timeout: 60, onnotice: () => {}, connection: { application_name: 'oxbow-catalog' } });
    return new PostgresCatalogReader(this.pool, `"${catalogSchemaName(workspaceId)}".`);
  }

  async close(): Promise<void> {
    await this.pool?.end({ timeout: 5 });
    this.pool = undefined;
  }
}

/** The query with `{catalog}.` replaced by where the tables are, made once per reader and query. */
class LocatedQueries {
  private readonly located = new Map<NamedQuery<SqlParams, unknown>, NamedQuery<SqlParams, unknown>>();

  constructor(private readonly prefix: string) {}

  of(query: NamedQuery<SqlParams, unknown>): NamedQuery<SqlParams, unknown> {
    let located = this.located.get(query);
    if (!located) {
      located = namedQuery(query.name, query.text.replaceAll('{catalog}.', this.prefix));
      this.located.set(query, located);
    }
    return located;
  }
}

class EmbeddedCatalogReader implements CatalogReader {
  private readonly queries: LocatedQueries;
  private readonly prepared = new Map<string, Map<EngineConnection, Promise<DuckDBPreparedStatement>>>();

  constructor(
    private readonly connections: ConnectionPool<EngineConnection>,
    prefix: string,
  ) {
    this.queries = new LocatedQueries(prefix);
  }

  all<P extends SqlParams, R>(query: NamedQuery<P, R>, params: P): Promise<R[]> {
    const located = this.queries.of(query);
    // DuckDB takes Postgres-style positional parameters.
    const compiled = compileQuery(located, 'postgres');
    const values = bindParameters(located, compiled, params);
    return this.connections.use(async (connection) => {
      const statement = await this.statementOn(connection, compiled.text);
      statement.bind(values as Parameters<DuckDBPreparedStatement['bind']>[0]);
      return (await connection.execute(statement)).getRowObjectsJS() as R[];
    });
  }

  /** The statements go with their connections, which the workspace engine closes. */
  close(): void {
    this.prepared.clear();
  }

  /** Each text is prepared once per connection: the catalog is read before every query. */
  private statementOn(connection: EngineConnection, text: string): Promise<DuckDBPreparedStatement> {
    let byConnection = this.prepared.get(text);
    if (!byConnection) this.prepared.set(text, (byConnection = new Map()));
    let statement = byConnection.get(connection);
    if (!statement) {
      statement = connection.prepare(text);
      byConnection.set(connection, statement);
      statement.catch(() => byConnection.delete(connection));
    }
    return statement;
  }
}

class PostgresCatalogReader implements CatalogReader {
  private readonly queries: LocatedQueries;

  constructor(
    private readonly sql: postgres.Sql,
    prefix: string,
  ) {
    this.queries = new LocatedQueries(prefix);
  }

  async all<P extends SqlParams, R>(query: NamedQuery<P, R>, params: P): Promise<R[]> {
    const located = this.queries.of(query);
    const compiled = compileQuery(located, 'postgres');
    return (await this.sql.unsafe(compiled.text, bindParameters(located, compiled, params) as postgres.ParameterOrJSON<never>[], {
      prepare: true,
    })) as unknown as R[];
  }

  close(): void {}
}
