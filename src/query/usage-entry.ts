/** Who ran a statement: a user, an API key, a public link's viewer, or the service itself (a schedule, a sync). */
export type CallerType = 'user' | 'api_key' | 'public' | 'system';

/** The kinds of statement a workspace runs, as its usage records and history name them. */
export type UsageSource = 'execute' | 'query' | 'job' | 'saved_query' | 'chart' | 'sync' | 'transform';

/** One counted statement, as the usage recorder writes it (its usage record, roll-up and history entry). */
export interface UsageEntry {
  workspaceId: string;
  userId: string | null;
  apiKeyId: string | null;
  source: UsageSource;
  sql: string;
  /** A cancelled statement is billed for what it ran. */
  status: 'succeeded' | 'failed' | 'cancelled';
  errorCode: string | null;
  bytesScanned: number;
  cpuMs: number;
  rowsReturned: number;
  durationMs: number;
  costEur: number;
  /** The job, transform run or sync job the statement belongs to: recorded once however often it is retried. */
  jobId?: string;
  /** When the query was answered, for a record written later (see UsageBatches); now otherwise. */
  recordedAt?: Date;
  /** When it started; its end less its duration otherwise. */
  startedAt?: Date;
  /** The DuckDB SQL the Postgres dialect was translated to, when it was rewritten. */
  translatedSql?: string | null;
  /** What the estimate said it would scan, where there was one. */
  estimatedBytes?: number | null;
  /** Who ran it, for the history: a public link's viewer, or the service itself; else the user or the API key. */
  callerType?: CallerType;
}
