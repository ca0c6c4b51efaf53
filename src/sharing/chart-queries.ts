import { namedQuery } from '../store/named-query';

export interface ChartRow {
  id: string;
  workspace_id: string;
  name: string;
  title: string;
  description: string | null;
  sql: string | null;
  saved_query: string | null;
  parameters: string;
  chart_type: string;
  config: string;
  created_at: string;
  updated_at: string;
}

type ChartValues = Omit<ChartRow, 'created_at' | 'updated_at'> & { now: string };

export const insertChart = namedQuery<ChartValues & { created_by: string | null }>(
  'charts.insert',
  `INSERT INTO charts (id, workspace_id, name, title, description, sql, saved_query, parameters, chart_type, config, created_by, created_at, updated_at)
   VALUES (:id, :workspace_id, :name, :title, :description, :sql, :saved_query, :parameters, :chart_type, :config, :created_by, :now, :now)`,
);

export const updateChart = namedQuery<ChartValues>(
  'charts.update',
  `UPDATE charts SET name = :name, title = :title, description = :description, sql = :sql, saved_query = :saved_query, parameters = :parameters,
     chart_type = :chart_type, config = :config, updated_at = :now
   WHERE id = :id AND workspace_id = :workspace_id`,
);

export const findChart = namedQuery<{ workspace_id: string; name: string }, ChartRow>(
  'charts.find',
  'SELECT * FROM charts WHERE workspace_id = :workspace_id AND name = :name',
);

export const listCharts = namedQuery<{ workspace_id: string; limit: number; offset: number }, ChartRow>(
  'charts.list',
  'SELECT * FROM charts WHERE workspace_id = :workspace_id ORDER BY name LIMIT :limit OFFSET :offset',
);

export const countCharts = namedQuery<{ workspace_id: string }, { total: number }>(
  'charts.count',
  'SELECT count(*) AS total FROM charts WHERE workspace_id = :workspace_id',
);

/** The charts that read a saved query: it cannot be deleted while they do. */
export const chartsReadingSavedQuery = namedQuery<{ workspace_id: string; saved_query: string }, { name: string }>(
  'charts.reading_saved_query',
  'SELECT name FROM charts WHERE workspace_id = :workspace_id AND saved_query = :saved_query ORDER BY name',
);

export const deleteChart = namedQuery<{ id: string }>('charts.delete', 'DELETE FROM charts WHERE id = :id');

export const deleteWorkspaceCharts = namedQuery<{ workspace_id: string }>(
  'charts.delete_for_workspace',
  'DELETE FROM charts WHERE workspace_id = :workspace_id',
);
