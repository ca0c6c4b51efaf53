import type { Context as ActivityContext } from '@temporalio/activity';
import type { ActivityInterceptors } from '@temporalio/worker';
import { withLogContext } from '../logging/log-context';

/**
 * Every log line an activity writes carries its workflow's id and run, and the activity's name; an
 * activity that learns its workspace adds it (addLogContext).
 */
export function activityLogContext(context: ActivityContext): ActivityInterceptors {
  const { info } = context;
  return {
    inbound: {
      execute: (input, next) =>
        withLogContext({ workflow_id: info.workflowExecution?.workflowId, run_id: info.workflowExecution?.runId, activity: info.activityType }, () => next(input)),
    },
  };
}
