import { ApplicationFailure } from '@temporalio/activity';
import type { TestResult } from '../connections/source-probes';
import type { Bound, OAuthCompletion } from '../oauth/oauth-completion';
import { ProviderUnavailable } from '../oauth/provider-client';

/**
 * The OAuth-connection workflow's steps. The exchange is retried only when the provider could not be
 * reached (a refused code stays refused, and answers as an outcome, not a failure).
 */
export function createOAuthActivities(completion: OAuthCompletion) {
  return {
    async bindOAuthConnection(attemptId: string): Promise<Bound> {
      try {
        return await completion.bind(attemptId);
      } catch (error) {
        if (error instanceof ProviderUnavailable) throw ApplicationFailure.create({ message: error.message, type: 'PROVIDER_UNAVAILABLE' });
        throw error;
      }
    },

    testOAuthConnection(connectionId: string): Promise<TestResult> {
      return completion.test(connectionId);
    },

    openOAuthFirstSync(input: { connectionId: string; userId: string }): Promise<string | null> {
      return completion.openFirstSync(input.connectionId, input.userId);
    },
  };
}

export type OAuthActivities = ReturnType<typeof createOAuthActivities>;
