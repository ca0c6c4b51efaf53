import { Type, type Static } from '@sinclair/typebox';
import { inferColumns } from '../engine/write/infer-schema';
import type { Batch, Connector, ConnectorContext, JsonValue, ReadRequest, StreamInfo, SyncMode } from './connector';
import { fetchJson, type OriginHeaders } from './http-json/fetch-json';
import { firstPage, nextPage, pageUrl, valueAt, type PageState, type Pagination } from './http-json/pagination';
import type { SourceAddress } from './source-address';
import { SourceError } from './source-error';
import { SpecValueError } from './spec-values';

const streamSpec = Type.Object(
  {
    name: Type.String({ pattern: '^[a-z_][a-z0-9_]{0,62}$', description: 'The lake table the records land in' }),
    path: Type.String({
      maxLength: 2048,
      default: '',
      description: 'Relative to base_url; may carry a query string. An absolute URL of another origin is read without the configured headers',
    }),
    records_path: Type.Optional(Type.String({ maxLength: 255, description: 'Dotted path of the records array in the answer (default: the answer itself)' })),
    primary_key: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 16, uniqueItems: true })),
    cursor_field: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: 'A field whose values grow: incremental syncs take records beyond the last one seen' }),
    ),
  },
  { additionalProperties: false },
);

const spec = Type.Object(
  {
    base_url: Type.String({ maxLength: 2048, pattern: '^https?://[^\\s]+$' }),
    headers: Type.Optional(
      Type.Record(Type.String({ pattern: '^[A-Za-z0-9-]{1,64}$' }), Type.String({ maxLength: 1024, pattern: '^[^\\r\\n\\x00]*$' }), {
        description: 'Extra request headers (not secret), sent to the origin of base_url only',
      }),
    ),
    auth_header: Type.Optional(
      Type.Object(
        {
          name: Type.String({ pattern: '^[A-Za-z0-9-]{1,64}$', default: 'Authorization' }),
          value: Type.Optional(
            Type.String({
              maxLength: 4096,
              pattern: '^[^\\r\\n\\x00]*$',
              writeOnly: true,
              description: 'Sealed at rest, shown as ********; sent to the origin of base_url only (cleared when the connection is pointed elsewhere)',
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    pagination: Type.Object(
      {
        style: Type.Union(
          ['none', 'page_number', 'offset', 'cursor', 'link_header'].map((style) => Type.Literal(style)),
          { default: 'none' },
        ),
        page_param: Type.String({ minLength: 1, maxLength: 64, default: 'page' }),
        start_page: Type.Integer({ minimum: 0, maximum: 1, default: 1 }),
        size_param: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        page_size: Type.Integer({ minimum: 1, maximum: 10_000, default: 100 }),
        offset_param: Type.String({ minLength: 1, maxLength: 64, default: 'offset' }),
        limit_param: Type.String({ minLength: 1, maxLength: 64, default: 'limit' }),
        cursor_param: Type.String({ minLength: 1, maxLength: 64, default: 'cursor' }),
        cursor_path: Type.String({ minLength: 1, maxLength: 255, default: 'next_cursor' }),
      },
      { additionalProperties: false, default: {} },
    ),
    streams: Type.Array(streamSpec, { minItems: 1, maxItems: 100 }),
  },
  { additionalProperties: false },
);

type HttpSpec = Static<typeof spec>;
type StreamSpec = Static<typeof streamSpec>;

/** A stream reads at most this many pages: a source that never ends its pagination is stopped. */
const maxPages = 100_000;

/**
 * A REST endpoint answering JSON: an array of records, or one under a path of the answer, over pages
 * numbered, by offset, by a cursor in the answer or by `Link` headers. Records go through the lake
 * writer's record path (types inferred, schema evolved); an incremental sync takes the records whose
 * cursor field is beyond the last value seen.
 */
export const httpJsonConnector: Connector<HttpSpec> = {
  type: 'http_json',
  name: 'HTTP JSON',
  description: 'Records from a REST endpoint answering JSON, with page-number, offset, cursor or Link-header pagination',
  auth: 'none',
  spec,
  engineExtensions: [],
  supportedSyncModes: ['full_refresh_overwrite', 'full_refresh_append', 'incremental_append', 'incremental_append_deduped'],
  supportsLive: false,

  addresses: (settings) => addressesOf(settings),

  async check(context) {
    await firstRecords(context, context.spec.streams[0]!);
  },

  async discover(context) {
    const streams: StreamInfo[] = [];
    for (const stream of context.spec.streams) {
      const records = await firstRecords(context, stream);
      const columns = records.length ? inferColumns(records.slice(0, 1_000)) : [];
      const primaryKey = stream.primary_key ?? [];
      const modes: SyncMode[] = ['full_refresh_overwrite', 'full_refresh_append'];
      if (stream.cursor_field) modes.push('incremental_append');
      if (stream.cursor_field && primaryKey.length) modes.push('incremental_append_deduped');
      streams.push({
        name: stream.name,
        columns: columns.map((column) => ({ name: column.name, type: column.type, nullable: !primaryKey.includes(column.name) })),
        primary_key: primaryKey,
        ...(stream.cursor_field ? { default_cursor_field: stream.cursor_field } : {}),
        cursor_candidates: columns.filter((column) => ['BIGINT', 'DOUBLE', 'DATE', 'TIMESTAMPTZ'].includes(column.type)).map((column) => column.name),
        supported_sync_modes: modes,
      });
    }
    return streams;
  },

  read: (context, request) => readStream(context, request),

  /** Every page of the stream, its records' key fields only: the endpoint has no cheaper way to list them. */
  async keys(context, stream) {
    const records: Record<string, unknown>[] = [];
    const read = readStream(context, { stream: { ...stream, syncMode: 'full_refresh_overwrite' }, position: null, cursor: null, batchRows: 10_000 });
    for await (const batch of read) {
      if (batch.kind === 'records')
        for (const record of batch.records) records.push(Object.fromEntries(stream.primaryKey.map((name) => [name, record[name] ?? null])));
    }
    return { records };
  },
};

async function* readStream(context: ConnectorContext<HttpSpec>, request: ReadRequest): AsyncGenerator<Batch> {
  const stream = context.spec.streams.find((candidate) => candidate.name === request.stream.name);
  if (!stream) throw new SourceError('not_found', `The connection has no stream ${request.stream.name}`);
  const pagination = context.spec.pagination as Pagination;
  const incremental = request.stream.syncMode.startsWith('incremental');
  const cursorField = incremental ? (request.stream.cursorField ?? stream.cursor_field) : undefined;
  if (incremental && !cursorField) throw new SourceError('invalid', `Stream ${stream.name} needs a cursor_field for ${request.stream.syncMode}`);
  const resumed = request.position as { next?: PageState | null } | null;
  let state: PageState | null = resumed ? (resumed.next ?? null) : firstPage(pagination);
  // Records are compared with the cursor the sync started from; the new cursor is the largest value taken.
  const since = (incremental ? request.cursor : null) as string | number | null;
  let cursor = since;
  let batch: Record<string, unknown>[] = [];
  let read = 0;
  let bytes = 0;
  for (let pages = 0; state !== null; pages++) {
    if (pages >= maxPages) throw new SourceError('bad_response', `Stream ${stream.name} has more than ${maxPages} pages`);
    request.signal?.throwIfAborted();
    const page = await fetchJson(pageUrl(streamUrl(context.spec, stream), pagination, state), configuredHeaders(context.spec), context.allow, request.signal);
    const records = recordsOf(page.body, stream);
    read += records.length;
    bytes += JSON.stringify(page.body).length;
    for (const record of records) {
      const value = cursorField === undefined ? undefined : record[cursorField];
      if (cursorField !== undefined && !isBeyond(value, since)) continue;
      if (cursorField !== undefined && isBeyond(value, cursor)) cursor = value as string | number;
      batch.push(record);
    }
    state = nextPage(pagination, state, { ...page, records: records.length });
    if (batch.length >= request.batchRows || state === null) {
      yield {
        kind: 'records',
        records: batch,
        recordsRead: read,
        bytesRead: bytes,
        position: { next: state as JsonValue },
        cursor: incremental ? cursor : null,
      };
      batch = [];
      read = 0;
      bytes = 0;
    }
  }
}

/** A record is beyond the cursor when its value compares greater (numbers as numbers, the rest as text). */
function isBeyond(value: unknown, cursor: string | number | null): boolean {
  if (value === null || value === undefined || (typeof value !== 'string' && typeof value !== 'number')) return false;
  if (cursor === null) return true;
  return typeof value === 'number' && typeof cursor === 'number' ? value > cursor : String(value) > String(cursor);
}

async function firstRecords(context: ConnectorContext<HttpSpec>, stream: StreamSpec): Promise<Record<string, unknown>[]> {
  const pagination = context.spec.pagination as Pagination;
  const page = await fetchJson(
    pageUrl(streamUrl(context.spec, stream), pagination, firstPage(pagination)),
    configuredHeaders(context.spec),
    context.allow,
    context.signal,
  );
  return recordsOf(page.body, stream);
}

/** The base URL and every stream's URL, one per origin: each origin a stream may be read from is checked. */
function addressesOf(settings: HttpSpec): SourceAddress[] {
  const urls = [baseUrl(settings), ...settings.streams.map((stream) => streamUrl(settings, stream))];
  const origins = new Map(urls.map((url) => [url.origin, url]));
  return [...origins.values()].map((url) => ({ kind: 'http', url }));
}

function baseUrl(settings: HttpSpec): URL {
  return httpUrl(() => new URL(settings.base_url.endsWith('/') ? settings.base_url : `${settings.base_url}/`), ['base_url']);
}

/** The stream's URL: `base_url` itself for an empty path (not `base_url/`, another URL), else the path under it. */
function streamUrl(settings: HttpSpec, stream: StreamSpec): URL {
  const index = settings.streams.indexOf(stream);
  const path = stream.path.replace(/^\/+/, '');
  return httpUrl(() => (path === '' ? new URL(settings.base_url) : new URL(path, baseUrl(settings))), ['streams', index, 'path']);
}

/** A URL the service can request (http or https with a host), or a SpecValueError at the field. */
function httpUrl(parse: () => URL, path: (string | number)[]): URL {
  let url: URL | undefined;
  try {
    url = parse();
  } catch {
    // Reported below.
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
    throw new SpecValueError({ path, msg: 'Input should be an http or https URL with a host', type: 'url_parsing' });
  }
  return url;
}

/** The configured headers and the auth header, for the origin of base_url alone. */
function configuredHeaders(settings: HttpSpec): OriginHeaders {
  const auth = settings.auth_header?.value === undefined ? {} : { [settings.auth_header.name]: settings.auth_header.value };
  return { origin: baseUrl(settings).origin, headers: { ...settings.headers, ...auth } };
}

function recordsOf(body: unknown, stream: StreamSpec): Record<string, unknown>[] {
  const records = valueAt(body, stream.records_path);
  if (!Array.isArray(records))
    throw new SourceError('bad_response', `The answer has no array of records${stream.records_path ? ` at ${stream.records_path}` : ''}`);
  if (!records.every((record) => record !== null && typeof record === 'object' && !Array.isArray(record)))
    throw new SourceError('bad_response', 'Every record must be a JSON object');
  return records as Record<string, unknown>[];
}
