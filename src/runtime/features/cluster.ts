import type { EngineManager } from '../../engine/engine-manager';
import type { ChangeNotice } from '../../cluster/change-notices';
import { coalesced } from '../../cluster/coalesced';
import { ForwardingKey, OwnerForwarder } from '../../cluster/forwarding';
import type { Membership } from '../../cluster/membership';
import { ClusterOwnership, soloOwnership, type Ownership } from '../../cluster/ownership';
import { workspacePlan } from '../../plans/workspace-plan';
import type { FeatureDeps } from './deps';

/** How long a request waits for its workspace's previous owner to let go before it is answered 503. */
const claimWaitMs = 3_000;

/** Writes to one workspace make at most one notice of changed tables per this long (and one at its end). */
const tablesNoticeQuietMs = 100;

/** What a write through an engine instance tells the other processes: the workspace's tables changed. */
export function tablesChangedNotice({ infra }: Pick<FeatureDeps, 'infra'>): (workspaceId: string) => void {
  return coalesced((workspaceId) => void infra.notices.publish({ kind: 'tables_changed', workspaceId }), tablesNoticeQuietMs);
}

/**
 * Where each workspace's engine work runs (src/cluster/README.md): here, for a process alone or a
 * worker; among the API replicas, on the owner each request is forwarded to. And what each change
 * notice does to what this process holds.
 */
export function clusterFeature({ config, infra, logger }: FeatureDeps, membership: Membership | undefined, engines: EngineManager) {
  const log = logger.child({ component: 'cluster' });
  const ownership: Ownership =
    membership?.self.role === 'api'
      ? new ClusterOwnership(
          membership,
          { claimWaitMs, drainMs: config.query.timeoutMs + 5_000, closeWorkspace: (workspaceId) => engines.release(workspaceId) },
          log,
        )
      : soloOwnership;
  infra.notices.subscribe((notice: ChangeNotice) => {
    switch (notice.kind) {
      case 'workspace_deleted':
        void engines.release(notice.workspaceId);
        void ownership.forget(notice.workspaceId);
        return;
      case 'plan_changed':
        void workspacePlan(infra.store, notice.workspaceId)
          .then((plan) => engines.scheduler.limitChanged(notice.workspaceId, plan.max_concurrent_queries))
          .catch(() => {});
        return;
      case 'live_connections_changed':
        return engines.refreshLiveSources(notice.workspaceId);
      case 'tables_changed':
        return engines.tablesChanged(notice.workspaceId);
      case 'resync':
        return engines.resync();
      default:
        return notice satisfies never;
    }
  });
  const forwardingKey = new ForwardingKey(config.secrets.jwtSecret);
  return { ownership, forwardingKey, forwarder: new OwnerForwarder(forwardingKey) };
}
