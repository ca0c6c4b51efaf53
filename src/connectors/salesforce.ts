import { Type, type Static } from '@sinclair/typebox';
import type { Batch, ColumnInfo, Connector, ConnectorContext, DeletedRecord, JsonValue, ReadRequest, StreamInfo, SyncMode } from './connector';
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
/** Set on a record in the recycle bin, which queryAll answers with the others. */
const deletedField = 'IsDeleted';

/** Compound fields repeat their parts as fields of their own; binary ones are fetched one record at a time only. */
const skippedTypes = new Set(['address', 'location', 'base64']);

/**
 * Salesforce sObjects through the REST API: each object's fields from `describe`, its records by a
 * SOQL `query` followed through `nextRecordsUrl`, at the `instance_url` its token came with. An
 * incremental sync asks `queryAll` for the records whose `SystemModstamp` (the source's own cursor) is
 * past the last one seen, in that order, deduplicated on `Id`; those with `IsDeleted` (in the recycle
 * bin) are deleted or marked in the lake. An object missing from the org's global describe, or not
 * queryable, is offered as unavailable and skipped. Column names are the field names in lower case.
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
    const visible = await globalDescribe(api, context.spec);
    const streams: StreamInfo[] = [];
    for (const object of context.spec.objects) {
      const unreadable = unreadableReason(visible, object);
      const base = { name: object.toLowerCase(), primary_key: ['id'] };
      if (unreadable) {
        streams.push({
          ...base,
          columns: [],
          cursor_candidates: [],
          supported_sync_modes: ['full_refresh_overwrite', 'full_refresh_append'],
          unavailable: unreadable,
        });
        continue;
      }
      const fields = await fieldsOf(api, context.spec, object);
      const incremental = fields.some((field) => field.name === cursorField);
      const modes: SyncMode[] = [
        'full_refresh_overwrite',
        'full_refresh_append',
        ...(incremental ? (['incremental_append', 'incremental_append_deduped'] as const) : []),
      ];
      streams.push({
        ...base,
        columns: fields.map((field): ColumnInfo => ({ name: field.name.toLowerCase(), type: columnType(field.type), nullable: field.nillable })),
        cursor_candidates: incremental ? [cursorField.toLowerCase()] : [],
        ...(incremental ? { source_defined_cursor: true, default_cursor_field: cursorField.toLowerCase() } : {}),
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
  const unreadable = unreadableReason(await globalDescribe(api, context.spec), object);
  if (unreadable) throw new SourceError('not_permitted', unreadable);
  const fields = await fieldsOf(api, context.spec, object);
  const ordered = fields.some((field) => field.name === cursorField);
  const incremental = request.stream.syncMode.startsWith('incremental');
  if (incremental && !ordered) throw new SourceError('invalid', `${object} has no ${cursorField}: sync it with a full refresh`);
  const since = incremental && typeof request.cursor === 'string' ? request.cursor : null;
  // An incremental read asks queryAll, which also answers the records deleted since (IsDeleted, in the recycle bin).
  const withDeleted = since !== null && fields.some((field) => field.name === deletedField);
  let position = (request.position as Position | null) ?? { query: true };
  let cursor: string | null = since;
  let batch: Record<string, unknown>[] = [];
  let deleted: DeletedRecord[] = [];
  let bytes = 0;
  while (!('done' in position)) {
    request.signal?.throwIfAborted();
    const page = (await ('next' in position
      ? api.json({ path: position.next })
      : api.json({
          path: `services/data/v${context.spec.api_version}/${withDeleted ? 'queryAll' : 'query'}`,
          query: { q: soql(object, fields, ordered, since) },
        }))) as QueryPage;
    if (!Array.isArray(page.records)) throw new SourceError('bad_response', `Salesforce answered a query of ${object} without records`);
    bytes += JSON.stringify(page).length;
    for (const { attributes: _attributes, ...fieldsOfRecord } of page.records) {
      const record = Object.fromEntries(Object.entries(fieldsOfRecord).map(([name, value]) => [name.toLowerCase(), value]));
      const modified = record[cursorField.toLowerCase()];
      if (typeof modified === 'string' && (cursor === null || modified > cursor)) cursor = modified;
      if (record[deletedField.toLowerCase()] === true)
        deleted.push({ key: { id: record.id }, deletedAt: isoTime(typeof modified === 'string' ? modified : new Date().toISOString()) });
      else batch.push(record);
    }
    position = page.done === false && page.nextRecordsUrl ? { next: page.nextRecordsUrl } : { done: true };
    if (batch.length + deleted.length >= request.batchRows || 'done' in position) {
      yield {
        kind: 'records',
        records: batch,
        recordsRead: batch.length + deleted.length,
        bytesRead: bytes,
        deleted,
        position: position as unknown as JsonValue,
        cursor: incremental ? cursor : null,
      };
      batch = [];
      deleted = [];
      bytes = 0;
    }
  }
}

/** Salesforce's `+0000` offsets as ISO 8601 (`Z`), which every reader takes. */
function isoTime(stamp: string): string {
  return new Date(Date.parse(stamp.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'))).toISOString();
}

/** The org's global describe: the sObjects this user can see, and whether each can be queried. */
async function globalDescribe(api: CrmApi, settings: SalesforceSpec): Promise<Map<string, { queryable: boolean }>> {
  const body = (await api.json({ path: `services/data/v${settings.api_version}/sobjects` })) as { sobjects?: { name?: unknown; queryable?: unknown }[] };
  if (!Array.isArray(body.sobjects)) throw new SourceError('bad_response', 'Salesforce answered a global describe without sobjects');
  return new Map(
    body.sobjects.flatMap((sobject) => (typeof sobject.name === 'string' ? [[sobject.name.toLowerCase(), { queryable: sobject.queryable !== false }]] : [])),
  );
}

/** Why the user cannot read an object, if so: absent from the global describe (no such object, or not visible), or not queryable. */
function unreadableReason(visible: Map<string, { queryable: boolean }>, object: string): string | undefined {
  const described = visible.get(object.toLowerCase());
  if (!described) return `${object} is not in the org's global describe: it does not exist or this user may not see it`;
  if (!described.queryable) return `${object} cannot be queried by this user`;
  return undefined;
}

/** The query of a read: every field, oldest change first, past the cursor when there is one. */
function soql(object: string, fields: Field[], ordered: boolean, since: string | null): string {
  if (since !== null && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:?\d{2})$/.test(since))
    throw new SourceError('invalid', `The stored cursor of ${object} is not a Salesforce timestamp`);
  const where = since === null ? '' : ` WHERE ${cursorField} > ${since}`;
  return `SELECT ${fields.map((field) => field.name).join(', ')} FROM ${object}${where}${ordered ? ` ORDER BY ${cursorField} ASC` : ''}`;
}

async function fieldsOf(api: CrmApi, settings: SalesforceSpec, object: string): Promise<Field[]> {
  const body = (await api.json({ path: `services/data/v${settings.api_version}/sobjects/${object}/describe` })) as {
    fields?: { name?: unknown; type?: unknown; nillable?: unknown }[];
    queryable?: unknown;
  };
  if (!Array.isArray(body.fields)) throw new SourceError('bad_response', `Salesforce described ${object} without fields`);
  if (body.queryable === false) throw new SourceError('invalid', `${object} cannot be queried`);
  return body.fields.flatMap((field) =>
    typeof field.name === 'string' && /^[A-Za-z][A-Za-z0-9_]{0,79}$/.test(field.name) && !skippedTypes.has(String(field.type))
      ? [{ name: field.name, type: String(field.type), nillable: field.nillable !== false }]
      : [],
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
