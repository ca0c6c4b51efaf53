import type { NamedQuery } from '../store/named-query';
import type { ScheduleDefinition } from '../temporal/schedules';
import type { PruneParams } from '../housekeeping/prune';
import type { WorkspacePurgeStep } from '../workspaces/purge-step';

/**
 * What a feature adds to the running service besides its services: the activities its workflows call
 * on the main task queue, the service's own recurring workflows, how a deleted workspace's things of
 * the feature are removed, and which of its rows the hourly housekeeping sweeps once they have ended.
 */
export interface FeatureWiring<Activities extends object = object> {
  activities?: Activities;
  schedules?: ScheduleDefinition[];
  workspacePurge?: WorkspacePurgeStep;
  prune?: NamedQuery<PruneParams, never>[];
}

/** The keys two or more of the objects share (never, when there is no clash). */
type SharedKeys<T extends readonly object[], Seen extends PropertyKey = never> = T extends readonly [infer Head extends object, ...infer Rest extends object[]]
  ? (keyof Head & Seen) | SharedKeys<Rest, Seen | keyof Head>
  : never;

type Merged<T extends readonly object[]> = T extends readonly [infer Head extends object, ...infer Rest extends object[]] ? Head & Merged<Rest> : unknown;

/**
 * One worker's activities from the features' factories. Temporal knows an activity by its name only,
 * so two features naming one the same would silently lose one of them: that fails to compile here
 * (the error names the clashing activity), and throws for what a type cannot see.
 */
export function combineActivities<const T extends readonly object[]>(...parts: SharedKeys<T> extends never ? T : T & { clash: SharedKeys<T> }): Merged<T> {
  const combined: Record<string, unknown> = {};
  for (const part of parts as readonly object[]) {
    for (const [name, activity] of Object.entries(part)) {
      if (Object.hasOwn(combined, name)) throw new Error(`two features define the activity ${name}`);
      combined[name] = activity;
    }
  }
  return combined as Merged<T>;
}

/** Every feature's workspace purge steps, in the features' order. */
export function workspacePurgeSteps(features: FeatureWiring[]): WorkspacePurgeStep[] {
  return features.flatMap((feature) => (feature.workspacePurge ? [feature.workspacePurge] : []));
}
