import type { DuckDBAppender, DuckDBConnection, DuckDBMaterializedResult, DuckDBPreparedStatement, DuckDBValue } from '@duckdb/node-api';
import { abandonAfterMs, awaitPending, StatementAbandoned, type StatementWatch } from './pending-statement';
import { MaterializedRows } from './materialized-rows';
import { PreparedStatements } from './prepared-statements';
import type { InstanceCpuTime } from './instance-cpu-time';
import { isNoActiveTransaction } from './duckdb-error';

export type StatementValues = DuckDBValue[] | Record<string, DuckDBValue>;

export interface ReadOptions {
  /** Keep the prepared statement for the next run of the same text (see PreparedStatements). */
  reuse?: boolean;
}

/** Texts kept prepared per connection: a workspace's recurring queries, not every query it ever ran. */
const preparedCapacity = 32;

/**
 * A DuckDB connection whose statements never hold a thread of the runtime's shared work pool while
 * they execute (see pending-statement.ts): every statement of the engine runs through here. Results
 * are materialized by DuckDB and read synchronously, chunk by chunk.
 */
export class EngineConnection {
  /** Set while an abandoned statement is still running: nothing else may run until it stops. */
  private abandoned: Promise<void> | undefined;
  private readonly prepared = new PreparedStatements(preparedCapacity);
  private twin: EngineConnection | undefined;
  /** The CPU time of the last statement executed here, when its instance's threads are counted. */
  lastCpuMs: number | undefined;

  constructor(
    private readonly connection: DuckDBConnection,
    private readonly cpu?: InstanceCpuTime,
  ) {}

  /**
   * A second connection of the same instance, held with this one, that keeps no query profile: a
   * query whose scans and CPU time are known without a profile runs there (see WorkspaceEngine).
   */
  pairWith(twin: EngineConnection): void {
    this.twin = twin;
  }

  get unprofiled(): EngineConnection | undefined {
    return this.twin;
  }

  /** Runs one statement; any rows it returns are dropped. */
  async run(sql: string, values?: StatementValues, watch?: StatementWatch, options?: ReadOptions): Promise<void> {
    await this.read(sql, values, watch, options);
  }

  /**
   * Runs statements that only configure (SET, USE, PRAGMA, LOAD, ATTACH), several in one text, at once
   * on a thread of the shared pool: they do no data work, and a round trip per statement through the
   * scheduler would make opening an instance slow.
   */
  async configure(sql: string): Promise<void> {
    this.assertNotBusy();
    await this.connection.run(sql);
  }

  /** Runs one statement and returns all of its rows. */
  async read(sql: string, values?: StatementValues, watch?: StatementWatch, options: ReadOptions = {}): Promise<MaterializedRows> {
    const kept = options.reuse ? this.prepared.take(sql) : undefined;
    const prepared = kept?.statement ?? (await this.prepareWithin(sql, watch));
    try {
      if (values) prepared.bind(values);
      else if (kept) prepared.clearBindings();
    } catch (error) {
      prepared.destroySync();
      throw error;
    }
    const keep = options.reuse ? (lastRunMs: number) => this.prepared.keep(sql, { statement: prepared, lastRunMs }) : undefined;
    // The same text usually runs about as long as it did last time: its end is looked for closely then.
    const watched = kept ? { ...watch, expectedMs: kept.lastRunMs } : watch;
    return this.execute(prepared, watched, { destroyAfter: true, keep });
  }

  /**
   * Preparing binds and plans on a thread of the shared pool, which DuckDB's interrupt does not reach:
   * past the deadline (and the grace an interrupted statement gets) the caller stops waiting, and the
   * connection stays out of use until the preparation has ended.
   */
  private async prepareWithin(sql: string, watch: StatementWatch | undefined): Promise<DuckDBPreparedStatement> {
    const preparing = this.prepare(sql);
    if (watch?.deadline === undefined) return preparing;
    let timer: Timer | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), Math.max(0, watch.deadline! - performance.now()) + abandonAfterMs);
    });
    try {
      const first = await Promise.race([preparing, late]);
      if (first !== 'late') return first;
    } finally {
      clearTimeout(timer);
    }
    const stopped = preparing.then(
      (prepared) => prepared.destroySync(),
      () => {},
    );
    this.abandoned = this.recoverFrom(stopped, () => {});
    throw new StatementAbandoned(stopped);
  }

  /** DuckDB prepares (parses, binds, plans) on the shared pool: short for the texts the checks let through. */
  prepare(sql: string): Promise<DuckDBPreparedStatement> {
    this.assertNotBusy();
    return this.connection.prepare(sql);
  }

  /**
   * Runs work in a transaction that is always rolled back: reads have nothing to commit, and ROLLBACK
   * skips DuckLake's commit checks. After an abandoned statement the rollback waits until it stops.
   */
  async readTransaction<T>(work: () => Promise<T>): Promise<T> {
    await this.run('BEGIN TRANSACTION', undefined, undefined, { reuse: true });
    try {
      return await work();
    } finally {
      if (!this.abandoned) await this.rollback();
    }
  }

  /** Ends the connection's transaction, if a failed or interrupted statement has not ended it already. */
  async rollback(): Promise<void> {
    try {
      await this.run('ROLLBACK', undefined, undefined, { reuse: true });
    } catch (error) {
      if (!isNoActiveTransaction(error)) throw error;
    }
  }

  /**
   * Executes a prepared statement with the values bound to it. `keep` takes the statement over once
   * it has run to the end (given how long it executed); otherwise it is destroyed after the run when
   * `destroyAfter` says so.
   */
  async execute(
    prepared: DuckDBPreparedStatement,
    watch?: StatementWatch,
    options: { destroyAfter?: boolean; keep?: (ranMs: number) => void } = {},
  ): Promise<MaterializedRows> {
    let destroy = options.destroyAfter === true;
    let counted: (() => number) | undefined;
    const stopCounting = () => {
      const cpuMs = counted?.();
      counted = undefined;
      return cpuMs;
    };
    this.lastCpuMs = undefined;
    try {
      this.assertNotBusy();
      counted = this.cpu?.start();
      const pending = prepared.start();
      const startedAt = performance.now();
      try {
        await awaitPending(this.connection, pending, watch);
      } catch (error) {
        if (error instanceof StatementAbandoned) {
          // The statement still uses what it was prepared from: that is released once DuckDB lets go.
          const release = destroy ? () => prepared.destroySync() : () => {};
          destroy = false;
          this.abandoned = this.recoverFrom(error.stopped, release);
        }
        throw error;
      }
      const ranMs = performance.now() - startedAt;
      // Execution is complete, so this only collects the materialized result, on a thread of the
      // shared pool: the statement's CPU time is final and is read meanwhile.
      const result = pending.getResult();
      this.lastCpuMs = stopCounting();
      const rows = new MaterializedRows((await result) as DuckDBMaterializedResult);
      if (options.keep) {
        options.keep(ranMs);
        destroy = false;
      }
      return rows;
    } finally {
      if (counted) this.lastCpuMs = stopCounting();
      if (destroy) prepared.destroySync();
    }
  }

  /** DuckDB's appender, for loading rows a value at a time (its flush runs on the caller's thread). */
  createAppender(table: string, schema: string, catalog: string): Promise<DuckDBAppender> {
    this.assertNotBusy();
    return this.connection.createAppender(table, schema, catalog);
  }

  interrupt(): void {
    this.connection.interrupt();
  }

  /** DuckDB's progress of the running statement, 0 to 100 (-1 when unknown). */
  get progressPercentage(): number {
    return this.connection.progress.percentage;
  }

  /** Resolves once no abandoned statement runs on the connection any more. */
  idle(): Promise<void> {
    if (!this.twin) return this.abandoned ?? Promise.resolve();
    return Promise.all([this.abandoned, this.twin.idle()]).then(() => {});
  }

  /** Once the abandoned statement stops: its transaction, if any, rolled back, and the connection free again. */
  private async recoverFrom(stopped: Promise<void>, release: () => void): Promise<void> {
    await stopped;
    release();
    this.abandoned = undefined;
    await this.rollback().catch(() => {});
  }

  /** Starting a statement while an abandoned one still runs would make DuckDB wait for it on the shared pool. */
  private assertNotBusy(): void {
    if (this.abandoned) throw new Error('the connection is still stopping an abandoned statement');
  }

  closeSync(): void {
    this.prepared.clear();
    this.twin?.closeSync();
    this.connection.closeSync();
  }
}
