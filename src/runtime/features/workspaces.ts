import { createWorkspaceActivities } from '../../activities/workspace-activities';
import { catalogStoreFor } from '../../engine/catalog-attachment';
import type { MailDispatch } from '../../mail/mail-dispatch';
import type { MailOutbox } from '../../mail/outbox';
import { workspacePurgeClient } from '../../workflow-clients/workspace-purge';
import { workspaceDurableWorkStop } from '../../workflow-clients/workspace-durable-work';
import { MembersService } from '../../workspaces/members-service';
import type { WorkspacePurgeStep } from '../../workspaces/purge-step';
import { WorkspaceAccess } from '../../workspaces/workspace-access';
import { workspaceAccountHooks } from '../../workspaces/workspace-account-hooks';
import type { WorkspaceServices } from '../../workspaces/workspace-services';
import { WorkspacesService } from '../../workspaces/workspaces-service';
import type { FeatureWiring } from '../feature';
import type { FeatureDeps } from './deps';

export interface WorkspacesFeatureDeps extends FeatureDeps {
  mail: { outbox: MailOutbox; dispatch: MailDispatch };
  /** Sets up what a new workspace runs on its own (its maintenance schedule). */
  onCreated: (workspaceId: string) => Promise<void>;
}

/** Workspaces, members and invitations, and how they follow their members' accounts. */
export function workspacesFeature({ config, infra, clock, mail, onCreated }: WorkspacesFeatureDeps) {
  const purge = workspacePurgeClient(infra.temporal);
  const services: WorkspaceServices = {
    access: new WorkspaceAccess(infra.store),
    workspaces: new WorkspacesService(infra.store, clock, purge, onCreated, (workspaceId) => infra.notices.publish({ kind: 'workspace_deleted', workspaceId })),
    members: new MembersService(infra.store, clock, mail.outbox, mail.dispatch, config.http.frontendUrl),
  };
  return { services, accountHooks: workspaceAccountHooks(purge, clock) };
}

/**
 * The purge of a deleted workspace, made of every feature's share: the composition root hands it the
 * steps once all features are built.
 */
export function workspacePurgeWiring({ config, infra, logger }: FeatureDeps, steps: WorkspacePurgeStep[]) {
  return {
    activities: createWorkspaceActivities({
      store: infra.store,
      lake: infra.lake,
      catalog: catalogStoreFor(config.metadata, config.dataDir),
      // What is found by search attribute goes first; each feature's own steps follow.
      purgeSteps: [workspaceDurableWorkStop(infra.temporal, logger.child({ component: 'workspaces' })), ...steps],
      // Every process closes what it holds of the workspace (its instances), not only this one.
      releaseWorkspace: (workspaceId) => infra.notices.publish({ kind: 'workspace_deleted', workspaceId }),
      logger: logger.child({ component: 'workspaces' }),
    }),
  } satisfies FeatureWiring;
}
