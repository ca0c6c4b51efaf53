import { api, unwrap } from '../../api/client';
import type { RoomProps } from '../../router/routes';
import { atLeast } from '../../session/workspaces';
import { Loading, Notice } from '../../ui/notice';
import { Page, Section } from '../../ui/page';
import { formatTime } from '../../ui/format';
import { useLoad } from '../../ui/use-load';
import { DeleteWorkspace } from './delete-workspace';
import { Members } from './members';
import { TransferOwnership } from './transfer-ownership';
import { useWorkspace } from './use-workspace';

/** A workspace's details, members and invitations, ownership and deletion. */
export function Settings({ params }: RoomProps) {
  const workspaceId = params.workspaceId ?? '';
  const { workspace, loaded } = useWorkspace(workspaceId);
  const members = useLoad(
    () => unwrap(api.GET('/api/v1/workspaces/{workspace_id}/members', { params: { path: { workspace_id: workspaceId }, query: { limit: 200 } } })),
    [workspaceId],
  );
  if (!loaded) return <Loading />;
  if (!workspace) return <Notice kind="error">You are not a member of this workspace, or it no longer exists.</Notice>;
  const role = workspace.role;
  return (
    <Page title={`Settings of ${workspace.name}`}>
      <Section title="Details">
        <dl class="details">
          <dt>Name</dt>
          <dd>{workspace.name}</dd>
          <dt>Slug</dt>
          <dd class="mono">{workspace.slug}</dd>
          <dt>Id</dt>
          <dd class="mono">{workspace.id}</dd>
          <dt>Region</dt>
          <dd>{workspace.region}</dd>
          <dt>Plan</dt>
          <dd>{workspace.plan}</dd>
          <dt>Created</dt>
          <dd>{formatTime(workspace.created_at)}</dd>
          <dt>Your role</dt>
          <dd>{role}</dd>
        </dl>
      </Section>
      <Members workspaceId={workspaceId} role={role} members={members} />
      {role === 'OWNER' ? <TransferOwnership workspace={workspace} members={members.data ?? []} onDone={members.reload} /> : null}
      {atLeast(role, 'OWNER') ? <DeleteWorkspace workspace={workspace} /> : null}
    </Page>
  );
}
