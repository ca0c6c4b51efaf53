import { namedQuery } from '../store/named-query';

export interface SavedQueryRow {
  id: string;
  workspace_id: string;
  name: string;
  description: string | null;
  sql: string;
  parameters: string;
  created_at: string;
  updated_at: string;
}

type SavedQueryValues = Omit<SavedQueryRow, 'created_at' | 'updated_at'> & { created_by: string | null; now: string };

export const insertSavedQuery = namedQuery<SavedQueryValues>(
  'saved_queries.insert',
  `INSERT INTO saved_queries (id, workspace_id, name, description, sql, parameters, created_by, created_at, updated_at)
   VALUES (:id, :workspace_id, :name, :description, :sql, :parameters, :created_by, :now, :now)`,
);

export const findSavedQuery = namedQuery<{ workspace_id: string; name: string }, SavedQueryRow>(
  'saved_queries.find',
  'SELECT * FROM saved_queries WHERE workspace_id = :workspace_id AND name = :name',
);

export const listSavedQueries = namedQuery<{ workspace_id: string; limit: number; offset: number }, SavedQueryRow>(
  'saved_queries.list',
  'SELECT * FROM saved_queries WHERE workspace_id = :workspace_id ORDER BY name LIMIT :limit OFFSET :offset',
);

export const countSavedQueries = namedQuery<{ workspace_id: string }, { total: number }>(
  'saved_queries.count',
  'SELECT count(*) AS total FROM saved_queries WHERE workspace_id = :workspace_id',
);

export const deleteSavedQuery = namedQuery<{ id: string }>('saved_queries.delete', 'DELETE FROM saved_queries WHERE id = :id');

export const deleteWorkspaceSavedQueries = namedQuery<{ workspace_id: string }>(
  'saved_queries.delete_for_workspace',
  'DELETE FROM saved_queries WHERE workspace_id = :workspace_id',
);
