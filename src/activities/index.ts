import type { Config } from '../config';
import type { Logger } from '../logging/logger';
import type { Store } from '../store/store';
import type { LakeStorage } from '../lake-storage/lake-storage';

export interface ActivityDeps {
  config: Config;
  logger: Logger;
  store: Store;
  lake: LakeStorage;
}

/** Every activity the worker registers, bound to its dependencies. Workflows import only the type. */
export function createActivities(_deps: ActivityDeps) {
  return {};
}

export type Activities = ReturnType<typeof createActivities>;
