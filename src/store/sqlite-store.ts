import { Database, type SQLQueryBindings } from 'bun:sqlite';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { AsyncMutex } from '../util/async-mutex';
import { bindParameters, compileQuery, type NamedQuery, type SqlParams } from './named-query';
import type { SchemaTransaction, Store, Transaction } from './store';
import { retryWhileBusy } from './sqlite-busy';

/**
 * The embedded driver. bun:sqlite is synchronous, so statements never interleave by themselves; the mutex
 * keeps other requests' statements out of an open transaction while it awaits.
 */
export class SqliteStore implements Store {
  readonly dialect = 'sqlite' as const;
  private readonly db: Database;
  private readonly mutex = new AsyncMutex();

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path, { create: true, strict: true });
    this.db.run('PRAGMA journal_mode = WAL');
    // bun:sqlite blocks the event loop while SQLite waits for a lock, so the wait is kept short here
    // and the retrying happens asynchronously (retryWhileBusy).
    this.db.run('PRAGMA busy_timeout = 20');
    this.db.run('PRAGMA foreign_keys = ON');
    this.db.run('PRAGMA synchronous = NORMAL');
  }

  all<P extends SqlParams, R>(query: NamedQuery<P, R>, params: P): Promise<R[]> {
    return this.mutex.runExclusive(() => this.direct.all(query, params));
  }

  first<P extends SqlParams, R>(query: NamedQuery<P, R>, params: P): Promise<R | undefined> {
    return this.mutex.runExclusive(() => this.direct.first(query, params));
  }

  run<P extends SqlParams>(query: NamedQuery<P, unknown>, params: P): Promise<number> {
    return this.mutex.runExclusive(() => this.direct.run(query, params));
  }

  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.mutex.runExclusive(() => this.inTransaction(work));
  }

  schemaTransaction(work: (tx: SchemaTransaction) => Promise<void>): Promise<void> {
    const db = this.db;
    const tx: SchemaTransaction = {
      ...this.direct,
      async script(sql: string) {
        db.run(sql);
      },
    };
    return this.mutex.runExclusive(() => this.inTransaction(() => work(tx)));
  }

  async ping(): Promise<void> {
    this.db.query('SELECT 1').get();
  }

  async close(): Promise<void> {
    await this.mutex.runExclusive(() => this.db.close());
  }

  private async inTransaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    // IMMEDIATE takes the write lock up front, so two processes cannot both read-then-write.
    await retryWhileBusy(() => this.db.run('BEGIN IMMEDIATE'));
    try {
      const result = await work(this.direct);
      this.db.run('COMMIT');
      return result;
    } catch (error) {
      this.db.run('ROLLBACK');
      throw error;
    }
  }

  /** Statements without the mutex: for use by whoever already holds it. */
  private readonly direct: Transaction = {
    dialect: 'sqlite',
    all: (query, params) => retryWhileBusy(() => this.statement(query).all(...this.bind(query, params)) as never[]),
    first: (query, params) => retryWhileBusy(() => (this.statement(query).get(...this.bind(query, params)) ?? undefined) as never),
    run: (query, params) => retryWhileBusy(() => this.statement(query).run(...this.bind(query, params)).changes),
    lock: async () => {},
  };

  private statement(query: NamedQuery<SqlParams, unknown>) {
    return this.db.query(compileQuery(query, 'sqlite').text);
  }

  private bind(query: NamedQuery<SqlParams, unknown>, params: SqlParams): SQLQueryBindings[] {
    return bindParameters(query, compileQuery(query, 'sqlite'), params) as SQLQueryBindings[];
  }
}
