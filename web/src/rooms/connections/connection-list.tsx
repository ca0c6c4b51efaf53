import { api, unwrap } from '../../api/client';
import { Link } from '../../router/link';
import { pathTo } from '../../router/paths';
import type { RoomProps } from '../../router/routes';
import { atLeast } from '../../session/workspaces';
import { formatTime } from '../../ui/format';
import { Field, Form } from '../../ui/forms';
import { ErrorNotice, Loading, Notice } from '../../ui/notice';
import { Page, Section } from '../../ui/page';
import { StatusBadge } from '../../ui/status-badge';
import { useLoad } from '../../ui/use-load';
import { useWorkspace } from '../workspaces/use-workspace';
import { loadConnectorTypes, startOAuth, type ConnectorType } from './connection-api';
import { TableHead } from '../../ui/table-head';

/** The workspace's connections, with their state and last sync; new ones by a form or through a provider's consent. */
export function ConnectionList({ params }: RoomProps) {
  const workspaceId = params.workspaceId ?? '';
  const { workspace } = useWorkspace(workspaceId);
  const canManage = atLeast(workspace?.role, 'MEMBER');
  const list = useLoad(
    () => unwrap(api.GET('/api/v1/workspaces/{workspace_id}/connections', { params: { path: { workspace_id: workspaceId }, query: { limit: 200 } } })),
    [workspaceId],
  );
  const types = useLoad(loadConnectorTypes, []);
  const oauthTypes = (types.data ?? []).filter((type) => type.auth === 'oauth');
  return (
    <Page
      title="Connections"
      lead="Each connection syncs a source into tables of its own schema."
      actions={
        canManage ? (
          <Link class="button primary" href={pathTo('newConnection', { workspaceId })}>
            New connection
          </Link>
        ) : null
      }
    >
      <ErrorNotice error={list.error} />
      {list.loading && !list.data ? <Loading /> : null}
      {list.data && list.data.length === 0 ? <p>No connections yet.</p> : null}
      {list.data && list.data.length > 0 ? (
        <div class="table-wrap">
          <table class="data-table">
            <caption class="visually-hidden">Connections of the workspace</caption>
            <TableHead columns={['Name', 'Type', 'State', 'Schedule', 'Last sync']} />
            <tbody>
              {list.data.map((connection) => (
                <tr key={connection.id}>
                  <td>
                    <Link href={pathTo('workspaceConnection', { workspaceId, connectionId: connection.id })}>{connection.name}</Link>
                  </td>
                  <td>{types.data?.find((type) => type.type === connection.connector_type)?.name ?? connection.connector_type}</td>
                  <td>
                    <StatusBadge status={connection.status} />
                  </td>
                  <td class="mono">{connection.sync_schedule ?? 'manual'}</td>
                  <td>
                    {connection.last_sync_status ? <StatusBadge status={connection.last_sync_status} /> : 'never'}{' '}
                    {connection.last_sync_at ? formatTime(connection.last_sync_at) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {canManage && oauthTypes.length > 0 ? (
        <Section title="Connect a CRM">
          <p>The provider asks you to allow read access, then brings you back to the new connection, whose first sync starts at once.</p>
          {oauthTypes.map((type) => (
            <OAuthConnect key={type.type} type={type} workspaceId={workspaceId} />
          ))}
        </Section>
      ) : null}
    </Page>
  );
}

/** A provider's button, with the name of the connection (and so the schema its tables land in). */
export function OAuthConnect({ type, workspaceId }: { type: ConnectorType; workspaceId: string }) {
  if (!type.configured) {
    return <Notice kind="info">{type.name} is not set up on this service: its OAuth client is not configured.</Notice>;
  }
  return (
    <Form
      class="inline-form"
      label={`Connect ${type.name}`}
      submitLabel={`Connect ${type.name}`}
      busyLabel={`Opening ${type.name}…`}
      onSubmit={(values) => startOAuth(type.type, workspaceId, values.name ?? '')}
    >
      <Field
        label={`${type.name} connection name`}
        name="name"
        required
        maxLength={63}
        defaultValue={type.type}
        hint="Letters, digits and underscores: the schema its tables land in."
      />
    </Form>
  );
}
