import { api, unwrap } from '../../api/client';
import type { components, operations } from '../../api/schema';

type Schemas = components['schemas'];
export type Connection = Schemas['ConnectionResponse'];
export type ConnectorType = Schemas['ConnectorTypeInfo'];
export type StreamInfo = Schemas['StreamInfo'];
export type SyncJob = Schemas['SyncJobResponse'];
export type SyncMode = Schemas['ConfiguredStream']['sync_mode'] & string;
export type ConfiguredStream = Schemas['ConfiguredStream'];

export const connectionPath = (workspaceId: string, connectionId: string) => ({ path: { workspace_id: workspaceId, connection_id: connectionId } });

export const loadConnectorTypes = () => unwrap(api.GET('/api/v1/connections/available-types'));

export const loadConnection = (workspaceId: string, connectionId: string) =>
  unwrap(api.GET('/api/v1/workspaces/{workspace_id}/connections/{connection_id}', { params: connectionPath(workspaceId, connectionId) }));

export const updateConnection = (
  workspaceId: string,
  connectionId: string,
  body: NonNullable<operations['updateConnection']['requestBody']>['content']['application/json'],
) => unwrap(api.PATCH('/api/v1/workspaces/{workspace_id}/connections/{connection_id}', { params: connectionPath(workspaceId, connectionId), body }));

/** Whether a sync job may still change (its answer is read again until it ends). */
export const syncInFlight = (job: Pick<SyncJob, 'status'>) => job.status === 'pending' || job.status === 'running';

/**
 * Starts the provider's consent for a connection of that name (a new one, or the one of that name
 * authorized again): the service answers the provider's address, the browser goes there and comes
 * back through the service's callback to the connection's page.
 */
export async function startOAuth(provider: string, workspaceId: string, connectionName: string): Promise<void> {
  const answer = await unwrap(
    api.GET('/api/v1/oauth/{crm_provider}/authorize', {
      params: { path: { crm_provider: provider }, query: { workspace_id: workspaceId, connection_name: connectionName } },
    }),
  );
  window.location.assign(answer.authorization_url);
}

export const syncModeLabels: Record<SyncMode, string> = {
  full_refresh_overwrite: 'Full refresh, overwrite',
  full_refresh_append: 'Full refresh, append',
  incremental_append: 'Incremental, append',
  incremental_append_deduped: 'Incremental, deduplicated by the key',
};
