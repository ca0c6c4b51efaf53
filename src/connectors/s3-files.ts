import { Type, type Static } from '@sinclair/typebox';
import type { EngineConnection } from '../engine/duckdb/engine-connection';
import { describe } from '../engine/sync/relation-write';
import { createS3SourceSecret } from '../engine/sync/source-attachments';
import { syncModes, type Connector, type ConnectorContext, type StreamInfo, type SyncMode } from './connector';
import { filesAfter, filesSelect, fromStore, globUrl, listFiles, nextBatch, type FilePosition, type StoreRoute } from './s3-files/files';
import { SourceError } from './source-error';
import { SpecValueError } from './spec-values';

const streamSpec = Type.Object(
  {
    name: Type.String({ pattern: '^[a-z_][a-z0-9_]{0,62}$', description: 'The lake table the files land in' }),
    glob: Type.String({ minLength: 1, maxLength: 1024, description: 'Key pattern within the bucket: data/*.csv, logs/**/*.parquet' }),
    format: Type.Union([Type.Literal('csv'), Type.Literal('parquet'), Type.Literal('json'), Type.Literal('ndjson')]),
    primary_key: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 16, uniqueItems: true })),
  },
  { additionalProperties: false },
);

const spec = Type.Object(
  {
    bucket: Type.String({ minLength: 3, maxLength: 63, pattern: '^[a-z0-9][a-z0-9.-]*[a-z0-9]$' }),
    region: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[a-z0-9][a-z0-9-]*$',
      default: 'us-east-1',
      description: 'us-east-1, eu-west-3…: lower-case letters, digits and hyphens',
    }),
    endpoint: Type.Optional(Type.String({ maxLength: 512, pattern: '^https?://[^/?#]+/?$', description: 'An S3-compatible endpoint; AWS when absent' })),
    url_style: Type.Optional(Type.Union([Type.Literal('path'), Type.Literal('vhost')], { description: 'Default: path with an endpoint, vhost on AWS' })),
    access_key_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    secret_access_key: Type.Optional(Type.String({ maxLength: 1024, writeOnly: true, description: 'Sealed at rest, shown as ********' })),
    streams: Type.Array(streamSpec, { minItems: 1, maxItems: 100 }),
  },
  { additionalProperties: false },
);

type S3Spec = Static<typeof spec>;

/** A batch takes at most this many files, or this many bytes of them. */
const maxBatchFiles = 100;
const maxBatchBytes = 256 * 1024 * 1024;

/**
 * CSV, Parquet and JSON files under a glob of a bucket on any S3 API, one stream per glob, read by
 * DuckDB's own readers in the sync instance. Files are taken oldest first; incremental modes read the
 * files modified after the last one read.
 */
export const s3FilesConnector: Connector<S3Spec> = {
  type: 's3_files',
  name: 'S3 files',
  description: 'CSV, Parquet, JSON and NDJSON files under a bucket glob on any S3 API',
  auth: 'none',
  spec,
  engineExtensions: ['httpfs'],
  supportedSyncModes: syncModes,
  supportsLive: false,

  addresses: (settings) => [{ kind: 's3', endpoint: endpointOf(settings), region: settings.region, bucket: settings.bucket }],

  async check(context) {
    const { connection, store } = await withSecret(context);
    await listFiles(connection, globUrl(context.spec.bucket, context.spec.streams[0]!.glob), store);
  },

  async discover(context) {
    const { connection, store } = await withSecret(context);
    const streams: StreamInfo[] = [];
    for (const stream of context.spec.streams) {
      const files = await listFiles(connection, globUrl(context.spec.bucket, stream.glob), store);
      const columns = files.length ? await fromStore(() => describe(connection, filesSelect(files.slice(0, 10), stream.format)), store) : [];
      const primaryKey = stream.primary_key ?? [];
      const modes: SyncMode[] = primaryKey.length ? [...syncModes] : syncModes.filter((mode) => mode !== 'incremental_append_deduped');
      streams.push({
        name: stream.name,
        columns: columns.length ? columns.map((column) => ({ ...column, nullable: !primaryKey.includes(column.name) })) : [],
        primary_key: primaryKey,
        cursor_candidates: ['_source_modified_at'],
        // Files are taken by their modification time, whatever the stream's columns: the source's own cursor.
        source_defined_cursor: true,
        default_cursor_field: '_source_modified_at',
        supported_sync_modes: modes,
      });
    }
    return streams;
  },

  async *read(context, request) {
    const stream = context.spec.streams.find((candidate) => candidate.name === request.stream.name);
    if (!stream) throw new SourceError('not_found', `The connection has no stream ${request.stream.name}`);
    const { connection, store } = await withSecret(context);
    const incremental = request.stream.syncMode.startsWith('incremental');
    const start = (request.position ?? (incremental ? request.cursor : null)) as FilePosition | null;
    let pending = filesAfter(await listFiles(connection, globUrl(context.spec.bucket, stream.glob), store), start);
    while (pending.length > 0) {
      request.signal?.throwIfAborted();
      const files = nextBatch(pending, maxBatchFiles, maxBatchBytes);
      pending = pending.slice(files.length);
      const last = files.at(-1)!;
      const position = { modified: last.modified, url: last.url };
      yield {
        kind: 'relation',
        select: filesSelect(files, stream.format),
        latestFirst: ['_source_modified_at', '_source_file'],
        position,
        cursor: incremental ? position : null,
        bytesRead: files.reduce((total, file) => total + file.size, 0),
      };
    }
  },
};

/**
 * The session's engine with a secret for the bucket (scoped to it), whose requests, redirects
 * included, all go through the egress proxy: DuckDB connects by itself, and only the proxy sees where.
 */
async function withSecret(context: ConnectorContext<S3Spec>): Promise<{ connection: EngineConnection; store: StoreRoute }> {
  const connection = await context.engine();
  const route = await context.egress();
  const { spec: settings } = context;
  const endpoint = endpointOf(settings);
  await createS3SourceSecret(connection, 'source_s3', {
    scope: `s3://${settings.bucket}/`,
    region: settings.region,
    endpoint: endpoint?.host,
    useSsl: endpoint ? endpoint.protocol === 'https:' : true,
    urlStyle: settings.url_style ?? (endpoint ? 'path' : 'vhost'),
    accessKeyId: settings.access_key_id,
    secretAccessKey: settings.secret_access_key,
    proxy: { address: route.proxy, username: route.username, password: route.password },
  });
  return { connection, store: { refusal: () => route.refusal() } };
}

function endpointOf(settings: S3Spec): URL | undefined {
  if (settings.endpoint === undefined) return undefined;
  try {
    return new URL(settings.endpoint);
  } catch {
    throw new SpecValueError({ path: ['endpoint'], msg: 'Input should be an http or https URL with a host', type: 'url_parsing' });
  }
}
