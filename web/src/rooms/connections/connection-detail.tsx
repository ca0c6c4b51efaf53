import { DeleteNamed } from '../../ui/delete-named';
import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import { Link } from '../../router/link';
import { pathTo } from '../../router/paths';
import type { RoomProps } from '../../router/routes';
import { atLeast } from '../../session/workspaces';
import { formatTime } from '../../ui/format';
import { ErrorNotice, Loading, Notice } from '../../ui/notice';
import { Page, Section } from '../../ui/page';
import { ScheduleEditor } from '../../ui/schedule-editor';
import { StatusBadge } from '../../ui/status-badge';
import { useLoad } from '../../ui/use-load';
import { useWorkspace } from '../workspaces/use-workspace';
import { connectionPath, loadConnection, loadConnectorTypes, startOAuth, updateConnection, type Connection, type ConnectorType } from './connection-api';
import { SpecEditor } from './spec-editor';
import { StreamsPanel } from './streams-panel';
import { SyncHistory } from './sync-history';

/** One connection: its state and actions (sync, test, pause, authorize again), its syncs, streams, schedule and settings. */
export function ConnectionDetail({ params, search }: RoomProps) {
  const workspaceId = params.workspaceId ?? '';
  const connectionId = params.connectionId ?? '';
  const { workspace } = useWorkspace(workspaceId);
  const canEdit = atLeast(workspace?.role, 'MEMBER');
  const loaded = useLoad(() => loadConnection(workspaceId, connectionId), [workspaceId, connectionId]);
  const types = useLoad(loadConnectorTypes, []);
  const [current, setCurrent] = useState<Connection | undefined>(undefined);
  const [syncs, setSyncs] = useState(0);
  const connection = current?.id === connectionId ? current : loaded.data;
  const type = types.data?.find((candidate) => candidate.type === connection?.connector_type);
  const reload = () => void loadConnection(workspaceId, connectionId).then(setCurrent, () => undefined);
  if (!connection) {
    return (
      <Page title="Connection">
        <ErrorNotice error={loaded.error} />
        {loaded.loading ? <Loading /> : null}
      </Page>
    );
  }
  return (
    <Page
      title={connection.name}
      lead={
        <>
          {type?.name ?? connection.connector_type} · tables land in <code>{connection.schema_name}</code>
        </>
      }
    >
      <p>
        <Link href={pathTo('workspaceConnections', { workspaceId })}>All connections</Link>
      </p>
      {search.get('status') === 'connected' ? <Notice kind="success">The provider authorized the connection; its first sync has started.</Notice> : null}
      {search.get('created') ? <Notice kind="success">The connection was created. Test it, choose its streams, then sync.</Notice> : null}
      {connection.status === 'needs_reauth' ? <Reauthorize connection={connection} type={type} workspaceId={workspaceId} canEdit={canEdit} /> : null}
      <dl class="details">
        <dt>State</dt>
        <dd>
          <StatusBadge status={connection.status} />
        </dd>
        <dt>Last sync</dt>
        <dd>
          {connection.last_sync_status ? <StatusBadge status={connection.last_sync_status} /> : 'never'} {formatTime(connection.last_sync_at)}
        </dd>
        <dt>Query mode</dt>
        <dd>{connection.query_mode}</dd>
      </dl>
      {canEdit ? (
        <Actions connection={connection} workspaceId={workspaceId} onChanged={setCurrent} onRefused={reload} onSyncStarted={() => setSyncs(syncs + 1)} />
      ) : null}
      <Section title="Syncs">
        <SyncHistory workspaceId={workspaceId} connectionId={connectionId} version={syncs} onSettled={reload} />
      </Section>
      <Section title="Streams">
        <StreamsPanel workspaceId={workspaceId} connection={connection} canEdit={canEdit} onSaved={setCurrent} onRefused={reload} />
      </Section>
      <Section title="Schedule">
        <ScheduleEditor
          schedule={connection.sync_schedule}
          nextRuns={connection.next_runs}
          canEdit={canEdit}
          what="a sync"
          onSave={async (schedule) => setCurrent(await updateConnection(workspaceId, connectionId, { sync_schedule: schedule }))}
        />
      </Section>
      {type && type.auth === 'none' ? (
        <Section title="Settings">
          <SpecEditor connection={connection} type={type} workspaceId={workspaceId} canEdit={canEdit} onSaved={setCurrent} />
        </Section>
      ) : null}
      {atLeast(workspace?.role, 'ADMIN') ? (
        <DeleteNamed
          what="connection"
          name={connection.name}
          back={pathTo('workspaceConnections', { workspaceId })}
          onDelete={(values) =>
            api.DELETE('/api/v1/workspaces/{workspace_id}/connections/{connection_id}', {
              params: { ...connectionPath(workspaceId, connection.id), query: { drop_tables: values.drop_tables === 'on' } },
            })
          }
        >
          <p>A running sync stops and the schedule goes.</p>
          <label class="check">
            <input type="checkbox" name="drop_tables" /> Drop its tables too
          </label>
        </DeleteNamed>
      ) : null}
    </Page>
  );
}

interface ActionProps {
  connection: Connection;
  workspaceId: string;
  onChanged: (connection: Connection) => void;
  /** A refusal may come of a change the page has not seen (the provider refused the authorization meanwhile): the connection is read again. */
  onRefused: () => void;
  onSyncStarted: () => void;
}

/** Sync now, test, pause or resume; the outcome is said beside the buttons. */
function Actions({ connection, workspaceId, onChanged, onRefused, onSyncStarted }: ActionProps) {
  const [busy, setBusy] = useState<string | undefined>(undefined);
  const [said, setSaid] = useState<{ kind: 'success' | 'error' | 'info'; text: string } | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const path = connectionPath(workspaceId, connection.id);
  const act = (name: string, action: () => Promise<void>) => async () => {
    setBusy(name);
    setSaid(undefined);
    setError(undefined);
    try {
      await action();
    } catch (caught) {
      setError(caught);
      onRefused();
    } finally {
      setBusy(undefined);
    }
  };
  const sync = (fullRefresh: boolean) =>
    act(fullRefresh ? 'refresh' : 'sync', async () => {
      await unwrap(
        api.POST('/api/v1/workspaces/{workspace_id}/connections/{connection_id}/sync', { params: path, body: fullRefresh ? { full_refresh: true } : {} }),
      );
      onSyncStarted();
      setSaid({ kind: 'info', text: fullRefresh ? 'A full refresh has started: every stream is read whole and replaced.' : 'A sync has started.' });
    });
  const test = act('test', async () => {
    const result = await unwrap(api.POST('/api/v1/workspaces/{workspace_id}/connections/{connection_id}/test', { params: path }));
    if (!result.success) onRefused();
    setSaid({
      kind: result.success ? 'success' : 'error',
      text: `${result.success ? 'The source answered' : 'The test failed'}: ${result.message} (${result.latency_ms} ms)`,
    });
  });
  const paused = connection.status === 'paused';
  const toggle = act('pause', async () => {
    onChanged(await updateConnection(workspaceId, connection.id, { status: paused ? 'active' : 'paused' }));
    setSaid({ kind: 'info', text: paused ? 'Resumed: the schedule starts syncs again.' : 'Paused: the schedule starts no sync.' });
  });
  return (
    <div class="action-bar">
      <div class="toolbar" role="group" aria-label="Connection actions">
        <button type="button" class="button primary" disabled={busy !== undefined || connection.status === 'needs_reauth'} onClick={sync(false)}>
          {busy === 'sync' ? 'Starting…' : 'Sync now'}
        </button>
        <button type="button" class="button" disabled={busy !== undefined || connection.status === 'needs_reauth'} onClick={sync(true)}>
          {busy === 'refresh' ? 'Starting…' : 'Full refresh'}
        </button>
        <button type="button" class="button" disabled={busy !== undefined} onClick={test}>
          {busy === 'test' ? 'Testing…' : 'Test connection'}
        </button>
        <button type="button" class="button" disabled={busy !== undefined || connection.status === 'needs_reauth'} onClick={toggle}>
          {paused ? 'Resume' : 'Pause'}
        </button>
      </div>
      {said ? <Notice kind={said.kind}>{said.text}</Notice> : null}
      <ErrorNotice error={error} />
    </div>
  );
}

function Reauthorize({
  connection,
  type,
  workspaceId,
  canEdit,
}: {
  connection: Connection;
  type: ConnectorType | undefined;
  workspaceId: string;
  canEdit: boolean;
}) {
  const [error, setError] = useState<unknown>(undefined);
  return (
    <Notice kind="warning">
      <p>The provider no longer accepts this connection’s authorization: it cannot sync until it is authorized again.</p>
      {canEdit && type?.auth === 'oauth' ? (
        <p>
          <button type="button" class="button" onClick={() => startOAuth(connection.connector_type, workspaceId, connection.name).catch(setError)}>
            Re-authorize with {type.name}
          </button>
        </p>
      ) : null}
      <ErrorNotice error={error} />
    </Notice>
  );
}
