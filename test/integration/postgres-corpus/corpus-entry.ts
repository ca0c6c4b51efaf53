/** One query of the comparison corpus. */
export interface CorpusEntry {
  /** Unique; names the test. */
  name: string;
  /** Postgres-dialect SQL over the dataset, run unchanged on Postgres. */
  sql: string;
  /** Compare rows in order; by default only when the query ends with an ORDER BY. */
  ordered?: boolean;
}
