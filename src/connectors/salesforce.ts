import { Type, type Static } from '@sinclair/typebox';
import type { Batch, ColumnInfo, Connector, ConnectorContext, JsonValue, ReadRequest, StreamInfo, SyncMode } from './connector';
import { CrmApi } from './crm/crm-api';
import { crmConnectorTraits } from './crm/crm-connector';
import { SourceError } from './source-error';

const spec = Type.Object(
  {
    objects: Type.Array(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]{0,79}$' }), {
      minItems: 1,
      maxItems: 200,
      uniqueItems: true,
      default: ['Account', 'Contact', 'Opportunity', 'Lead'],
      description: 'The sObjects synced, each into a table of its name in lower case',
    }),
    api_version: Type.String({ pattern: '^\\d{2,3}\\.0$', default: '59.0', description: 'The REST API version the queries use' }),
  },
  { additionalProperties: false },
);

type SalesforceSpec = Static<typeof spec>;

interface Field {
  name: string;
  type: string;
  nillable: boolean;
}

interface QueryPage {
  records?: Record<string, unknown>[];
  done?: boolean;
  nextRecordsUrl?: string;
}

/** The first query of a read, or the `nextRecordsUrl` the last page gave. */
type Position = { query: true } | { next: string } | { done: true };

/** The modification timestamp of every sObject: what an incremental sync filters and orders on. */
const cursorField = 'SystemModstamp';

/** Compound fields repeat their parts as fields of their own; binary ones are fetched one record at a time only. */
const skippedTypes = new Set(['address', 'location', 'base64']);

/**
 * Salesforce sObjects through the REST API: each object's fields from `describe`, its records by a
 * SOQL `query` followed through `nextRecordsUrl`, at the `instance_url` its token came with. An
 * incremental sync asks for the records whose `SystemModstamp` is past the last one seen, in that
 * order, deduplicated on `Id`. Column names are the field names in lower case.
 */
export const salesforceConnector: Connector<SalesforceSpec> = {
  type: 'salesforce',
  name: 'Salesforce',
  description: 'Salesforce sObjects (accounts, contacts, opportunities, leads, custom objects), authorized through OAuth 2.0',
  ...crmConnectorTraits,
  spec,

  async check(context) {
    await apiOf(context).json({ path: `services/data/v${context.spec.api_version}/sobjects/${context.spec.objects[0]}/describe` });
  },

  async discover(context) {
    const api = apiOf(context);
    const streams: StreamInfo[] = [];
    for (const object of context.spec.objects) {
      const fields = await fieldsOf(api, context.spec, object);
      const incremental = fields.some((field) => field.name === cursorField);
      const modes: SyncMode[] = ['full_refresh_overwrite', 'full_refresh_append', ...(incremental ? (['incremental_append', 'incremental_append_deduped'] as const) : [])];
      streams.push({
        name: object.toLowerCase(),
        columns: fields.map((field): ColumnInfo => ({ name: field.name.toLowerCase(), type: columnType(field.type), nullable: field.nillable })),
        primary_key: ['id'],
        cursor_candidates: incremental ? [cursorField.toLowerCase()] : [],
        supported_sync_modes: modes,
      });
    }
    return streams;
  },

  read: (context, request) => readObject(context, request),
};

async function* readObject(context: ConnectorContext<SalesforceSpec>, request: ReadRequest): AsyncGenerator<Batch> {
  const object = context.spec.objects.find((candidate) => candidate.toLowerCase() === request.stream.name);
  if (!object) throw new SourceError('not_found', `The connection has no stream ${request.stream.name}`);
  const api = apiOf(context, request.signal);
  const fields = await fieldsOf(api, context.spec, object);
  const ordered = fields.some((field) => field.name === cursorField);
  const incremental = request.stream.syncMode.startsWith('incremental');
  if (incremental && !ordered) throw new SourceError('invalid', `${object} has no ${cursorField}: sync it with a full refresh`);
  const since = incremental && typeof request.cursor === 'string' ? request.cursor : null;
  let position = (request.position as Position | null) ?? { query: true };
  let cursor: string | null = since;
  let batch: Record<string, unknown>[] = [];
  let bytes = 0;
  while (!('done' in position)) {
    request.signal?.throwIfAborted();
    const page = (await ('next' in position
      ? api.json({ path: position.next })
      : api.json({ path: `services/data/v${context.spec.api_version}/query`, query: { q: soql(object, fields, ordered, since) } }))) as QueryPage;
    if (!Array.isArray(page.records)) throw new SourceError('bad_response', `Salesforce answered a query of ${object} without records`);
    bytes += JSON.stringify(page).length;
    for (const { attributes: _attributes, ...fieldsOfRecord } of page.records) {
      const record = Object.fromEntries(Object.entries(fieldsOfRecord).map(([name, value]) => [name.toLowerCase(), value]));
      const modified = record[cursorField.toLowerCase()];
      if (typeof modified === 'string' && (cursor === null || modified > cursor)) cursor = modified;
      batch.push(record);
    }
    position = page.done === false && page.nextRecordsUrl ? { next: page.nextRecordsUrl } : { done: true };
    if (batch.length >= request.batchRows || 'done' in position) {
      yield { kind: 'records', records: batch, recordsRead: batch.length, bytesRead: bytes, position: position as unknown as JsonValue, cursor: incremental ? cursor : null };
      batch = [];
      bytes = 0;
    }
  }
}

/** The query of a read: every field, oldest change first, past the cursor when there is one. */
function soql(object: string, fields: Field[], ordered: boolean, since: string | null): string {
  if (since !== null && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:?\d{2})$/.test(since)) throw new SourceError('invalid', `The stored cursor of ${object} is not a Salesforce timestamp`);
  const where = since === null ? '' : ` WHERE ${cursorField} > ${since}`;
  return `SELECT ${fields.map((field) => field.name).join(', ')} FROM ${object}${where}${ordered ? ` ORDER BY ${cursorField} ASC` : ''}`;
}

async function fieldsOf(api: CrmApi, settings: SalesforceSpec, object: string): Promise<Field[]> {
  const body = (await api.json({ path: `services/data/v${settings.api_version}/sobjects/${object}/describe` })) as { fields?: { name?: unknown; type?: unknown; nillable?: unknown }[]; queryable?: unknown };
  if (!Array.isArray(body.fields)) throw new SourceError('bad_response', `Salesforce described ${object} without fields`);
  if (body.queryable === false) throw new SourceError('invalid', `${object} cannot be queried`);
  return body.fields.flatMap((field) =>
    typeof field.name === 'string' && /^[A-Za-z][A-Za-z0-9_]{0,79}$/.test(field.name) && !skippedTypes.has(String(field.type)) ? [{ name: field.name, type: String(field.type), nillable: field.nillable !== false }] : [],
  );
}

function columnType(type: string): string {
  switch (type) {
    case 'boolean':
      return 'BOOLEAN';
    case 'int':
      return 'BIGINT';
    case 'double':
    case 'currency':
    case 'percent':
      return 'DOUBLE';
    case 'date':
      return 'DATE';
    case 'datetime':
      return 'TIMESTAMPTZ';
    default:
      return 'VARCHAR';
  }
}

function apiOf(context: ConnectorContext<SalesforceSpec>, signal = context.signal): CrmApi {
  return new CrmApi({ provider: 'Salesforce', credentials: context.credentials, allow: context.allow, signal });
}
