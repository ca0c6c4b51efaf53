import { t } from 'elysia';
import { queryModels } from '../query/model';
import { text } from '../text';

const { ResultColumn, ResultFormat } = queryModels;
const JobStatus = t.Union([t.Literal('pending'), t.Literal('running'), t.Literal('succeeded'), t.Literal('failed'), t.Literal('cancelled')], {
  description: 'pending and running while the workflow has it; succeeded, failed or cancelled once it closed',
});
const JobError = t.Object(
  { code: t.String(), message: t.String(), hint: t.Optional(t.String()) },
  { description: 'Why the job failed, with the codes of /query' },
);
const JobResult = t.Object(
  {
    columns: t.Array(ResultColumn),
    row_count: t.Integer(),
    bytes_scanned: t.Integer(),
    cost_eur: t.Number(),
    cpu_ms: t.Integer(),
    offset: t.Optional(t.Integer({ description: 'Of the page; absent in lists' })),
    limit: t.Optional(t.Integer({ description: 'Of the page; absent in lists' })),
    rows: t.Optional(t.Nullable(t.Array(t.Array(t.Unknown())), { description: 'Format json; null once the result has expired' })),
    data: t.Optional(t.Array(t.Record(t.String(), t.Unknown()), { description: 'Format objects' })),
    csv: t.Optional(t.String({ description: 'Format csv: RFC 4180 text with a header row' })),
    expired: t.Boolean(),
    expires_at: t.Nullable(t.String({ format: 'date-time' })),
  },
  { description: 'The summary of a succeeded job and, on its own status, one page of its rows in the page’s format' },
);

export const jobModels = {
  JobStatus,
  JobError,
  JobResult,
  JobSubmitRequest: t.Object({
    sql: text({ minLength: 1, maxLength: 1_000_000 }),
    workspace_id: t.String({ format: 'uuid' }),
    priority: t.Optional(t.Integer({ minimum: 1, maximum: 10, default: 5, description: '1 to 10; 10 runs first' })),
    format: t.Optional(ResultFormat),
    force: t.Optional(t.Boolean({ default: false, description: "Run even when the estimate exceeds the plan's per-query scan limit" })),
  }),
  JobSubmitResponse: t.Object({
    job_id: t.String({ format: 'uuid' }),
    status: JobStatus,
    priority: t.Integer(),
    submitted_at: t.String({ format: 'date-time' }),
  }),
  JobStatusResponse: t.Object({
    job_id: t.String({ format: 'uuid' }),
    workspace_id: t.String({ format: 'uuid' }),
    status: JobStatus,
    priority: t.Integer(),
    submitted_at: t.String({ format: 'date-time' }),
    started_at: t.Nullable(t.String({ format: 'date-time' })),
    finished_at: t.Nullable(t.String({ format: 'date-time' })),
    progress: t.Nullable(
      t.Number({
        description:
          "0 while pending; while running, DuckDB's estimate of the work done (where it has none, as for generated series, the share of the job's time limit used so far); 1 once succeeded; null once failed or cancelled",
      }),
    ),
    error: t.Nullable(JobError),
    result: t.Nullable(JobResult),
  }),
  CancelJobResponse: t.Object({ job_id: t.String({ format: 'uuid' }), status: t.Literal('cancelled') }),
};

export const jobParams = t.Object({ job_id: t.String({ format: 'uuid' }) });
