import { workspaceDataPrefix } from '../engine/catalog-attachment';

/**
 * Where a job's result lives in the lake storage: a Parquet file under the workspace's own prefix, in a
 * folder whose name no namespace can take (namespaces starting with two underscores are reserved).
 */
export function jobResultKey(workspaceId: string, jobId: string): string {
  return `${workspaceDataPrefix(workspaceId)}__results/${jobId}.parquet`;
}
