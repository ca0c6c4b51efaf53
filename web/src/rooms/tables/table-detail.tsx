import { useMemo, useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import { Link } from '../../router/link';
import { navigate } from '../../router/history';
import { pathTo } from '../../router/paths';
import type { RoomProps } from '../../router/routes';
import { atLeast } from '../../session/workspaces';
import { Dialog } from '../../ui/dialog';
import { Form } from '../../ui/forms';
import { ErrorNotice, Loading } from '../../ui/notice';
import { Page, Section } from '../../ui/page';
import { formatBytes, formatCount, formatSnapshotTime } from '../../ui/format';
import { memorySource, ResultsGrid } from '../../ui/results-grid';
import { useLoad } from '../../ui/use-load';
import { quoteIdentifier } from '../workbench/sql-text';
import { useWorkspace } from '../workspaces/use-workspace';
import { TableHead } from '../../ui/table-head';

/** One table: columns and types, size, key, its snapshots (time travel), a preview; dropping it. */
export function TableDetail({ params }: RoomProps) {
  const workspaceId = params.workspaceId ?? '';
  const table = params.table ?? '';
  const { workspace } = useWorkspace(workspaceId);
  const path = { workspace_id: workspaceId, table_name: table };
  const detail = useLoad(
    () => unwrap(api.GET('/api/v1/workspaces/{workspace_id}/query/tables/{table_name}/metadata', { params: { path } })),
    [workspaceId, table],
  );
  const snapshots = useLoad(
    () => unwrap(api.GET('/api/v1/workspaces/{workspace_id}/query/tables/{table_name}/history', { params: { path, query: { limit: 50 } } })),
    [workspaceId, table],
  );
  const qualified = table.split('.').map(quoteIdentifier).join('.');
  const preview = useLoad(
    () =>
      unwrap(
        api.POST('/api/v1/workspaces/{workspace_id}/query', {
          params: { path: { workspace_id: workspaceId } },
          body: { sql: `SELECT * FROM ${qualified} LIMIT 100`, format: 'json' },
        }),
      ),
    [workspaceId, table],
  );
  const previewSource = useMemo(
    () => (typeof preview.data === 'object' && 'rows' in preview.data ? memorySource(preview.data.columns, preview.data.rows) : undefined),
    [preview.data],
  );
  const [dropping, setDropping] = useState(false);
  const workbench = (sql: string) => pathTo('workbench', { workspaceId }, { sql });
  return (
    <Page
      title={table}
      actions={
        <Link class="button" href={workbench(`SELECT *\nFROM ${qualified}\nLIMIT 100`)}>
          Query in the workbench
        </Link>
      }
    >
      <p>
        <Link href={pathTo('tables', { workspaceId })}>All tables</Link>
      </p>
      {detail.loading && !detail.data ? <Loading /> : null}
      <ErrorNotice error={detail.error} />
      {detail.data ? (
        <>
          <dl class="details">
            <dt>Rows</dt>
            <dd>{formatCount(detail.data.row_count)}</dd>
            <dt>Size</dt>
            <dd>
              {formatBytes(detail.data.size_bytes)} in {formatCount(detail.data.file_count)} files
            </dd>
            <dt>Primary key</dt>
            <dd class="mono">{detail.data.primary_key?.join(', ') ?? '—'}</dd>
            <dt>Created</dt>
            <dd>{formatSnapshotTime(detail.data.created_at)}</dd>
            <dt>Last changed</dt>
            <dd>{formatSnapshotTime(detail.data.updated_at)}</dd>
            <dt>Time travel reaches back to</dt>
            <dd>{formatSnapshotTime(detail.data.earliest_snapshot_at)}</dd>
          </dl>
          <Section title="Columns">
            <div class="table-wrap">
              <table class="data-table">
                <caption class="visually-hidden">Columns of {table}</caption>
                <TableHead columns={['Column', 'Type', 'Nullable']} />
                <tbody>
                  {detail.data.columns.map((column) => (
                    <tr key={column.name}>
                      <td class="mono">{column.name}</td>
                      <td class="mono">{column.type}</td>
                      <td>{column.nullable ? 'yes' : 'no'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </Section>
        </>
      ) : null}
      <Section title="Snapshots">
        <p>Every write is a snapshot. Open the table as it was at one of them in the workbench.</p>
        <ErrorNotice error={snapshots.error} />
        {snapshots.data ? (
          <div class="table-wrap">
            <table class="data-table">
              <caption class="visually-hidden">Snapshots of {table}, newest first</caption>
              <TableHead
                columns={['Snapshot', 'Time', 'Change', 'Note', { label: 'Records written', number: true }, <span class="visually-hidden">Actions</span>]}
              />
              <tbody>
                {snapshots.data.map((snapshot) => (
                  <tr key={snapshot.snapshot_id}>
                    <td class="number">{snapshot.snapshot_id}</td>
                    <td>{formatSnapshotTime(snapshot.committed_at)}</td>
                    <td>{snapshot.changes.join(', ')}</td>
                    <td>{snapshot.message ?? '—'}</td>
                    <td class="number">{formatCount(snapshot.records_written)}</td>
                    <td>
                      <Link href={workbench(`SELECT *\nFROM ${qualified} FOR SYSTEM_TIME AS OF '${snapshot.committed_at}'\nLIMIT 100`)}>
                        Query as of then<span class="visually-hidden"> ({snapshot.committed_at})</span>
                      </Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </Section>
      <Section title="Preview">
        <ErrorNotice error={preview.error} />
        {previewSource ? <ResultsGrid source={previewSource} label={`First rows of ${table}`} /> : preview.loading ? <Loading /> : null}
      </Section>
      {atLeast(workspace?.role, 'MEMBER') ? (
        <Section title="Drop this table">
          <button type="button" class="button danger" onClick={() => setDropping(true)}>
            Drop table…
          </button>
          <Dialog title={`Drop ${table}?`} open={dropping} onClose={() => setDropping(false)}>
            <p>The table, its files and its history are deleted. It cannot be undone.</p>
            <Form
              label="Confirm dropping the table"
              submitLabel="Drop the table"
              secondary={
                <button type="button" class="button" onClick={() => setDropping(false)}>
                  Cancel
                </button>
              }
              onSubmit={async () => {
                const [schema_name = '', table_name = ''] = table.split('.');
                await unwrap(
                  api.DELETE('/api/v1/query/tables/{schema_name}/{table_name}', {
                    params: { path: { schema_name, table_name }, query: { workspace: workspaceId } },
                  }),
                );
                setDropping(false);
                navigate(pathTo('tables', { workspaceId }), { replace: true });
              }}
            >
              <span />
            </Form>
          </Dialog>
        </Section>
      ) : null}
    </Page>
  );
}
