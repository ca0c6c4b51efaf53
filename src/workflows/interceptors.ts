import { defaultPayloadConverter } from '@temporalio/common';
import { workflowInfo, type WorkflowInterceptorsFactory } from '@temporalio/workflow';
import { searchAttributes, workspaceHeader } from '../temporal/search-attributes';

/**
 * Every activity a workflow schedules is told the workspace the workflow is labelled with, so that
 * its log lines name the workspace whatever its arguments are (the worker's activity interceptor reads it).
 */
export const interceptors: WorkflowInterceptorsFactory = () => ({
  outbound: [
    {
      scheduleActivity(input, next) {
        const workspaceId = workflowInfo().typedSearchAttributes.get(searchAttributes.workspaceId);
        if (!workspaceId) return next(input);
        return next({ ...input, headers: { ...input.headers, [workspaceHeader]: defaultPayloadConverter.toPayload(workspaceId) } });
      },
    },
  ],
});
