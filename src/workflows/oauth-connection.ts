import { ParentClosePolicy, defineQuery, proxyActivities, setHandler, startChild } from '@temporalio/workflow';
import type { OAuthActivities } from '../activities/oauth-activities';
import { searchAttributePairs } from '../temporal/search-attributes';
import { connectionSyncWorkflow } from './connection-sync';

export interface OAuthConnectionInput {
  attemptId: string;
  workspaceId: string;
  provider: string;
}

export type OAuthConnectionStep = 'exchanging' | 'testing' | 'syncing' | 'done' | 'failed';

export interface OAuthConnectionStatus {
  step: OAuthConnectionStep;
  connectionId: string | null;
  syncJobId: string | null;
  error: string | null;
  message: string | null;
}

export interface OAuthConnectionResult {
  connectionId?: string;
  syncJobId?: string;
  error?: string;
  message?: string;
}

export const oauthConnectionStatusQuery = defineQuery<OAuthConnectionStatus>('status');

const steps = proxyActivities<OAuthActivities>({ startToCloseTimeout: '1 minute', retry: { initialInterval: '1 second', maximumAttempts: 3 } });

/**
 * One authorization's completion: the code exchanged and the tokens sealed on the connection (new, or
 * the one of that name bound again), the connection tested, and its first sync started as a child
 * workflow that outlives this one (trigger `oauth`). A failing test leaves the connection in place
 * and starts no sync.
 */
export async function oauthConnectionWorkflow(input: OAuthConnectionInput): Promise<OAuthConnectionResult> {
  const state: OAuthConnectionStatus = { step: 'exchanging', connectionId: null, syncJobId: null, error: null, message: null };
  setHandler(oauthConnectionStatusQuery, () => state);

  const bound = await steps.bindOAuthConnection(input.attemptId);
  if (bound.connectionId === undefined) {
    Object.assign(state, { step: 'failed', error: bound.error });
    return { error: bound.error };
  }
  state.connectionId = bound.connectionId;

  state.step = 'testing';
  const test = await steps.testOAuthConnection(bound.connectionId);
  if (!test.success) {
    Object.assign(state, { step: 'failed', error: 'connection_test_failed', message: test.message });
    return { connectionId: bound.connectionId, error: 'connection_test_failed', message: test.message };
  }

  state.step = 'syncing';
  const jobId = await steps.openOAuthFirstSync({ connectionId: bound.connectionId, userId: bound.userId });
  if (jobId) {
    await startChild(connectionSyncWorkflow, {
      workflowId: jobId,
      args: [{ workspaceId: bound.workspaceId, connectionId: bound.connectionId, trigger: 'oauth', jobId }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      memo: { workspace_id: bound.workspaceId, connection_id: bound.connectionId },
      typedSearchAttributes: searchAttributePairs({ kind: 'sync', workspaceId: bound.workspaceId, objectId: bound.connectionId, trigger: 'oauth' }),
    });
    state.syncJobId = jobId;
  }
  state.step = 'done';
  return { connectionId: bound.connectionId, ...(jobId ? { syncJobId: jobId } : {}) };
}
