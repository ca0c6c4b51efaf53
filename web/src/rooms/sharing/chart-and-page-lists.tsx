import type { ComponentChildren } from 'preact';
import { api, unwrap } from '../../api/client';
import { Link } from '../../router/link';
import { pathTo, type PathName } from '../../router/paths';
import type { RoomProps } from '../../router/routes';
import { atLeast } from '../../session/workspaces';
import { formatTime } from '../../ui/format';
import { ErrorNotice, Loading } from '../../ui/notice';
import { Page } from '../../ui/page';
import { StatusBadge } from '../../ui/status-badge';
import { useLoad } from '../../ui/use-load';
import { useWorkspace } from '../workspaces/use-workspace';
import { loadCharts, type Chart } from './sharing-api';
import { TableHead } from '../../ui/table-head';

/** The workspace's charts: what each draws, and whether it is public. */
export function Charts({ params }: RoomProps) {
  const workspaceId = params.workspaceId ?? '';
  const list = useLoad(() => loadCharts(workspaceId), [workspaceId]);
  return (
    <Listing
      workspaceId={workspaceId}
      title="Charts"
      lead="Charts of saved queries or their own SQL, each publishable at a link of its own."
      newPath="newChart"
      newLabel="New chart"
      error={list.error}
      loading={list.loading}
    >
      {list.data ? (
        <Table
          workspaceId={workspaceId}
          kind="chart"
          items={list.data}
          detail={(chart) => `${chart.chart_type} of ${chart.saved_query ? `saved query ${chart.saved_query}` : 'its own SQL'}`}
        />
      ) : null}
    </Listing>
  );
}

/** The workspace's pages: dashboards of charts and text. */
export function Pages({ params }: RoomProps) {
  const workspaceId = params.workspaceId ?? '';
  const list = useLoad(
    () => unwrap(api.GET('/api/v1/workspaces/{workspace_id}/pages', { params: { path: { workspace_id: workspaceId }, query: { limit: 200 } } })),
    [workspaceId],
  );
  return (
    <Listing
      workspaceId={workspaceId}
      title="Pages"
      lead="Dashboards: charts and text in order, publishable at a link of their own."
      newPath="newPage"
      newLabel="New page"
      error={list.error}
      loading={list.loading}
    >
      {list.data ? (
        <Table workspaceId={workspaceId} kind="page" items={list.data} detail={(page) => `${page.blocks.length} block${page.blocks.length === 1 ? '' : 's'}`} />
      ) : null}
    </Listing>
  );
}

interface ListingProps {
  workspaceId: string;
  title: string;
  lead: string;
  newPath: PathName;
  newLabel: string;
  error: unknown;
  loading: boolean;
  children: ComponentChildren;
}

function Listing({ workspaceId, title, lead, newPath, newLabel, error, loading, children }: ListingProps) {
  const { workspace } = useWorkspace(workspaceId);
  return (
    <Page
      title={title}
      lead={lead}
      actions={
        atLeast(workspace?.role, 'MEMBER') ? (
          <Link class="button primary" href={pathTo(newPath, { workspaceId })}>
            {newLabel}
          </Link>
        ) : null
      }
    >
      <ErrorNotice error={error} />
      {loading && !children ? <Loading /> : null}
      {children}
    </Page>
  );
}

type Item = Pick<Chart, 'id' | 'name' | 'title' | 'published' | 'updated_at'>;

function Table<T extends Item>({ workspaceId, kind, items, detail }: { workspaceId: string; kind: 'chart' | 'page'; items: T[]; detail: (item: T) => string }) {
  if (items.length === 0) return <p>No {kind}s yet.</p>;
  return (
    <div class="table-wrap">
      <table class="data-table">
        <caption class="visually-hidden">{kind === 'chart' ? 'Charts' : 'Pages'}</caption>
        <TableHead columns={['Title', 'Name', 'What', 'Public', 'Saved']} />
        <tbody>
          {items.map((item) => (
            <tr key={item.id}>
              <td>
                <Link href={pathTo(kind, { workspaceId, name: item.name })}>{item.title}</Link>
              </td>
              <td class="mono">{item.name}</td>
              <td>{detail(item)}</td>
              <td>
                {item.published ? (
                  <StatusBadge status="active" label={item.published.expires_at ? `until ${formatTime(item.published.expires_at)}` : 'published'} />
                ) : (
                  'no'
                )}
              </td>
              <td>{formatTime(item.updated_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
