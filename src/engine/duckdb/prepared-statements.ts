import type { DuckDBPreparedStatement } from '@duckdb/node-api';
import { setBounded } from '../../util/bounded-map';

/** A statement kept for its text, and how long its last run took to execute. */
export interface KeptStatement {
  statement: DuckDBPreparedStatement;
  lastRunMs: number;
}

/**
 * A connection's prepared statements, by text, for texts run again and again (the same dashboard
 * query, the same transaction statements). Preparing binds and plans a statement on the shared pool;
 * a statement that scans files (every Parquet and DuckLake scan) is bound and planned once more when
 * it starts, because DuckDB cannot cache such a plan: a kept statement skips the first of the two,
 * and the second still reads the catalog and the files as they are at that run.
 */
export class PreparedStatements {
  private readonly byText = new Map<string, KeptStatement>();

  constructor(private readonly capacity: number) {}

  /** The statement kept for the text, taken out while it runs: a run that fails does not put it back. */
  take(sql: string): KeptStatement | undefined {
    const kept = this.byText.get(sql);
    this.byText.delete(sql);
    return kept;
  }

  /** Keeps a statement that ran to the end, as the newest; the oldest past the capacity is destroyed. */
  keep(sql: string, kept: KeptStatement): void {
    setBounded(this.byText, sql, kept, this.capacity)?.statement.destroySync();
  }

  /** Destroys every kept statement (before the connection closes). */
  clear(): void {
    for (const kept of this.byText.values()) kept.statement.destroySync();
    this.byText.clear();
  }
}
