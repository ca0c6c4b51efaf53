import type { TaskQueueStat } from '../metrics/service-metrics';
import type { TemporalClient } from './client';

// temporal.api.enums.v1.TaskQueueType: WORKFLOW = 1, ACTIVITY = 2; TaskQueueKind.NORMAL = 1.
const types = [
  ['workflow', 1],
  ['activity', 2],
] as const;
const normalKind = 1;

/**
 * Temporal's own view of the service's task queues (`DescribeTaskQueue` with its stats): the
 * approximate backlog and its age, and the workers polling. Undefined when Temporal does not answer
 * in time, so a scrape never waits on an outage.
 */
export function taskQueueStats(
  client: TemporalClient,
  namespace: string,
  queues: Record<string, string>,
  timeoutMs = 2_000,
): () => Promise<TaskQueueStat[] | undefined> {
  return async () => {
    try {
      return await client.call(
        () =>
          Promise.all(
            Object.entries(queues).flatMap(([queue, name]) =>
              types.map(async ([type, taskQueueType]) => {
                const described = await client.connection.workflowService.describeTaskQueue({
                  namespace,
                  taskQueue: { name, kind: normalKind },
                  taskQueueType,
                  reportStats: true,
                });
                const age = described.stats?.approximateBacklogAge;
                return {
                  queue,
                  type,
                  backlog: Number(described.stats?.approximateBacklogCount ?? 0),
                  backlogAgeSeconds: Number(age?.seconds ?? 0) + Number(age?.nanos ?? 0) / 1e9,
                  pollers: described.pollers?.length ?? 0,
                };
              }),
            ),
          ),
        timeoutMs,
      );
    } catch {
      return undefined;
    }
  };
}
