import { Type, type Static } from '@sinclair/typebox';
import type { Batch, ColumnInfo, Connector, ConnectorContext, DeletedRecord, JsonValue, ReadRequest, StreamInfo } from './connector';
import { CrmApi } from './crm/crm-api';
import { crmConnectorTraits } from './crm/crm-connector';
import { SourceError } from './source-error';

const objectTypes = ['contacts', 'companies', 'deals', 'tickets'] as const;
type ObjectType = (typeof objectTypes)[number];

const spec = Type.Object(
  {
    objects: Type.Array(Type.Union(objectTypes.map((name) => Type.Literal(name))), {
      minItems: 1,
      uniqueItems: true,
      default: [...objectTypes],
      description: 'The CRM objects synced, each into a table of its name',
    }),
    page_size: Type.Integer({ minimum: 1, maximum: 100, default: 100, description: 'Records per request (HubSpot allows 100 at most)' }),
  },
  { additionalProperties: false },
);

type HubSpotSpec = Static<typeof spec>;

interface Property {
  name: string;
  type: string;
}

interface HubSpotObject {
  id: string;
  properties?: Record<string, string | null>;
  createdAt?: string;
  updatedAt?: string;
  archived?: boolean;
  archivedAt?: string;
}

interface ObjectPage {
  results?: HubSpotObject[];
  paging?: { next?: { after?: string } };
}

/**
 * Where a read goes on: listing all records, or searching those modified since a time (incremental),
 * then, for an incremental read, listing the archived records (HubSpot's deleted ones) to delete them.
 */
type Position =
  | { list: { after: string | null } }
  | { search: { since: string; after: string | null; inclusive: boolean } }
  | { archived: { since: string; after: string | null } }
  | { done: true };

/** The property an object's search filters and sorts on to find what changed (contacts name it differently). */
const modifiedProperty: Record<ObjectType, string> = {
  contacts: 'lastmodifieddate',
  companies: 'hs_lastmodifieddate',
  deals: 'hs_lastmodifieddate',
  tickets: 'hs_lastmodifieddate',
};

/** HubSpot's search answers at most this many results per query: a longer one restarts from the last time seen. */
const searchWindow = 10_000;

const fixedColumns: ColumnInfo[] = [
  { name: 'id', type: 'VARCHAR', nullable: false },
  { name: 'created_at', type: 'TIMESTAMPTZ', nullable: true },
  { name: 'updated_at', type: 'TIMESTAMPTZ', nullable: true },
  { name: 'archived', type: 'BOOLEAN', nullable: true },
];

/**
 * HubSpot's CRM objects through the CRM v3 API: the properties of each object type discovered, its
 * records listed with `after` paging, and an incremental sync searching for the records modified
 * after the last modification stamp seen (`hs_lastmodifieddate`, `lastmodifieddate` for contacts: the
 * source's own cursor), deduplicated on the object id, then listing the records archived since then
 * (HubSpot's deletions), which the lake deletes or marks. An object the token has no scope for
 * (403 MISSING_SCOPES) is offered as unavailable and skipped by syncs.
 */
export const hubspotConnector: Connector<HubSpotSpec> = {
  type: 'hubspot',
  name: 'HubSpot',
  description: 'HubSpot CRM contacts, companies, deals and tickets, authorized through OAuth 2.0',
  ...crmConnectorTraits,
  spec,

  async check(context) {
    await apiOf(context).json({ path: `crm/v3/objects/${context.spec.objects[0]}`, query: { limit: '1', archived: 'false' } });
  },

  async discover(context) {
    const api = apiOf(context);
    const streams: StreamInfo[] = [];
    for (const object of context.spec.objects) {
      const cursor = modifiedProperty[object];
      const base = {
        name: object,
        primary_key: ['id'],
        cursor_candidates: [cursor],
        source_defined_cursor: true,
        default_cursor_field: cursor,
        supported_sync_modes: [...hubspotConnector.supportedSyncModes],
      };
      try {
        const properties = await propertiesOf(api, object);
        streams.push({
          ...base,
          columns: [
            ...fixedColumns,
            ...properties
              .filter((property) => !isFixed(property.name))
              .map((property) => ({ name: property.name, type: columnType(property.type), nullable: true })),
          ],
        });
      } catch (error) {
        // A token without this object's scope reads the others: the stream is offered as unavailable, and skipped.
        if (!(error instanceof SourceError && error.failure === 'not_permitted')) throw error;
        streams.push({ ...base, columns: fixedColumns, unavailable: `The token lacks the scope to read ${object} (${error.message})` });
      }
    }
    return streams;
  },

  read: (context, request) => readObjects(context, request),
};

async function* readObjects(context: ConnectorContext<HubSpotSpec>, request: ReadRequest): AsyncGenerator<Batch> {
  const object = context.spec.objects.find((candidate) => candidate === request.stream.name);
  if (!object) throw new SourceError('not_found', `The connection has no stream ${request.stream.name}`);
  const api = apiOf(context, request.signal);
  const properties = await propertiesOf(api, object);
  const types = new Map(properties.map((property) => [property.name, property.type]));
  const incremental = request.stream.syncMode.startsWith('incremental');
  const since = incremental && typeof request.cursor === 'string' ? request.cursor : null;
  let position: Position = (request.position as Position | null) ?? (since ? { search: { since, after: null, inclusive: false } } : { list: { after: null } });
  let cursor: string | null = since;
  let batch: Record<string, unknown>[] = [];
  let deleted: DeletedRecord[] = [];
  let bytes = 0;
  while (!('done' in position)) {
    request.signal?.throwIfAborted();
    const page = (await fetchPage(api, object, properties, position, context.spec.page_size)) as ObjectPage;
    const results = page.results ?? [];
    bytes += JSON.stringify(page).length;
    if ('archived' in position) deleted.push(...archivedSince(results, position.archived.since));
    else {
      for (const result of results) {
        const record = flatten(result, types);
        const modified = modifiedAt(record, object);
        if (modified !== null && (cursor === null || modified > cursor)) cursor = modified;
        batch.push(record);
      }
    }
    position = nextPosition(position, page, results, cursor, since);
    if (batch.length + deleted.length >= request.batchRows || 'done' in position) {
      yield {
        kind: 'records',
        records: batch,
        recordsRead: batch.length,
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

/** A record's modification stamp (`hs_lastmodifieddate`, `lastmodifieddate` for contacts), else its `updated_at`. */
function modifiedAt(record: Record<string, unknown>, object: ObjectType): string | null {
  const value = record[modifiedProperty[object]] ?? record.updated_at;
  return typeof value === 'string' ? new Date(Date.parse(value)).toISOString() : null;
}

/** Archived records of a page that were archived since the read's cursor (earlier ones were never synced, or are gone already). */
function archivedSince(results: HubSpotObject[], since: string): DeletedRecord[] {
  return results.flatMap((result) => {
    const at = result.archivedAt ?? result.updatedAt;
    return at !== undefined && Date.parse(at) >= Date.parse(since) ? [{ key: { id: result.id }, deletedAt: new Date(Date.parse(at)).toISOString() }] : [];
  });
}

function fetchPage(api: CrmApi, object: ObjectType, properties: Property[], position: Exclude<Position, { done: true }>, pageSize: number): Promise<unknown> {
  const names = properties.map((property) => property.name);
  if ('archived' in position) {
    const query: Record<string, string> = { limit: String(pageSize), archived: 'true' };
    if (position.archived.after) query.after = position.archived.after;
    return api.json({ path: `crm/v3/objects/${object}`, query });
  }
  if ('list' in position) {
    const query: Record<string, string> = { limit: String(pageSize), archived: 'false', properties: names.join(',') };
    if (position.list.after) query.after = position.list.after;
    return api.json({ path: `crm/v3/objects/${object}`, query });
  }
  const { since, after, inclusive } = position.search;
  const modified = modifiedProperty[object];
  return api.json({
    method: 'POST',
    path: `crm/v3/objects/${object}/search`,
    body: {
      filterGroups: [{ filters: [{ propertyName: modified, operator: inclusive ? 'GTE' : 'GT', value: String(Date.parse(since)) }] }],
      sorts: [{ propertyName: modified, direction: 'ASCENDING' }],
      properties: names,
      limit: pageSize,
      ...(after ? { after } : {}),
    },
  });
}

/**
 * The page after this one; a search that reaches HubSpot's window starts again at the last time it saw
 * (deduplication removes the overlap). An incremental read ends with the archived records.
 */
function nextPosition(
  position: Exclude<Position, { done: true }>,
  page: ObjectPage,
  results: HubSpotObject[],
  cursor: string | null,
  since: string | null,
): Position {
  const after = page.paging?.next?.after;
  const end: Position = since !== null && !('archived' in position) ? { archived: { since, after: null } } : { done: true };
  if (!after || results.length === 0) return end;
  if ('list' in position) return { list: { after } };
  if ('archived' in position) return { archived: { ...position.archived, after } };
  if (Number(after) >= searchWindow && cursor) {
    if (cursor === position.search.since && position.search.inclusive)
      throw new SourceError('bad_response', `More than ${searchWindow} HubSpot records share the modification time ${cursor}`);
    return { search: { since: cursor, after: null, inclusive: true } };
  }
  return { search: { ...position.search, after } };
}

/** A HubSpot object as a row: its id, times and archived flag, and each property in its own type. */
function flatten(object: HubSpotObject, types: Map<string, string>): Record<string, unknown> {
  const record: Record<string, unknown> = {
    id: object.id,
    created_at: object.createdAt ?? null,
    updated_at: object.updatedAt ?? null,
    archived: object.archived ?? false,
  };
  for (const [name, value] of Object.entries(object.properties ?? {})) {
    if (isFixed(name)) continue;
    record[name] = valueOf(value, types.get(name));
  }
  return record;
}

/** HubSpot sends every property value as a string: numbers and booleans are turned back into theirs. */
function valueOf(value: string | null, type: string | undefined): unknown {
  if (value === null || value === '') return null;
  if (type === 'number') {
    const number = Number(value);
    return Number.isFinite(number) ? number : value;
  }
  if (type === 'bool') return value === 'true';
  return value;
}

function columnType(type: string): string {
  switch (type) {
    case 'number':
      return 'DOUBLE';
    case 'bool':
      return 'BOOLEAN';
    case 'datetime':
      return 'TIMESTAMPTZ';
    case 'date':
      return 'DATE';
    default:
      return 'VARCHAR';
  }
}

function isFixed(name: string): boolean {
  return fixedColumns.some((column) => column.name === name);
}

async function propertiesOf(api: CrmApi, object: ObjectType): Promise<Property[]> {
  const body = (await api.json({ path: `crm/v3/properties/${object}`, query: { archived: 'false' } })) as { results?: { name?: unknown; type?: unknown }[] };
  if (!Array.isArray(body.results)) throw new SourceError('bad_response', `HubSpot answered no properties for ${object}`);
  return body.results.flatMap((property) =>
    typeof property.name === 'string' && /^[a-z0-9_]{1,255}$/.test(property.name) ? [{ name: property.name, type: String(property.type ?? 'string') }] : [],
  );
}

function apiOf(context: ConnectorContext<HubSpotSpec>, signal = context.signal): CrmApi {
  return new CrmApi({ provider: 'HubSpot', credentials: context.credentials, allow: context.allow, signal });
}
