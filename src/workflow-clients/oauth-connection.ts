import { WorkflowFailedError } from '@temporalio/client';
import type { CrmProvider } from '../config/oauth-config';
import type { Logger } from '../logging/logger';
import type { OAuthOutcome, OAuthWorkflows } from '../oauth/oauth-service';
import type { TemporalClient } from '../temporal/client';
import { startWorkflowOnce } from '../temporal/start-workflow';
import { oauthConnectionWorkflow } from '../workflows/oauth-connection';

/** How long the callback waits for the connection to be bound and tested before redirecting anyway. */
const waitMs = 45_000;

/** The OAuth-connection workflows: one per authorization attempt, id `oauth-<attempt id>`. */
export class OAuthConnectionClient implements OAuthWorkflows {
  constructor(
    private readonly temporal: TemporalClient,
    private readonly logger: Logger,
  ) {}

  async complete(attempt: { id: string; workspace_id: string; provider: CrmProvider; connection_name: string }): Promise<OAuthOutcome | undefined> {
    const workflowId = `oauth-${attempt.id}`;
    await startWorkflowOnce(this.temporal, oauthConnectionWorkflow, {
      workflowId,
      args: [{ attemptId: attempt.id, workspaceId: attempt.workspace_id, provider: attempt.provider }],
      memo: { workspace_id: attempt.workspace_id, provider: attempt.provider, connection_name: attempt.connection_name },
      labels: { kind: 'oauth', workspaceId: attempt.workspace_id, objectId: attempt.id, trigger: 'oauth' },
    });
    try {
      const result = await this.temporal.call(() => this.temporal.client.workflow.getHandle<typeof oauthConnectionWorkflow>(workflowId).result(), waitMs);
      if (result.error !== undefined) return { error: result.error, connectionId: result.connectionId };
      return { connectionId: result.connectionId! };
    } catch (error) {
      if (error instanceof WorkflowFailedError) {
        this.logger.warn('oauth connection workflow failed', { workflow_id: workflowId, error });
        return { error: 'authorization_failed' };
      }
      this.logger.warn('oauth connection workflow did not end in time', { workflow_id: workflowId, error });
      return undefined;
    }
  }
}
