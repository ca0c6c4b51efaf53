import type { NamedQuery, SqlParams } from './named-query';

export type StoreDialect = 'sqlite' | 'postgres';

/** Runs named queries; implemented by the store itself and by each transaction. */
export interface Queryable {
  readonly dialect: StoreDialect;
  all<P extends SqlParams, R>(query: NamedQuery<P, R>, params: P): Promise<R[]>;
  /** The first row, or undefined when there is none. */
  first<P extends SqlParams, R>(query: NamedQuery<P, R>, params: P): Promise<R | undefined>;
  /** Runs a statement for its effect; returns how many rows it touched. */
  run<P extends SqlParams>(query: NamedQuery<P, unknown>, params: P): Promise<number>;
}

export interface Transaction extends Queryable {
  /**
   * Serializes the transactions that take the same key until they end, across processes and API
   * replicas (a Postgres advisory lock). SQLite write transactions are exclusive already.
   */
  lock(key: string): Promise<void>;
}

/** A transaction that may also run multi-statement DDL; migrations only. */
export interface SchemaTransaction extends Transaction {
  script(sql: string): Promise<void>;
}

/** The metadata store: one interface, a SQLite driver (embedded) and a Postgres driver (production). */
export interface Store extends Queryable {
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  schemaTransaction(work: (tx: SchemaTransaction) => Promise<void>): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
