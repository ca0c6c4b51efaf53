import postgres from 'postgres';
import { bindParameters, compileQuery, type NamedQuery, type SqlParams } from './named-query';
import type { SchemaTransaction, Store, Transaction } from './store';

type Sql = postgres.Sql<Record<string, never>>;
type TransactionSql = postgres.TransactionSql<Record<string, never>>;

// Rows come back in the same shapes as from SQLite: int8 as number (counts and sizes stay far below
// 2^53), timestamps as ISO-8601 UTC strings with millisecond precision.
const oid = { int8: 20, timestamp: 1114, timestamptz: 1184 } as const;
const rowTypes = {
  int8: { to: oid.int8, from: [oid.int8], serialize: (value: number | bigint) => value.toString(), parse: (value: string) => Number(value) },
  timestamptz: {
    to: oid.timestamptz,
    from: [oid.timestamptz, oid.timestamp],
    serialize: (value: string | Date) => (value instanceof Date ? value.toISOString() : value),
    parse: (value: string) => new Date(value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')).toISOString(),
  },
};

export class PostgresStore implements Store {
  readonly dialect = 'postgres' as const;
  private readonly sql: Sql;

  constructor(url: string, options: { maxConnections?: number } = {}) {
    this.sql = postgres(url, {
      max: options.maxConnections ?? 10,
      types: rowTypes,
      onnotice: () => {},
      connection: { TimeZone: 'UTC', application_name: 'oxbow' },
    }) as unknown as Sql;
  }

  all<P extends SqlParams, R>(query: NamedQuery<P, R>, params: P): Promise<R[]> {
    return queryable(this.sql).all(query, params);
  }

  first<P extends SqlParams, R>(query: NamedQuery<P, R>, params: P): Promise<R | undefined> {
    return queryable(this.sql).first(query, params);
  }

  run<P extends SqlParams>(query: NamedQuery<P, unknown>, params: P): Promise<number> {
    return queryable(this.sql).run(query, params);
  }

  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return (await this.sql.begin((tx) => work(queryable(tx)))) as T;
  }

  async schemaTransaction(work: (tx: SchemaTransaction) => Promise<void>): Promise<void> {
    await this.sql.begin(async (tx) => {
      await work({
        ...queryable(tx),
        // Without parameters postgres.js uses the simple protocol, which accepts several statements.
        script: async (sql: string) => {
          await tx.unsafe(sql);
        },
      });
    });
  }

  async ping(): Promise<void> {
    await this.sql`SELECT 1`;
  }

  async close(): Promise<void> {
    await this.sql.end({ timeout: 5 });
  }
}

function queryable(sql: Sql | TransactionSql): Transaction {
  const execute = (query: NamedQuery<SqlParams, unknown>, params: SqlParams) => {
    const compiled = compileQuery(query, 'postgres');
    return sql.unsafe(compiled.text, bindParameters(query, compiled, params) as postgres.ParameterOrJSON<never>[], { prepare: true });
  };
  return {
    dialect: 'postgres',
    all: async (query, params) => [...(await execute(query, params))] as never[],
    first: async (query, params) => ((await execute(query, params))[0] ?? undefined) as never,
    run: async (query, params) => (await execute(query, params)).count,
    lock: async (key: string) => {
      await sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
    },
  };
}
