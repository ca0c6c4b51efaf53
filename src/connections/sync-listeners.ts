/** What a sync that changed tables tells its listeners when it ends. */
export interface SyncCompleted {
  workspaceId: string;
  connectionId: string;
  jobId: string;
  /** `<schema>.<table>` of every table the sync wrote rows to or replaced. */
  changedTables: string[];
}

/**
 * Work that follows a sync (downstream transforms, say), registered with the connections feature.
 * Called once per job that changed tables, from the job's workflow; a listener that throws is retried
 * with the activity, so listeners must tolerate being called again for the same job.
 */
export interface SyncListener {
  afterSync(event: SyncCompleted): Promise<void>;
}
