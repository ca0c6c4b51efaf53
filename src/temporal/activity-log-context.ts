import { defaultPayloadConverter } from '@temporalio/common';
import type { Context as ActivityContext } from '@temporalio/activity';
import type { ActivityInterceptors } from '@temporalio/worker';
import { withLogContext } from '../logging/log-context';
import { workspaceHeader } from './search-attributes';

/**
 * Every log line an activity writes carries its workflow's id and run, the activity's name and the
 * workspace its workflow is labelled with (a header the workflow interceptor adds); an activity of
 * a workflow without one that learns its workspace adds it (addLogContext).
 */
export function activityLogContext(context: ActivityContext): ActivityInterceptors {
  const { info } = context;
  return {
    inbound: {
      execute: (input, next) => {
        const header = input.headers[workspaceHeader];
        const workspaceId = header ? defaultPayloadConverter.fromPayload<string>(header) : undefined;
        const fields = {
          workflow_id: info.workflowExecution?.workflowId,
          run_id: info.workflowExecution?.runId,
          activity: info.activityType,
          ...(workspaceId ? { workspace_id: workspaceId } : {}),
        };
        return withLogContext(fields, () => next(input));
      },
    },
  };
}
