import { namedQuery } from '../../store/named-query';
import type { Queryable } from '../../store/store';
import type { TableName } from '../write/table-name';

const findTableKey = namedQuery<{ workspace_id: string; schema_name: string; table_name: string }, { primary_key: string | null; created_at: string }>(
  'lake_tables.find',
  'SELECT primary_key, created_at FROM lake_tables WHERE workspace_id = :workspace_id AND schema_name = :schema_name AND table_name = :table_name',
);

const upsertTable = namedQuery<{ workspace_id: string; schema_name: string; table_name: string; primary_key: string | null; now: string }>(
  'lake_tables.upsert',
  `INSERT INTO lake_tables (workspace_id, schema_name, table_name, primary_key, created_at, updated_at)
   VALUES (:workspace_id, :schema_name, :table_name, :primary_key, :now, :now)
   ON CONFLICT (workspace_id, schema_name, table_name) DO UPDATE SET primary_key = excluded.primary_key, created_at = excluded.created_at, updated_at = excluded.updated_at`,
);

const touchTable = namedQuery<{ workspace_id: string; schema_name: string; table_name: string; now: string }>(
  'lake_tables.touch',
  'UPDATE lake_tables SET updated_at = :now WHERE workspace_id = :workspace_id AND schema_name = :schema_name AND table_name = :table_name',
);

const forgetTable = namedQuery<{ workspace_id: string; schema_name: string; table_name: string }>(
  'lake_tables.delete',
  'DELETE FROM lake_tables WHERE workspace_id = :workspace_id AND schema_name = :schema_name AND table_name = :table_name',
);

export const deleteWorkspaceTables = namedQuery<{ workspace_id: string }>(
  'lake_tables.delete_for_workspace',
  'DELETE FROM lake_tables WHERE workspace_id = :workspace_id',
);

/** The per-table facts the service keeps beside the lake catalog (the primary key). */
export class TableRegistry {
  constructor(private readonly db: Queryable) {}

  async primaryKey(workspaceId: string, name: TableName): Promise<string[] | null | undefined> {
    const row = await this.db.first(findTableKey, params(workspaceId, name));
    if (!row) return undefined;
    return row.primary_key === null ? null : (JSON.parse(row.primary_key) as string[]);
  }

  /** Records a table the lake has just created (or re-created after a drop). */
  async created(workspaceId: string, name: TableName, primaryKey: string[], now: string): Promise<void> {
    await this.db.run(upsertTable, { ...params(workspaceId, name), primary_key: primaryKey.length ? JSON.stringify(primaryKey) : null, now });
  }

  async written(workspaceId: string, name: TableName, now: string): Promise<void> {
    await this.db.run(touchTable, { ...params(workspaceId, name), now });
  }

  async dropped(workspaceId: string, name: TableName): Promise<void> {
    await this.db.run(forgetTable, params(workspaceId, name));
  }
}

function params(workspaceId: string, name: TableName) {
  return { workspace_id: workspaceId, schema_name: name.schema, table_name: name.table };
}
