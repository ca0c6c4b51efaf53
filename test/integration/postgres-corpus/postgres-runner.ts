import postgres from 'postgres';
import type { Canonical } from './canonical';
import { datasetStatements } from './dataset-sql';
import { canonicalPostgres } from './postgres-values';

export interface PostgresReference {
  /** Rows of a query in canonical form. */
  query(sql: string): Promise<Canonical[][]>;
  close(): Promise<void>;
}

/** Loads the dataset into the (empty) database at `url` and answers queries in canonical form. */
export async function openPostgresReference(url: string): Promise<PostgresReference> {
  // One connection, so the session settings below hold for every query.
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  await sql.unsafe("SET TimeZone = 'UTC'");
  await sql.unsafe("SET IntervalStyle = 'iso_8601'");
  for (const statement of datasetStatements('postgres')) await sql.unsafe(statement);
  return {
    async query(text) {
      const result = await sql.unsafe(text).raw();
      const types = result.columns.map((column) => column.type);
      return result.map((row) => row.map((cell, i) => canonicalPostgres(cell === null ? null : Buffer.from(cell).toString('utf8'), types[i]!)));
    },
    close: () => sql.end(),
  };
}
