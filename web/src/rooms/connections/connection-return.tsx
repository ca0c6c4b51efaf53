import { useEffect } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import { ApiError } from '../../api/errors';
import { navigate } from '../../router/history';
import { Link } from '../../router/link';
import { pathTo } from '../../router/paths';
import type { RoomProps } from '../../router/routes';
import { lastWorkspace, useWorkspaces, type Workspace } from '../../session/workspaces';
import { ErrorNotice, Loading, Notice } from '../../ui/notice';
import { Page } from '../../ui/page';
import { useLoad } from '../../ui/use-load';

/** Why the OAuth flow ended without a connection, by the code the service's callback gives. */
const oauthErrors: Record<string, string> = {
  invalid_state: 'The authorization link was used already, expired, or came from another flow. Start the connection again.',
  access_denied: 'The provider was not given access. Start again and allow access to connect.',
  exchange_failed: 'The provider did not exchange the authorization for tokens. Try again in a moment.',
  connection_test_failed: 'The provider authorized the connection, but reading from it failed.',
  connector_limit_reached: 'The workspace has as many connections as its plan allows.',
  name_taken: 'The workspace already has a connection with that name.',
  authorization_failed: 'The authorization failed.',
  service_unavailable: 'The service could not finish the connection right now. Try again shortly.',
  pending: 'The connection is still being set up. Look again in a moment.',
};

/** `/connections?error=<code>`: where the OAuth callback lands when no connection came of it. */
export function ConnectionsReturn({ search }: RoomProps) {
  const code = search.get('error');
  const { list } = useWorkspaces();
  const workspace = lastWorkspace(list);
  return (
    <Page title="Connections">
      {code ? (
        <Notice kind="error">{oauthErrors[code] ?? `The connection could not be made (${code}).`}</Notice>
      ) : (
        <p>Connections sync sources into the workspace's tables.</p>
      )}
      {workspace ? (
        <p>
          <Link href={pathTo('workspaceConnections', { workspaceId: workspace.id })}>The connections of {workspace.name}</Link>
        </p>
      ) : null}
    </Page>
  );
}

/** `/connections/<id>?status=connected`: the connection the OAuth flow made, found among the person's workspaces and opened in its own. */
export function ConnectionReturn({ params, search }: RoomProps) {
  const connectionId = params.connectionId ?? '';
  const { list, loaded } = useWorkspaces();
  const found = useLoad(() => (loaded ? findConnection(connectionId, list) : Promise.resolve(undefined)), [connectionId, loaded, list.length]);
  const workspaceId = found.data?.workspace.id;
  useEffect(() => {
    if (workspaceId) navigate(pathTo('workspaceConnection', { workspaceId, connectionId }, Object.fromEntries(search)), { replace: true });
  }, [workspaceId]);
  return (
    <Page title="Connection">
      {!loaded || found.loading || found.data ? <Loading /> : null}
      <ErrorNotice error={found.error} />
      {loaded && !found.loading && !found.error && !found.data ? <Notice kind="warning">None of your workspaces has this connection.</Notice> : null}
    </Page>
  );
}

async function findConnection(connectionId: string, list: Workspace[]) {
  const first = lastWorkspace(list);
  const ordered = first ? [first, ...list.filter((workspace) => workspace.id !== first.id)] : list;
  for (const workspace of ordered) {
    try {
      const connection = await unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/connections/{connection_id}', {
          params: { path: { workspace_id: workspace.id, connection_id: connectionId } },
        }),
      );
      return { workspace, connection };
    } catch (error) {
      if (!(error instanceof ApiError) || (error.status !== 404 && error.status !== 403 && error.status !== 422)) throw error;
    }
  }
  return undefined;
}
