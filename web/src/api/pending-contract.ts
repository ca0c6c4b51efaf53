import type { components } from './schema';

type Schemas = components['schemas'];
type ErrorBody = { content: { 'application/json': Schemas['ErrorEnvelope'] } };

/** One entry of a workspace's query history (ARCHITECTURE §10). */
export interface QueryHistoryEntry {
  query_id: string;
  kind: 'query' | 'execute' | 'job' | 'saved_query' | 'chart' | 'transform' | 'sync';
  status: 'succeeded' | 'failed' | 'cancelled' | 'running';
  error_code?: string | null;
  sql: string;
  translated_sql?: string | null;
  caller: { type: 'user' | 'api_key' | 'public' | 'system'; id?: string | null };
  started_at: string;
  duration_ms: number | null;
  rows?: number | null;
  bytes_scanned: number;
  cpu_ms: number;
  cost_eur: number;
  estimated_bytes?: number | null;
  job_id?: string | null;
}

type Operation<Parameters, Body> = {
  parameters: Parameters;
  requestBody?: never;
  responses: { 200: { headers: { [name: string]: unknown }; content: { 'application/json': Body } }; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 422: ErrorBody };
};

type Unused = { put?: never; post?: never; delete?: never; options?: never; head?: never; patch?: never; trace?: never };

/**
 * The operations §10 of the architecture fixes whose routes the service is still gaining (the query
 * history, the job list and the cancel of a running job). Typed here by that contract so the console
 * is built against it; each goes once the generated schema has it.
 */
export interface PendingPaths {
  '/api/v1/workspaces/{workspace_id}/queries': Unused & {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: Operation<
      {
        query?: { kind?: QueryHistoryEntry['kind']; status?: QueryHistoryEntry['status']; caller_id?: string; since?: string; until?: string; limit?: number; offset?: number };
        header?: never;
        path: { workspace_id: string };
        cookie?: never;
      },
      QueryHistoryEntry[]
    >;
  };
  '/api/v1/query/jobs/{job_id}/cancel': Omit<Unused, 'post'> & {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    post: Operation<{ query?: never; header?: never; path: { job_id: string }; cookie?: never }, Schemas['CancelJobResponse']>;
  };
}
