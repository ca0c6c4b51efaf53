import type { NamedQuery } from '../store/named-query';

/**
 * A feature's share of purging a deleted workspace: first the durable work it runs for the workspace
 * outside the store (what it holds beyond the schedules and workflows that every purge finds by search
 * attribute), then, once the catalog and files are gone, its rows, which every
 * feature's steps delete in one transaction.
 */
export interface WorkspacePurgeStep {
  stopDurableWork?(workspaceId: string): Promise<void>;
  rows?: NamedQuery<{ workspace_id: string }, never>[];
}
