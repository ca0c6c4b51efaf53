import type { Transaction } from '../store/store';

/**
 * Each feature that keeps rows for a workspace says how to remove them; the purge runs every step in
 * one transaction after the workspace's catalog and files are gone.
 */
export interface WorkspaceRowsPurge {
  name: string;
  purge(tx: Transaction, workspaceId: string): Promise<void>;
}
