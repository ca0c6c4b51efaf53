import { Database, type SQLQueryBindings } from 'bun:sqlite';
import postgres from 'postgres';
import { bindParameters, compileQuery, namedQuery, type NamedQuery, type SqlParams } from '../store/named-query';
import { retryWhileBusy } from '../store/sqlite-busy';
import { catalogSchemaName, sqliteCatalogFile, type CatalogStore } from './catalog-attachment';

/**
 * Read-only queries on one workspace's DuckLake metadata tables, through the catalog database's own
 * driver. The query path reads file statistics before every query; through DuckDB (sqlite_scanner or
 * postgres_scanner) that costs a transaction on the catalog and a scan per table, 10 to 30 ms, against
 * well under a millisecond here. Query texts write `{catalog}.ducklake_…` for the tables.
 */
export interface CatalogReader {
  all<P extends SqlParams, R>(query: NamedQuery<P, R>, params: P): Promise<R[]>;
  close(): void;
}

/** Opens the readers of a catalog store's workspaces; Postgres readers share one small pool. */
export class CatalogReaders {
  private pool: postgres.Sql | undefined;

  constructor(private readonly store: CatalogStore) {}

  /** The workspace's catalog must exist (DuckLake creates it when the engine first attaches it). */
  open(workspaceId: string): CatalogReader {
    if (this.store.kind === 'sqlite') return new SqliteCatalogReader(sqliteCatalogFile(this.store.dir, workspaceId));
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

class SqliteCatalogReader implements CatalogReader {
  private readonly db: Database;
  private readonly queries = new LocatedQueries('');

  constructor(file: string) {
    this.db = new Database(file, { readonly: true, strict: true });
    this.db.run('PRAGMA busy_timeout = 20');
  }

  all<P extends SqlParams, R>(query: NamedQuery<P, R>, params: P): Promise<R[]> {
    const located = this.queries.of(query);
    const compiled = compileQuery(located, 'sqlite');
    return retryWhileBusy(() => this.db.query(compiled.text).all(...(bindParameters(located, compiled, params) as SQLQueryBindings[])) as R[]);
  }

  close(): void {
    this.db.close();
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
    return (await this.sql.unsafe(compiled.text, bindParameters(located, compiled, params) as postgres.ParameterOrJSON<never>[], { prepare: true })) as unknown as R[];
  }

  close(): void {}
}
