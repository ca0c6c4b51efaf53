import { defineSearchAttributeKey, SearchAttributeType, type SearchAttributePair } from '@temporalio/common';
import devServerSettings from '../../temporal/dev-server.json';

/**
 * What every workflow and schedule of the service carries, so that an operator can find a tenant's
 * durable work in the Temporal UI or CLI (`OxbowWorkspaceId = '…' AND OxbowKind = 'sync'`) and the
 * service finds its own without listing the namespace. Registered by the supervised dev server and
 * at worker start where the cluster allows it (see temporal/README.md).
 */
export const searchAttributes = {
  workspaceId: defineSearchAttributeKey('OxbowWorkspaceId', SearchAttributeType.KEYWORD),
  kind: defineSearchAttributeKey('OxbowKind', SearchAttributeType.KEYWORD),
  objectId: defineSearchAttributeKey('OxbowObjectId', SearchAttributeType.KEYWORD),
  trigger: defineSearchAttributeKey('OxbowTrigger', SearchAttributeType.KEYWORD),
  /** A query job's status as its record holds it (`pending`, `running`, `succeeded`, `failed`, `cancelled`), kept by its workflow. */
  status: defineSearchAttributeKey('OxbowStatus', SearchAttributeType.KEYWORD),
} as const;

/** The activity header that carries the workspace of the workflow scheduling it (its OxbowWorkspaceId). */
export const workspaceHeader = 'oxbow-workspace-id';

/** Every kind of durable work, as OxbowKind holds it. */
export type WorkflowKind =
  | 'query_job'
  | 'sync'
  | 'oauth'
  | 'transform_run'
  | 'retention'
  | 'purge'
  | 'maintenance'
  | 'mail'
  | 'housekeeping'
  | 'job_results_cleanup'
  | 'job_reconciliation'
  | 'meter_report';

export interface WorkflowLabels {
  kind: WorkflowKind;
  workspaceId?: string;
  /** The connection, transform, job or user the work is about. */
  objectId?: string;
  /** What started it: `manual`, `schedule`, `oauth`, `after_sync`… */
  trigger?: string;
  /** The status it starts in, for work that keeps OxbowStatus (query jobs). */
  status?: string;
}

export function searchAttributePairs(labels: WorkflowLabels): SearchAttributePair[] {
  const pairs: SearchAttributePair[] = [{ key: searchAttributes.kind, value: labels.kind }];
  if (labels.workspaceId) pairs.push({ key: searchAttributes.workspaceId, value: labels.workspaceId });
  if (labels.objectId) pairs.push({ key: searchAttributes.objectId, value: labels.objectId });
  if (labels.trigger) pairs.push({ key: searchAttributes.trigger, value: labels.trigger });
  if (labels.status) pairs.push({ key: searchAttributes.status, value: labels.status });
  return pairs;
}

/** Name and type of each attribute, as `temporal server start-dev --search-attribute` takes them. */
export const searchAttributeTypes: Record<string, string> = devServerSettings.searchAttributes;
