import { t } from 'elysia';

const sql = t.String({ minLength: 1, maxLength: 1_000_000, description: 'One read statement; Postgres-compatible SQL is translated to DuckDB' });
/** The result formats of queries and query jobs. */
export const resultFormat = (options: { default?: string; description?: string } = {}) => t.Union([t.Literal('json'), t.Literal('objects'), t.Literal('csv')], options);
const format = t.Optional(resultFormat({ default: 'json' }));
const metadata = t.Object({ bytes_scanned: t.Integer(), cost_eur: t.Number(), cpu_ms: t.Integer() });

export const queryModels = {
  ExecuteRequest: t.Object({ sql, format, workspace_id: t.Optional(t.String({ format: 'uuid', description: 'Default: your first workspace' })) }),
  QueryRequest: t.Object({
    sql,
    format,
    workspace_id: t.Optional(t.String({ format: 'uuid', description: 'Default: your first workspace' })),
    estimate_only: t.Optional(t.Boolean({ default: false, description: 'Return the scan estimate without running the query' })),
    force: t.Optional(t.Boolean({ default: false, description: "Run even when the estimate exceeds the plan's per-query scan limit" })),
  }),
  WorkspaceQueryRequest: t.Object({
    sql,
    format,
    estimate_only: t.Optional(t.Boolean({ default: false })),
    force: t.Optional(t.Boolean({ default: false })),
  }),
  QueryResponse: t.Object({
    columns: t.Array(t.Object({ name: t.String(), type: t.String() })),
    rows: t.Array(t.Array(t.Unknown())),
    row_count: t.Integer(),
    execution_time_ms: t.Number(),
    metadata,
  }),
  ObjectsResponse: t.Object({ data: t.Array(t.Record(t.String(), t.Unknown())), row_count: t.Integer(), execution_time_ms: t.Number(), metadata }),
  EstimateOnlyResponse: t.Object({
    estimate_only: t.Literal(true),
    bytes_scanned_estimate: t.Integer(),
    cost_eur_estimate: t.Number(),
    accuracy: t.Literal('upper_bound'),
    plan: t.String(),
    plan_scan_limit_bytes: t.Integer(),
    exceeds_limit: t.Boolean(),
    tables: t.Array(t.String()),
  }),
  RateLimitInfo: t.Object({ plan: t.String(), limit: t.Integer(), used: t.Integer(), remaining: t.Integer(), reset_at: t.String({ format: 'date-time' }) }),
};
