import { AppError } from '../errors/app-error';
import type { EngineLane } from '../engine/engine-manager';
import type { PlanRow } from '../plans/plan-queries';

const bytesPerGb = 1e9;

export interface StorageUse {
  usedBytes: number;
  limitBytes: number;
}

/**
 * The plan's storage limit against what the workspace's lake holds (the catalog's file sizes). Every
 * feature that writes to the lake asks `assertRoom` first: push does, and syncs do on their own lane.
 * A workspace at or past its limit is refused with 403 STORAGE_LIMIT_REACHED; below it, a write may
 * take it past the limit (its size is unknown until written) and the next one is refused.
 */
export class StorageQuota {
  constructor(
    private readonly storageBytes: (workspaceId: string, lane: EngineLane) => Promise<number>,
    private readonly planOf: (workspaceId: string) => Promise<PlanRow>,
  ) {}

  async use(workspaceId: string, lane: EngineLane = 'interactive', plan?: PlanRow): Promise<StorageUse> {
    const [usedBytes, planRow] = await Promise.all([this.storageBytes(workspaceId, lane), plan ?? this.planOf(workspaceId)]);
    return { usedBytes, limitBytes: planRow.storage_limit_gb * bytesPerGb };
  }

  /** `plan` is the workspace's plan when the caller has read it already. */
  async assertRoom(workspaceId: string, lane: EngineLane = 'interactive', plan?: PlanRow): Promise<void> {
    plan ??= await this.planOf(workspaceId);
    const { usedBytes, limitBytes } = await this.use(workspaceId, lane, plan);
    if (usedBytes < limitBytes) return;
    throw new AppError(
      'STORAGE_LIMIT_REACHED',
      `The workspace's tables hold ${gb(usedBytes)} GB, the ${plan.name} plan's limit is ${plan.storage_limit_gb} GB`,
      {
        hint: 'Drop tables you no longer need (time travel keeps replaced data until the plan’s window passes), or move the workspace to a plan with more storage.',
      },
    );
  }
}

export function gb(bytes: number): number {
  return bytes / bytesPerGb;
}
