import { t } from 'elysia';
import { paginationQuery } from '../query-params';

const Kind = t.Union(
  [t.Literal('query'), t.Literal('execute'), t.Literal('job'), t.Literal('saved_query'), t.Literal('chart'), t.Literal('transform'), t.Literal('sync')],
  { description: 'query and execute: interactive; job; saved_query; chart: a public link’s view; transform; sync: its writes to the lake' },
);
const Status = t.Union([t.Literal('running'), t.Literal('succeeded'), t.Literal('failed'), t.Literal('cancelled')], {
  description: 'running: a job’s query under way',
});

export const queryHistoryModels = {
  QueryHistoryEntry: t.Object(
    {
      query_id: t.String(),
      kind: Kind,
      status: Status,
      error_code: t.Optional(t.String()),
      sql: t.String({ description: 'As sent (the first 100,000 characters); a sync’s entry names its connection' }),
      translated_sql: t.Optional(t.String({ description: 'What DuckDB ran, when the Postgres dialect was rewritten' })),
      caller: t.Object({
        type: t.Union([t.Literal('user'), t.Literal('api_key'), t.Literal('public'), t.Literal('system')], {
          description: 'public: a published chart’s viewer; system: a schedule or the service',
        }),
        id: t.Optional(t.String({ description: 'The user’s or the API key’s id' })),
      }),
      started_at: t.String({ format: 'date-time' }),
      duration_ms: t.Integer(),
      rows: t.Optional(t.Integer({ description: 'Rows returned (written, for a transform or sync); absent unless it succeeded' })),
      bytes_scanned: t.Integer(),
      cpu_ms: t.Integer(),
      cost_eur: t.Number(),
      estimated_bytes: t.Optional(t.Integer({ description: 'What its estimate said it would scan' })),
      job_id: t.Optional(t.String({ format: 'uuid' })),
    },
    { description: 'One statement the workspace ran' },
  ),
};

export const queryHistoryQuery = t.Object({
  kind: t.Optional(Kind),
  status: t.Optional(Status),
  caller_id: t.Optional(t.String({ minLength: 1, maxLength: 64, description: 'A user’s or API key’s id' })),
  since: t.Optional(t.String({ format: 'date-time', description: 'Started at or after' })),
  until: t.Optional(t.String({ format: 'date-time', description: 'Started before' })),
  ...paginationQuery(50).properties,
});
