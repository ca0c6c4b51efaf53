import type { ChartRow } from './chart-queries';
import { namedQuery } from '../store/named-query';

export type PublishedKind = 'chart' | 'page';

export interface PublicationRow {
  id: string;
  workspace_id: string;
  kind: PublishedKind;
  object_id: string;
  token_hash: string;
  parameters: string;
  expires_at: string | null;
  published_at: string;
}

/** Publishing again replaces the link: the new token's digest overwrites the old one's, which stops working at once. */
export const upsertPublication = namedQuery<Omit<PublicationRow, 'published_at'> & { now: string }>(
  'publications.upsert',
  `INSERT INTO publications (id, workspace_id, kind, object_id, token_hash, parameters, expires_at, published_at)
   VALUES (:id, :workspace_id, :kind, :object_id, :token_hash, :parameters, :expires_at, :now)
   ON CONFLICT (kind, object_id) DO UPDATE SET token_hash = excluded.token_hash, parameters = excluded.parameters,
     expires_at = excluded.expires_at, published_at = excluded.published_at`,
);

export const findPublication = namedQuery<{ kind: PublishedKind; object_id: string }, PublicationRow>(
  'publications.find',
  'SELECT * FROM publications WHERE kind = :kind AND object_id = :object_id',
);

export const findPublicationByToken = namedQuery<{ token_hash: string }, PublicationRow>(
  'publications.find_by_token',
  'SELECT * FROM publications WHERE token_hash = :token_hash',
);

/** A chart's live link and the chart, in one indexed read: what every view of a public chart needs. */
export type ChartLinkRow = ChartRow & { publication_id: string; kind: PublishedKind; locked_parameters: string; expires_at: string | null };

export const findChartPublicationByToken = namedQuery<{ token_hash: string }, ChartLinkRow>(
  'publications.find_chart_by_token',
  `SELECT c.*, p.id AS publication_id, p.kind, p.parameters AS locked_parameters, p.expires_at
   FROM publications p JOIN charts c ON c.id = p.object_id
   WHERE p.token_hash = :token_hash`,
);

export const deletePublication = namedQuery<{ kind: PublishedKind; object_id: string }>(
  'publications.delete',
  'DELETE FROM publications WHERE kind = :kind AND object_id = :object_id',
);

export const deleteWorkspacePublications = namedQuery<{ workspace_id: string }>(
  'publications.delete_for_workspace',
  'DELETE FROM publications WHERE workspace_id = :workspace_id',
);
