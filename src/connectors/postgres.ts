import { Type, type Static } from '@sinclair/typebox';
import { attachPostgres, type PostgresSource } from '../engine/sync/source-attachments';
import type { EngineConnection } from '../engine/duckdb/engine-connection';
import { sqlString } from '../engine/sql-literals';
import { syncModes, type Connector, type ConnectorContext, type StreamInfo, type SyncMode } from './connector';
import { pgIdentifier, sourceAlias, sourcePrimaryKeys, sourceRelations, sourceRows, streamName, type SourceRelation } from './postgres/catalog';
import { readRelation } from './postgres/read';
import { fromSource } from './postgres/source-errors';
import { postgresChangeLog } from './postgres/replication/postgres-change-log';
import { SourceError } from './source-error';

const spec = Type.Object(
  {
    host: Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[A-Za-z0-9_:\\[][A-Za-z0-9_.:%\\[\\]-]*$',
      description: 'Host name or address of the server (one host: no list, no socket path)',
    }),
    port: Type.Integer({ minimum: 1, maximum: 65535, default: 5432 }),
    database: Type.String({ minLength: 1, maxLength: 63 }),
    username: Type.String({ minLength: 1, maxLength: 63 }),
    password: Type.String({
      maxLength: 1024,
      writeOnly: true,
      default: '',
      description:
        'Sealed at rest, shown as ********; sent only by SCRAM (a server asking for it in clear text or as MD5 is refused), cleared when the connection is pointed elsewhere',
    }),
    schemas: Type.Array(Type.String({ minLength: 1, maxLength: 63 }), {
      minItems: 1,
      maxItems: 50,
      uniqueItems: true,
      default: ['public'],
      description: 'Schemas whose tables and views are streams',
    }),
    ssl_mode: Type.Union(
      ['disable', 'prefer', 'require', 'verify-ca', 'verify-full'].map((mode) => Type.Literal(mode)),
      { default: 'prefer', description: "libpq's sslmode" },
    ),
    replication_method: Type.Union([Type.Literal('cursor'), Type.Literal('logical')], {
      default: 'cursor',
      description:
        'How incremental_append_deduped streams see changes: cursor (rows whose cursor_field grew; deletes are not seen) or logical (the WAL through a replication slot and publication the service makes per connection, deletes included; needs wal_level=logical, a role with REPLICATION that owns the tables, and a REPLICA IDENTITY carrying each key)',
    }),
  },
  { additionalProperties: false },
);

type PostgresSpec = Static<typeof spec>;

/** The source attached for writing, for the publication of its logical replication only. */
const adminAlias = 'source_admin';

/** Types whose values order rows well enough to be a cursor: numbers, dates and times. */
const cursorTypes = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|DECIMAL.*|DATE|TIMESTAMP.*)$/i;

/**
 * Tables and views of chosen schemas of a Postgres database. Reads run on the source through
 * DuckDB's Postgres extension in the sync's own instance (bulk COPY in binary, not row by row), in
 * batches ordered by an indexed column; a live connection attaches the database read-only to the
 * workspace's query instance.
 */
export const postgresConnector: Connector<PostgresSpec> = {
  type: 'postgres',
  name: 'PostgreSQL',
  description: 'Tables and views of a Postgres database, synced in batches or read live',
  auth: 'none',
  spec,
  engineExtensions: ['postgres_scanner'],
  supportedSyncModes: syncModes,
  supportsLive: true,

  addresses: (settings) => [{ kind: 'postgres', host: settings.host, port: settings.port, database: settings.database }],

  async check(context) {
    const connection = await attached(context);
    await fromSource(() => sourceRows(connection, 'SELECT 1 AS ok'));
  },

  async discover(context) {
    const connection = await attached(context);
    return fromSource(async () => {
      const relations = await sourceRelations(connection, context.spec.schemas);
      const keys = await sourcePrimaryKeys(connection, context.spec.schemas);
      const columns = await duckdbColumns(connection, context.spec.schemas);
      const logical = context.spec.replication_method === 'logical';
      return relations.map((relation) =>
        streamInfo(relation, keys.get(`${relation.schema}.${relation.table}`) ?? [], columns.get(`${relation.schema}.${relation.table}`) ?? [], logical),
      );
    });
  },

  async *read(context, request) {
    const connection = await attached(context);
    const relation = await fromSource(async () =>
      (await sourceRelations(connection, context.spec.schemas)).find((candidate) => candidate.stream === request.stream.name),
    );
    if (!relation) throw new SourceError('not_found', `The source has no table or view for stream ${request.stream.name}`);
    const batches = readRelation(connection, relation, request);
    for (;;) {
      const next = await fromSource(() => batches.next());
      if (next.done) return;
      yield next.value;
    }
  },

  live: (context) => ({ postgres: sourceOf(context), schemas: context.spec.schemas, tableName: streamName }),

  async keys(context, stream) {
    const connection = await attached(context);
    const relation = await fromSource(async () =>
      (await sourceRelations(connection, context.spec.schemas)).find((candidate) => candidate.stream === stream.name),
    );
    if (!relation) throw new SourceError('not_found', `The source has no table or view for stream ${stream.name}`);
    const query = `SELECT ${stream.primaryKey.map(pgIdentifier).join(', ')} FROM ${pgIdentifier(relation.schema)}.${pgIdentifier(relation.table)}`;
    return { relation: `SELECT * FROM postgres_query(${sqlString(sourceAlias)}, ${sqlString(query)})` };
  },

  changeLog: postgresChangeLog<PostgresSpec>({
    source: attached,
    adminAlias,
    admin: async (context) => {
      const connection = await context.engine();
      await fromSource(() => attachPostgres(connection, adminAlias, { ...sourceOf(context), schema: undefined, readOnly: false }));
      return connection;
    },
  }),
};

function sourceOf(context: ConnectorContext<PostgresSpec>): PostgresSource {
  const { spec: settings, checked } = context;
  return {
    host: settings.host,
    hostaddr: checked[0]?.address,
    port: settings.port,
    database: settings.database,
    user: settings.username,
    password: settings.password,
    sslMode: settings.ssl_mode,
    connectTimeoutSeconds: 10,
    schema: settings.schemas.length === 1 ? settings.schemas[0] : undefined,
  };
}

async function attached(context: ConnectorContext<PostgresSpec>): Promise<EngineConnection> {
  const connection = await context.engine();
  await fromSource(() => attachPostgres(connection, sourceAlias, sourceOf(context)));
  return connection;
}

/** Column types as DuckDB reads them from the source (what lands in the lake), by `schema.table`. */
async function duckdbColumns(connection: EngineConnection, schemas: string[]): Promise<Map<string, { name: string; type: string; nullable: boolean }[]>> {
  const rows = await connection.read(
    `SELECT schema_name, table_name, column_name, data_type, is_nullable FROM system.main.duckdb_columns()
     WHERE database_name = ${sqlString(sourceAlias)} AND schema_name IN (${schemas.map(sqlString).join(', ')}) ORDER BY schema_name, table_name, column_index`,
  );
  const columns = new Map<string, { name: string; type: string; nullable: boolean }[]>();
  for (const row of rows.getRowObjectsJS()) {
    const key = `${row.schema_name}.${row.table_name}`;
    columns.set(key, [...(columns.get(key) ?? []), { name: String(row.column_name), type: String(row.data_type), nullable: row.is_nullable === true }]);
  }
  return columns;
}

/** A table with a key on a logically replicating connection reads its changes from the WAL: no cursor needed. */
function streamInfo(
  relation: SourceRelation,
  primaryKey: string[],
  columns: { name: string; type: string; nullable: boolean }[],
  logical: boolean,
): StreamInfo {
  const cursorCandidates = columns.filter((column) => cursorTypes.test(column.type)).map((column) => column.name);
  const fromLog = logical && relation.replicable && primaryKey.length > 0;
  const modes: SyncMode[] = ['full_refresh_overwrite', 'full_refresh_append'];
  if (cursorCandidates.length) modes.push('incremental_append');
  if ((cursorCandidates.length || fromLog) && primaryKey.length) modes.push('incremental_append_deduped');
  const keyColumns = new Set(primaryKey);
  return {
    name: relation.stream,
    columns: columns.map((column) => ({ ...column, nullable: column.nullable && !keyColumns.has(column.name) })),
    primary_key: primaryKey,
    cursor_candidates: cursorCandidates,
    supported_sync_modes: modes,
    ...(fromLog ? { source_defined_cursor: true } : {}),
    ...(relation.rowEstimate === undefined ? {} : { row_estimate: relation.rowEstimate }),
  };
}
