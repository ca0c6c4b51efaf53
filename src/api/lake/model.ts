import { t } from 'elysia';
import { identifierPattern, reservedNamespacePattern, reservedTableNamePattern, tableNamePattern, tableReferencePattern } from '../../engine/write/table-name';
import { documentedAs } from '../openapi/documented-schema';
import { text } from '../text';

/**
 * The rules of a table name and of field names are checked by the push itself, which says which rule
 * failed; the document spells them as patterns so that clients (and generators) know them up front.
 */
const tableName = documentedAs(text({ minLength: 3, maxLength: 127 }), {
  type: 'string',
  minLength: 3,
  maxLength: 127,
  pattern: tableNamePattern,
  not: { pattern: reservedTableNamePattern },
  description: '`<namespace>.<table>`, folded to lower case; namespaces starting with two underscores and those the engine uses are reserved',
});
const PushRecord = documentedAs(t.Object({}), {
  type: 'object',
  additionalProperties: true,
  propertyNames: { minLength: 1, maxLength: 255, pattern: '^[^\\u0000]*$' },
  description: 'One row: field names are column names (case-insensitively distinct), values any JSON',
});
const TableEntry = t.Object({
  name: t.String(),
  schema_name: t.String(),
  row_count: t.Integer(),
  size_bytes: t.Integer(),
  column_count: t.Integer(),
});
const snapshotTime = 'A snapshot’s time, to the microsecond: given back to `FOR SYSTEM_TIME AS OF`, it reads that snapshot';
const TableColumn = t.Object({ name: t.String(), type: t.String({ description: 'DuckDB type name' }), nullable: t.Boolean() });

export const lakeModels = {
  PushRecord,
  PushRequest: t.Object({
    table: tableName,
    // Checked as it stands by the push, which names each record that is no object: an object schema
    // here would let Elysia reshape such a record into one instead of refusing it.
    records: documentedAs(t.Array(t.Unknown(), { minItems: 1 }), {
      type: 'array',
      minItems: 1,
      items: { $ref: '#/components/schemas/PushRecord' },
      description: 'One JSON object per record; the table schema is inferred from them',
    }),
    primary_key: t.Optional(
      t.Array(text({ minLength: 1, maxLength: 255 }), { minItems: 1, uniqueItems: true, description: 'Columns forming the key: the push upserts' }),
    ),
    mode: t.Optional(t.Union([t.Literal('append'), t.Literal('overwrite')], { default: 'append' })),
  }),
  PushResponse: t.Object({ records_written: t.Integer(), table: t.String() }),
  TableSnapshot: t.Object(
    {
      snapshot_id: t.Integer(),
      committed_at: t.String({ format: 'date-time', description: snapshotTime }),
      changes: t.Array(t.String(), { description: '`created`, `inserted`, `deleted`, `altered`, `dropped`, `compacted`…' }),
      message: t.Nullable(t.String({ description: 'The writer’s note, e.g. `push append 100 rows`' })),
      records_written: t.Nullable(t.Integer()),
    },
    { description: 'A snapshot that changed the table since it was last created; `FOR SYSTEM_TIME AS OF` its `committed_at` reads the table as it left it' },
  ),
  TableEntry,
  TablesResponse: t.Object({ tables: t.Array(TableEntry) }),
  TableColumn,
  TableDetailResponse: t.Object({
    name: t.String(),
    schema_name: t.String(),
    table: t.String({ description: '`schema.table`' }),
    row_count: t.Integer(),
    size_bytes: t.Integer(),
    column_count: t.Integer(),
    file_count: t.Integer(),
    columns: t.Array(TableColumn),
    primary_key: t.Nullable(t.Array(t.String())),
    created_at: t.String({ format: 'date-time', description: snapshotTime }),
    updated_at: t.String({ format: 'date-time', description: snapshotTime }),
    current_snapshot: t.Integer(),
    earliest_snapshot_at: t.String({ format: 'date-time', description: `The oldest time \`FOR SYSTEM_TIME AS OF\` can reach. ${snapshotTime}` }),
  }),
};

/** Table names in paths: checked by the table service (which names the rule broken), documented as patterns. */
export const tablePathParams = {
  reference: documentedAs(t.String(), {
    type: 'string',
    pattern: tableReferencePattern,
    not: { pattern: reservedTableNamePattern },
    description: '`schema.table`, or a bare table name in the `main` namespace',
  }),
  namespace: documentedAs(t.String(), { type: 'string', pattern: identifierPattern, not: { pattern: reservedNamespacePattern } }),
  table: documentedAs(t.String(), { type: 'string', pattern: identifierPattern }),
};

/** The push's body: a JSON PushRequest, or an upload (see push-routes.ts), which the route tells apart. */
export const pushBody = documentedAs(t.Unknown(), { $ref: '#/components/schemas/PushRequest' });

/** An upload's table and how it is written; a JSON body names them itself. */
export const pushUploadQuery = t.Object({
  table: t.Optional(
    documentedAs(text({ minLength: 3, maxLength: 127 }), {
      type: 'string',
      minLength: 3,
      maxLength: 127,
      pattern: tableNamePattern,
      description: 'Uploads only (required there): `<namespace>.<table>`',
    }),
  ),
  mode: t.Optional(t.Union([t.Literal('append'), t.Literal('overwrite')], { description: 'Uploads only: `append` (default) or `overwrite`' })),
  primary_key: t.Optional(text({ minLength: 1, maxLength: 10_000, description: 'Uploads only: the key columns, separated by commas' })),
});

export const workspaceQuery = t.Object({
  workspace: t.Optional(text({ minLength: 1, maxLength: 63, description: 'Workspace id or slug; default: your first workspace' })),
});
