import { t } from 'elysia';
import { text } from '../text';

const sql = text({ minLength: 1, maxLength: 1_000_000, description: 'One read statement; Postgres-compatible SQL is translated to DuckDB' });
/** The result formats of queries and query jobs. */
const ResultFormat = t.Union([t.Literal('json'), t.Literal('objects'), t.Literal('csv')], {
  description: 'json: columns and rows as arrays; objects: one object per row; csv: RFC 4180 text with a header row',
});
const ResultColumn = t.Object({ name: t.String(), type: t.String({ description: 'DuckDB type name' }) });
const QueryMetadata = t.Object({ bytes_scanned: t.Integer(), cost_eur: t.Number(), cpu_ms: t.Integer() });
const workspaceId = t.String({ format: 'uuid', description: 'Default: your first workspace' });
const asyncAfterMs = t.Integer({
  minimum: 100,
  maximum: 30_000,
  description: 'Run as a job and wait this long: a result in time answers as usual; a query still running answers 202 with its job (counted once)',
});

export const queryModels = {
  ResultFormat,
  ResultColumn,
  QueryMetadata,
  ExecuteRequest: t.Object({ sql, format: t.Optional(ResultFormat), workspace_id: t.Optional(workspaceId) }),
  QueryRequest: t.Object({
    sql,
    format: t.Optional(ResultFormat),
    workspace_id: t.Optional(workspaceId),
    estimate_only: t.Optional(t.Boolean({ default: false, description: 'Return the scan estimate without running the query' })),
    force: t.Optional(t.Boolean({ default: false, description: "Run even when the estimate exceeds the plan's per-query scan limit" })),
    async_after_ms: t.Optional(asyncAfterMs),
  }),
  WorkspaceQueryRequest: t.Object({
    sql,
    format: t.Optional(ResultFormat),
    estimate_only: t.Optional(t.Boolean({ default: false, description: 'Return the scan estimate without running the query' })),
    force: t.Optional(t.Boolean({ default: false, description: "Run even when the estimate exceeds the plan's per-query scan limit" })),
    async_after_ms: t.Optional(asyncAfterMs),
  }),
  QueryResponse: t.Object(
    {
      columns: t.Array(ResultColumn),
      rows: t.Array(t.Array(t.Unknown())),
      row_count: t.Integer(),
      execution_time_ms: t.Number(),
      metadata: QueryMetadata,
    },
    { description: 'Format json' },
  ),
  ObjectsResponse: t.Object(
    { data: t.Array(t.Record(t.String(), t.Unknown())), row_count: t.Integer(), execution_time_ms: t.Number(), metadata: QueryMetadata },
    { description: 'Format objects' },
  ),
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
