import { namedQuery } from '../store/named-query';

export interface PageRow {
  id: string;
  workspace_id: string;
  name: string;
  title: string;
  description: string | null;
  blocks: string;
  created_at: string;
  updated_at: string;
}

type PageValues = Omit<PageRow, 'created_at' | 'updated_at'> & { now: string };

export const insertPage = namedQuery<PageValues & { created_by: string | null }>(
  'pages.insert',
  `INSERT INTO pages (id, workspace_id, name, title, description, blocks, created_by, created_at, updated_at)
   VALUES (:id, :workspace_id, :name, :title, :description, :blocks, :created_by, :now, :now)`,
);

export const updatePage = namedQuery<PageValues>(
  'pages.update',
  'UPDATE pages SET name = :name, title = :title, description = :description, blocks = :blocks, updated_at = :now WHERE id = :id AND workspace_id = :workspace_id',
);

export const findPage = namedQuery<{ workspace_id: string; name: string }, PageRow>(
  'pages.find',
  'SELECT * FROM pages WHERE workspace_id = :workspace_id AND name = :name',
);

export const findPageById = namedQuery<{ id: string }, PageRow>('pages.find_by_id', 'SELECT * FROM pages WHERE id = :id');

export const listPages = namedQuery<{ workspace_id: string; limit: number; offset: number }, PageRow>(
  'pages.list',
  'SELECT * FROM pages WHERE workspace_id = :workspace_id ORDER BY name LIMIT :limit OFFSET :offset',
);

export const countPages = namedQuery<{ workspace_id: string }, { total: number }>(
  'pages.count',
  'SELECT count(*) AS total FROM pages WHERE workspace_id = :workspace_id',
);

/** Every page of the workspace with its blocks, to find those that show a chart (pages are few per workspace). */
export const listPageBlocks = namedQuery<{ workspace_id: string }, { name: string; blocks: string }>(
  'pages.list_blocks',
  'SELECT name, blocks FROM pages WHERE workspace_id = :workspace_id ORDER BY name',
);

export const deletePage = namedQuery<{ id: string }>('pages.delete', 'DELETE FROM pages WHERE id = :id');

export const deleteWorkspacePages = namedQuery<{ workspace_id: string }>('pages.delete_for_workspace', 'DELETE FROM pages WHERE workspace_id = :workspace_id');
