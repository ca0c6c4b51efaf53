import { t } from 'elysia';
import { tableNamePattern } from '../../engine/write/table-name';
import { documentedAs } from '../openapi/documented-schema';
import { text } from '../text';

const uuid = t.String({ format: 'uuid' });
const time = t.String({ format: 'date-time' });
const Materialization = t.Union([t.Literal('table'), t.Literal('view'), t.Literal('incremental')], {
  description: '`table` is replaced on every run, `view` is a view over the SQL, `incremental` merges the rows the SQL returns on unique_key',
});
const RunStatus = t.Union([
  t.Literal('pending'),
  t.Literal('running'),
  t.Literal('succeeded'),
  t.Literal('failed'),
  t.Literal('skipped'),
  t.Literal('cancelled'),
]);
const DagRunStatus = t.Union([t.Literal('running'), t.Literal('succeeded'), t.Literal('failed'), t.Literal('cancelled')], {
  description: 'failed when any node failed or was skipped',
});
const RunTrigger = t.Union([t.Literal('manual'), t.Literal('schedule'), t.Literal('after_sync')]);
const transformName = text({ minLength: 1, maxLength: 63, pattern: '^[a-z0-9][a-z0-9_-]*$', description: 'Unique in the workspace; what selectors name' });
const targetTable = documentedAs(text({ minLength: 3, maxLength: 127 }), {
  type: 'string',
  minLength: 3,
  maxLength: 127,
  pattern: tableNamePattern,
  description: '`<schema>.<table>` the transform writes, folded to lower case; no two transforms write the same table',
});
const uniqueKey = t.Union([text({ minLength: 1, maxLength: 255 }), t.Array(text({ minLength: 1, maxLength: 255 }), { minItems: 1, maxItems: 32 })], {
  description: 'Column or columns an incremental transform merges on',
});
const sql = text({ minLength: 1, maxLength: 1_000_000, description: 'One read statement in the Postgres dialect' });
const dependsOn = t.Array(uuid, { maxItems: 1_000, description: 'Transforms that run before this one, besides those whose target the SQL reads' });
const NamedRef = t.Object({ id: uuid, name: t.String() });

const TransformRunResponse = t.Object({
  id: uuid,
  transform_id: uuid,
  transform_name: t.String(),
  dag_run_id: t.Nullable(uuid, { description: 'null for a run of one transform' }),
  status: RunStatus,
  trigger: RunTrigger,
  rows_written: t.Nullable(t.Integer()),
  snapshot_id: t.Nullable(t.Integer({ description: 'The DuckLake snapshot the run wrote' })),
  started_at: t.Nullable(time),
  finished_at: t.Nullable(time),
  duration_ms: t.Nullable(t.Integer()),
  error: t.Optional(t.Object({ code: t.String(), message: t.String(), hint: t.Optional(t.String()) })),
});

const transformFields = {
  id: uuid,
  workspace_id: uuid,
  name: t.String(),
  description: t.Nullable(t.String()),
  sql: t.String(),
  target_table: t.String(),
  materialization: Materialization,
  unique_key: t.Nullable(t.Array(t.String())),
  depends_on: t.Array(uuid),
  created_at: time,
  updated_at: time,
  last_run: t.Nullable(TransformRunResponse),
};

export const transformModels = {
  CreateTransformRequest: t.Object({
    name: transformName,
    sql,
    target_table: targetTable,
    depends_on: t.Optional(dependsOn),
    materialization: t.Optional(Materialization),
    unique_key: t.Optional(t.Nullable(uniqueKey)),
    description: t.Optional(t.Nullable(text({ maxLength: 10_000 }))),
  }),
  UpdateTransformRequest: t.Object({
    name: t.Optional(transformName),
    sql: t.Optional(sql),
    target_table: t.Optional(targetTable),
    depends_on: t.Optional(dependsOn),
    materialization: t.Optional(Materialization),
    unique_key: t.Optional(t.Nullable(uniqueKey)),
    description: t.Optional(t.Nullable(text({ maxLength: 10_000 }))),
  }),
  TransformResponse: t.Object(transformFields),
  TransformWithDepsResponse: t.Object({ ...transformFields, dependencies: t.Array(NamedRef), dependents: t.Array(NamedRef) }),
  TransformRunResponse,
  DAGResponse: t.Object({
    nodes: t.Array(
      t.Object({
        id: uuid,
        name: t.String(),
        target_table: t.String(),
        materialization: Materialization,
        last_run_status: t.Nullable(RunStatus),
        stale: t.Boolean({
          description: 'An input changed after the last successful run, the definition changed, it never ran, or something upstream is stale',
        }),
      }),
    ),
    edges: t.Array(t.Object({ from: uuid, to: uuid }, { description: '`from` runs before `to`' })),
    order: t.Array(uuid, { description: 'Every transform after its dependencies' }),
  }),
  RunTransformsRequest: t.Object({
    transform_ids: t.Optional(t.Array(uuid, { maxItems: 1_000, description: 'These and everything they depend on; all transforms when absent' })),
    select: t.Optional(text({ minLength: 1, maxLength: 10_000, description: 'dbt-style: `name`, `+name`, `name+`, `+name+`, several separated by spaces' })),
    only_stale: t.Optional(t.Boolean({ default: false, description: 'Of those, only the stale ones' })),
    retry_from: t.Optional(
      t.String({ format: 'uuid', description: 'Run again the failed, skipped and cancelled nodes of this DAG run (other fields are ignored)' }),
    ),
  }),
  RunTransformsResponse: t.Object({
    dag_run_id: uuid,
    status: DagRunStatus,
    order: t.Array(uuid),
    runs: t.Array(TransformRunResponse),
  }),
  DagRunResponse: t.Object({
    dag_run_id: uuid,
    status: DagRunStatus,
    order: t.Array(uuid, { description: 'The transforms the run takes, in that order' }),
    runs: t.Array(TransformRunResponse, { description: 'One per transform of the run, in its order: timing, rows and error of each' }),
    trigger: RunTrigger,
    single: t.Boolean({ description: 'A run of one transform (POST /transforms/{id}/run), not of the DAG' }),
    retry_of: t.Nullable(uuid, { description: 'The DAG run this one retries from its failure' }),
    created_at: time,
    finished_at: t.Nullable(time),
  }),
  TransformScheduleRequest: t.Object({
    schedule: text({ minLength: 1, maxLength: 200, description: 'A 5-field cron in UTC, or `every <duration>` (at least 1m)' }),
  }),
  TransformScheduleResponse: t.Object({
    schedule: t.Nullable(t.String()),
    next_runs: t.Array(time, { description: 'The next times the schedule starts a run (UTC)' }),
    updated_at: t.Nullable(time),
  }),
};

export const workspaceParams = t.Object({ workspace_id: uuid });
export const transformParams = t.Object({ workspace_id: uuid, transform_id: uuid });
export const dagRunParams = t.Object({ workspace_id: uuid, dag_run_id: uuid });
