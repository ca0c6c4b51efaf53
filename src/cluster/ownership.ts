import type { Logger } from '../logging/logger';
import type { Member, Membership } from './membership';
import { rendezvous } from './rendezvous';

/**
 * Where a workspace's engine work runs now. `local`: here; `done` must be called once the request
 * has been answered (a move waits for the requests under way). `forward`: on that member. `moving`:
 * nowhere this instant (its previous owner is finishing its requests): answer 503 with Retry-After.
 */
export type OwnerRoute = { kind: 'local'; done: () => void } | { kind: 'forward'; member: Member } | { kind: 'moving' };

export interface Ownership {
  /** Whether this process owns every workspace (one process: the embedded default, `serve`). */
  readonly solo: boolean;
  /** The member this process is, when it is one of several. */
  readonly self: Member | undefined;
  /** `forwarded`: the request came from another replica, and is never forwarded again. */
  route(workspaceId: string, forwarded: boolean): Promise<OwnerRoute>;
  /** A forward could not reach the member: read the live members again before the next try. */
  unreachable(member: Member): Promise<void>;
  /** The workspace was deleted: whatever this process held of it goes. */
  forget(workspaceId: string): Promise<void>;
}

const noop = () => {};
const local: OwnerRoute = { kind: 'local', done: noop };
const moving: OwnerRoute = { kind: 'moving' };

/** The only process: it owns everything, and routing costs nothing. */
export const soloOwnership: Ownership = {
  solo: true,
  self: undefined,
  route: () => Promise.resolve(local),
  unreachable: () => Promise.resolve(),
  forget: () => Promise.resolve(),
};

export interface ClusterOwnershipOptions {
  /** How long a request waits for its workspace's previous owner to let go before it is answered 503. */
  claimWaitMs: number;
  /** The longest a move waits for the requests under way on the previous owner (the query timeout and some). */
  drainMs: number;
  /** Closes what this process holds of a workspace (its engine instances), once its requests are done. */
  closeWorkspace(workspaceId: string): Promise<void>;
}

/**
 * Ownership among API replicas. The owner of a workspace is chosen by rendezvous hashing over the live
 * `api` members; a member serves a workspace only while it holds the workspace's advisory lock on its
 * cluster session, so two replicas whose views of the members differ for a moment can never both
 * serve it: the new owner takes the lock once the old one has finished its requests, closed its
 * instances and let go (or died, which ends its session and frees its locks). The check on the hot
 * path is a map lookup: the lock is taken once per ownership, not per request.
 */
export class ClusterOwnership implements Ownership {
  readonly solo = false;
  private readonly held = new Set<string>();
  private readonly claims = new Map<string, Promise<boolean>>();
  private readonly releases = new Map<string, Promise<void>>();
  private readonly inFlight = new Map<string, number>();
  private readonly drainWaiters = new Map<string, (() => void)[]>();
  private owners = new Map<string, Member | undefined>();

  constructor(
    private readonly membership: Membership,
    private readonly options: ClusterOwnershipOptions,
    private readonly logger: Logger,
  ) {
    membership.onChange(() => {
      this.owners = new Map();
      for (const workspaceId of this.held) if (!this.mine(workspaceId)) void this.release(workspaceId);
    });
    // Every lock went with the session: another replica may own those workspaces already.
    membership.onSessionLost(() => {
      const lost = [...this.held];
      this.held.clear();
      for (const workspaceId of lost) void this.retire(workspaceId);
    });
  }

  get self(): Member {
    return this.membership.self;
  }

  async route(workspaceId: string, forwarded: boolean): Promise<OwnerRoute> {
    if (this.held.has(workspaceId) && !this.releases.has(workspaceId) && this.mine(workspaceId)) return this.enter(workspaceId);
    const owner = this.ownerOf(workspaceId);
    if (!this.mine(workspaceId)) {
      if (this.held.has(workspaceId)) void this.release(workspaceId);
      return forwarded || !owner || owner.id === this.self.id ? moving : { kind: 'forward', member: owner };
    }
    if (this.releases.has(workspaceId) || !(await this.claim(workspaceId))) return moving;
    // The members may have changed while the lock was taken.
    return this.mine(workspaceId) ? this.enter(workspaceId) : moving;
  }

  async unreachable(member: Member): Promise<void> {
    this.logger.warn('a cluster member did not answer a forward', { member_id: member.id, address: member.address });
    await this.membership.refresh();
  }

  async forget(workspaceId: string): Promise<void> {
    if (this.held.has(workspaceId)) await this.release(workspaceId);
  }

  /** A member owns its share (all of them while it knows of no other); one that left owns nothing. */
  private mine(workspaceId: string): boolean {
    if (!this.membership.active) return false;
    const owner = this.ownerOf(workspaceId);
    return owner === undefined || owner.id === this.self.id;
  }

  /** The rendezvous owner among the live API members (none known yet: this process). */
  private ownerOf(workspaceId: string): Member | undefined {
    if (this.owners.has(workspaceId)) return this.owners.get(workspaceId);
    const owner = rendezvous(workspaceId, this.membership.members('api'));
    this.owners.set(workspaceId, owner);
    return owner;
  }

  private enter(workspaceId: string): OwnerRoute {
    this.inFlight.set(workspaceId, (this.inFlight.get(workspaceId) ?? 0) + 1);
    let done = false;
    return {
      kind: 'local',
      done: () => {
        if (done) return;
        done = true;
        const left = (this.inFlight.get(workspaceId) ?? 1) - 1;
        if (left > 0) return void this.inFlight.set(workspaceId, left);
        this.inFlight.delete(workspaceId);
        for (const wake of this.drainWaiters.get(workspaceId) ?? []) wake();
        this.drainWaiters.delete(workspaceId);
      },
    };
  }

  /** Takes the workspace's lock, trying again while its previous owner lets go, up to claimWaitMs. */
  private claim(workspaceId: string): Promise<boolean> {
    let claim = this.claims.get(workspaceId);
    if (claim) return claim;
    claim = (async () => {
      const deadline = performance.now() + this.options.claimWaitMs;
      for (;;) {
        if (await this.membership.tryLock(lockName(workspaceId))) {
          this.held.add(workspaceId);
          return true;
        }
        if (performance.now() >= deadline) return false;
        await Bun.sleep(50);
      }
    })().finally(() => this.claims.delete(workspaceId));
    this.claims.set(workspaceId, claim);
    return claim;
  }

  /** Lets go of a workspace that moved away: its requests finish here, its instances close, then its lock goes. */
  private release(workspaceId: string): Promise<void> {
    let release = this.releases.get(workspaceId);
    if (release) return release;
    release = (async () => {
      await this.retire(workspaceId);
      if (!this.held.delete(workspaceId)) return;
      await this.membership.unlock(lockName(workspaceId));
      this.logger.info('workspace moved away', { workspace_id: workspaceId, member_id: this.self.id });
    })()
      .catch((error: unknown) => this.logger.error('could not let go of a workspace', { workspace_id: workspaceId, error }))
      .finally(() => this.releases.delete(workspaceId));
    this.releases.set(workspaceId, release);
    return release;
  }

  /** Waits for the workspace's requests under way (at most drainMs), then closes its instances here. */
  private async retire(workspaceId: string): Promise<void> {
    if (this.inFlight.has(workspaceId)) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.drainMs);
        const waiters = this.drainWaiters.get(workspaceId) ?? [];
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
        this.drainWaiters.set(workspaceId, waiters);
      });
    }
    await this.options.closeWorkspace(workspaceId);
  }
}

function lockName(workspaceId: string): string {
  return `oxbow.owner:${workspaceId}`;
}
