import { AsyncMutex } from '../util/async-mutex';
import type { EngineConnection } from './duckdb/engine-connection';
import { macrosFor } from './sql/postgres-dialect/macros';

/**
 * The Postgres dialect's macros on one instance: created in a schema every connection searches (the
 * read catalog's), each once, when a statement first calls it. Creating all of them at once would
 * cost opening an instance tens of milliseconds; a statement pays for the few it calls, once. The
 * creation happens before the statement's transaction begins, so the transaction sees the macros.
 */
export class DialectMacros {
  private readonly created = new Set<string>();
  private readonly turn = new AsyncMutex();

  constructor(private readonly schema: string) {}

  async prepareFor(connection: EngineConnection, sql: string): Promise<void> {
    if (macrosFor(sql, this.created, this.schema).names.length === 0) return;
    await this.turn.runExclusive(async () => {
      const missing = macrosFor(sql, this.created, this.schema);
      if (missing.names.length === 0) return;
      await connection.configure(missing.sql);
      for (const name of missing.names) this.created.add(name);
    });
  }
}
