import { useEffect } from 'preact/hooks';
import { Link } from '../../router/link';
import { navigate, useLocation } from '../../router/history';
import { pathTo, paths } from '../../router/paths';
import type { RoomProps } from '../../router/routes';
import { lastWorkspace, useWorkspaces } from '../../session/workspaces';
import { ErrorNotice, Loading } from '../../ui/notice';
import { Page } from '../../ui/page';
import { CreateWorkspaceForm } from './new-workspace';
import { TableHead } from '../../ui/table-head';

/** `/` opens the workspace used last; `/workspaces` lists them all. Without any, the first is made here. */
export function Home() {
  const { list, loaded, error } = useWorkspaces();
  const { pathname } = useLocation();
  const start = lastWorkspace(list);
  const opening = pathname === paths.home && start !== undefined;
  useEffect(() => {
    if (opening && start) navigate(pathTo('workbench', { workspaceId: start.id }), { replace: true });
  }, [opening, start?.id]);
  if (!loaded) return <Loading />;
  if (opening) return <Loading />;
  if (list.length === 0) {
    return (
      <Page title="Create your first workspace" lead="A workspace holds tables, queries and members. You are its owner.">
        <ErrorNotice error={error} />
        <CreateWorkspaceForm />
      </Page>
    );
  }
  return (
    <Page
      title="Workspaces"
      actions={
        <Link class="button primary" href={pathTo('newWorkspace')}>
          New workspace
        </Link>
      }
    >
      <ErrorNotice error={error} />
      <div class="table-wrap">
        <table class="data-table">
          <caption class="visually-hidden">Your workspaces</caption>
          <TableHead columns={['Name', 'Slug', 'Your role', 'Plan']} />
          <tbody>
            {list.map((workspace) => (
              <tr key={workspace.id}>
                <td>
                  <Link href={pathTo('workbench', { workspaceId: workspace.id })}>{workspace.name}</Link>
                </td>
                <td class="mono">{workspace.slug}</td>
                <td>{workspace.role}</td>
                <td>{workspace.plan}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Page>
  );
}

/** `/workspaces/<id>` opens its SQL workbench. */
export function OpenWorkspace({ params }: RoomProps) {
  useEffect(() => navigate(pathTo('workbench', { workspaceId: params.workspaceId ?? '' }), { replace: true }), [params.workspaceId]);
  return <Loading />;
}
