import { t } from 'elysia';

export const lakeModels = {
  PushRequest: t.Object({
    table: t.String({ minLength: 3, maxLength: 127, description: '`<namespace>.<table>`' }),
    records: t.Array(t.Unknown(), { minItems: 1, description: 'One JSON object per record; the table schema is inferred from them' }),
    primary_key: t.Optional(t.Array(t.String({ minLength: 1, maxLength: 255 }), { minItems: 1, description: 'Columns forming the key: the push upserts' })),
    mode: t.Optional(t.Union([t.Literal('append'), t.Literal('overwrite')], { default: 'append' })),
  }),
  PushResponse: t.Object({ records_written: t.Integer(), table: t.String() }),
  TableEntry: t.Object({
    name: t.String(),
    schema_name: t.String(),
    row_count: t.Integer(),
    size_bytes: t.Integer(),
    column_count: t.Integer(),
  }),
  TableDetailResponse: t.Object({
    name: t.String(),
    schema_name: t.String(),
    table: t.String({ description: '`schema.table`' }),
    row_count: t.Integer(),
    size_bytes: t.Integer(),
    column_count: t.Integer(),
    file_count: t.Integer(),
    columns: t.Array(t.Object({ name: t.String(), type: t.String(), nullable: t.Boolean() })),
    primary_key: t.Nullable(t.Array(t.String())),
    created_at: t.String({ format: 'date-time' }),
    updated_at: t.String({ format: 'date-time' }),
    current_snapshot: t.Integer(),
    earliest_snapshot_at: t.String({ format: 'date-time', description: 'The oldest time `FOR SYSTEM_TIME AS OF` can reach' }),
  }),
};

export const tablesResponse = t.Object({ tables: t.Array(lakeModels.TableEntry) });
export const workspaceQuery = t.Object({ workspace: t.Optional(t.String({ minLength: 1, maxLength: 63, description: 'Workspace id or slug; default: your first workspace' })) });
