import { t } from 'elysia';
import { syncModes } from '../../connectors/connector';
import { documentedAs } from '../openapi/documented-schema';
import { text } from '../text';

const SyncMode = t.Union([t.Literal(syncModes[0]), t.Literal(syncModes[1]), t.Literal(syncModes[2]), t.Literal(syncModes[3])], {
  description:
    'full_refresh_overwrite (the table replaced in one snapshot), full_refresh_append, incremental_append, incremental_append_deduped (upsert on the primary key)',
});
const SyncJobStatus = t.Union([t.Literal('pending'), t.Literal('running'), t.Literal('succeeded'), t.Literal('failed'), t.Literal('cancelled')]);
const QueryMode = t.Union([t.Literal('synced'), t.Literal('live')], {
  description: 'synced: copied into the lake; live: read in place at query time (postgres)',
});
// Checked by the service against the type's own schema: an object schema here would let Elysia reshape a string into one.
const Spec = documentedAs(t.Unknown(), {
  type: 'object',
  additionalProperties: true,
  description: "The type's settings, as its spec_schema (GET /connections/available-types) says; secrets read ********",
});
const schedule = t.Nullable(
  text({ minLength: 1, maxLength: 128, description: 'null (manual), `every <duration>` (every 15m, every 1h) or a 5-field cron in UTC' }),
);
const ConfiguredStream = t.Object({
  name: text({ minLength: 1, maxLength: 255 }),
  sync_mode: t.Optional(SyncMode),
  cursor_field: t.Optional(text({ minLength: 1, maxLength: 255 })),
  primary_key: t.Optional(t.Array(text({ minLength: 1, maxLength: 255 }), { maxItems: 16 })),
});
const Column = t.Object({ name: t.String(), type: t.String({ description: 'DuckDB type name, as in the lake' }), nullable: t.Boolean() });
const SchemaChange = t.Object({
  table: t.String(),
  column: t.String(),
  change: t.Union([t.Literal('added'), t.Literal('widened'), t.Literal('retyped'), t.Literal('dropped')]),
  from: t.Optional(t.String()),
  to: t.Optional(t.String()),
});
const StreamStatus = t.Union(
  [t.Literal('pending'), t.Literal('running'), t.Literal('succeeded'), t.Literal('failed'), t.Literal('cancelled'), t.Literal('skipped')],
  {
    description:
      'skipped: the credentials cannot read the stream (a missing scope, an object absent or not permitted); `reason` says which. The job succeeds when every stream that could be read succeeded.',
  },
);
const DeletionMode = t.Union([t.Literal('delete'), t.Literal('mark')], {
  description: 'What a record deleted at the source does to its lake row: delete removes it (default); mark keeps it with `_deleted_at` set',
});
const KeyComparison = t.Nullable(
  text({
    minLength: 2,
    maxLength: 16,
    description:
      'How often streams in incremental_append_deduped read by a cursor list every key of the source and delete (or mark) the rows whose key is gone: a duration of 1h or more (24h, 7d); null: never',
  }),
);
const SyncJobStream = t.Object({
  name: t.String(),
  status: StreamStatus,
  sync_mode: t.String(),
  records_read: t.Integer(),
  records_written: t.Integer(),
  records_deleted: t.Optional(t.Integer({ description: 'Rows deleted (or marked) because their record was deleted at the source' })),
  bytes_read: t.Integer({ description: 'Bytes read from the source; estimated from the rows and columns when the source keeps no statistics' }),
  reason: t.Optional(t.String({ description: 'Why the stream was skipped' })),
  error: t.Optional(t.String()),
});
const SyncJobResponse = t.Object({
  id: t.String({ format: 'uuid' }),
  connection_id: t.String({ format: 'uuid' }),
  connection_name: t.String(),
  workflow_id: t.String(),
  status: SyncJobStatus,
  trigger: t.Union([t.Literal('manual'), t.Literal('schedule'), t.Literal('oauth')]),
  streams: t.Array(SyncJobStream),
  current_stream: t.Optional(t.Nullable(t.String({ description: 'While the job runs: the stream being read now' }))),
  records_read: t.Optional(t.Integer()),
  records_written: t.Integer(),
  bytes_read: t.Optional(t.Integer()),
  schema_changes: t.Array(SchemaChange, { description: 'Columns added and types widened in the lake tables' }),
  created_at: t.String({ format: 'date-time' }),
  started_at: t.Nullable(t.String({ format: 'date-time' })),
  finished_at: t.Nullable(t.String({ format: 'date-time' })),
  duration_ms: t.Nullable(t.Integer()),
  error: t.Nullable(t.Object({ code: t.String(), message: t.String() })),
  snapshot_id: t.Nullable(t.Integer({ description: 'The lake snapshot after the sync' })),
});

export const connectionModels = {
  SyncMode,
  ConfiguredStream,
  CreateConnectionRequest: t.Object({
    name: text({
      minLength: 1,
      maxLength: 63,
      description: 'The lake schema its streams land in: letters, digits, underscores; unique in the workspace; folded to lower case',
    }),
    connector_type: text({ minLength: 1, maxLength: 64 }),
    spec: Spec,
    sync_schedule: t.Optional(schedule),
    query_mode: t.Optional(QueryMode),
    deletion_mode: t.Optional(DeletionMode),
    key_comparison_every: t.Optional(KeyComparison),
    streams: t.Optional(
      t.Nullable(
        t.Array(ConfiguredStream, {
          maxItems: 1_000,
          description:
            'The streams to sync and how; null: every stream, full_refresh_overwrite. An incremental mode needs a cursor_field unless the source has its own (422 names the candidates)',
        }),
      ),
    ),
  }),
  UpdateConnectionRequest: t.Object({
    name: t.Optional(text({ minLength: 1, maxLength: 63, description: 'Cannot change' })),
    connector_type: t.Optional(text({ minLength: 1, maxLength: 64, description: 'Cannot change' })),
    spec: t.Optional(Spec),
    sync_schedule: t.Optional(schedule),
    query_mode: t.Optional(QueryMode),
    deletion_mode: t.Optional(DeletionMode),
    key_comparison_every: t.Optional(KeyComparison),
    streams: t.Optional(t.Nullable(t.Array(ConfiguredStream, { maxItems: 1_000 }))),
    status: t.Optional(t.Union([t.Literal('active'), t.Literal('paused')], { description: 'paused: the schedule starts nothing' })),
  }),
  ConnectionResponse: t.Object({
    id: t.String({ format: 'uuid' }),
    workspace_id: t.String({ format: 'uuid' }),
    name: t.String(),
    connector_type: t.String(),
    spec: t.Record(t.String(), t.Unknown()),
    schema_name: t.String(),
    sync_schedule: t.Nullable(t.String()),
    next_runs: t.Array(t.String({ format: 'date-time' }), { description: 'The next times the schedule starts a sync (UTC); empty when paused or manual' }),
    query_mode: QueryMode,
    deletion_mode: DeletionMode,
    key_comparison_every: t.Nullable(t.String()),
    status: t.Union([t.Literal('active'), t.Literal('paused'), t.Literal('needs_reauth')]),
    streams: t.Nullable(t.Array(ConfiguredStream)),
    last_sync_at: t.Nullable(t.String({ format: 'date-time' })),
    last_sync_status: t.Nullable(SyncJobStatus),
    created_at: t.String({ format: 'date-time' }),
    updated_at: t.String({ format: 'date-time' }),
  }),
  ConnectorTypeInfo: t.Object({
    type: t.String(),
    name: t.String(),
    description: t.String(),
    auth: t.Union([t.Literal('none'), t.Literal('oauth')]),
    configured: t.Boolean(),
    spec_schema: t.Record(t.String(), t.Unknown(), { description: 'JSON Schema of the spec; writeOnly fields are secrets' }),
    supported_sync_modes: t.Array(SyncMode),
    supports_live: t.Boolean(),
  }),
  StreamInfo: t.Object({
    name: t.String(),
    columns: t.Array(Column),
    primary_key: t.Array(t.String()),
    cursor_candidates: t.Array(t.String()),
    source_defined_cursor: t.Optional(t.Boolean({ description: 'The source keeps its own modification stamp, used as the cursor (default_cursor_field)' })),
    default_cursor_field: t.Optional(t.String()),
    supported_sync_modes: t.Array(SyncMode),
    row_estimate: t.Optional(t.Integer()),
    status: t.Union([t.Literal('available'), t.Literal('unavailable')], { description: 'unavailable: the credentials cannot read it; a sync skips it' }),
    reason: t.Optional(t.String()),
  }),
  TestConnectionResponse: t.Object({ success: t.Boolean(), message: t.String(), latency_ms: t.Integer() }),
  TriggerSyncRequest: t.Object({
    streams: t.Optional(t.Array(text({ minLength: 1, maxLength: 255 }), { minItems: 1, maxItems: 1_000, description: 'Only these streams' })),
    sync_mode: t.Optional(t.Record(t.String(), SyncMode, { description: 'A mode per stream for this sync' })),
    full_refresh: t.Optional(t.Boolean({ description: 'Every stream as full_refresh_overwrite, cursors started afresh' })),
  }),
  TriggerSyncResponse: t.Object({
    job_id: t.String({ format: 'uuid' }),
    status: t.Literal('pending'),
    connection_id: t.String({ format: 'uuid' }),
    workflow_id: t.String(),
  }),
  SyncJobResponse,
  SyncStateResponse: t.Object({
    stream: t.String(),
    sync_mode: t.String(),
    cursor_field: t.Nullable(t.String()),
    cursor_value: t.Unknown({ description: 'The cursor the next incremental sync starts after (as the source reads it back); null: from the start' }),
    primary_key: t.Array(t.String()),
    records_total: t.Integer(),
    last_job_id: t.Nullable(t.String({ format: 'uuid' })),
    last_synced_at: t.Nullable(t.String({ format: 'date-time' })),
    status: t.String({ description: 'running, succeeded, failed, cancelled or skipped (with reason)' }),
    reason: t.Optional(t.String()),
  }),
  PreviewRequest: t.Object({
    stream: text({ minLength: 1, maxLength: 255 }),
    limit: t.Optional(t.Integer({ minimum: 1, maximum: 100, default: 10 })),
  }),
  PreviewResponse: t.Object({
    stream: t.String(),
    columns: t.Array(t.Object({ name: t.String(), type: t.String() })),
    rows: t.Array(t.Array(t.Unknown())),
    row_count: t.Integer(),
  }),
};

export const connectionParams = t.Object({ workspace_id: t.String({ format: 'uuid' }), connection_id: t.String({ format: 'uuid' }) });
export const syncJobParams = t.Object({
  workspace_id: t.String({ format: 'uuid' }),
  connection_id: t.String({ format: 'uuid' }),
  job_id: t.String({ format: 'uuid' }),
});
