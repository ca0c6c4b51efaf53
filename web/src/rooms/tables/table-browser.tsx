import { api, unwrap } from '../../api/client';
import { Link } from '../../router/link';
import { pathTo } from '../../router/paths';
import type { RoomProps } from '../../router/routes';
import { atLeast } from '../../session/workspaces';
import { ErrorNotice, Loading } from '../../ui/notice';
import { Page, Section } from '../../ui/page';
import { formatBytes, formatCount } from '../../ui/format';
import { useLoad } from '../../ui/use-load';
import { useWorkspace } from '../workspaces/use-workspace';
import { Upload } from './upload';
import { TableHead } from '../../ui/table-head';

type TableEntry = { name: string; schema_name: string; row_count: number; size_bytes: number; column_count: number };

/** The workspace's tables by schema, with their sizes, and the upload of a file into a table. */
export function TableBrowser({ params }: RoomProps) {
  const workspaceId = params.workspaceId ?? '';
  const { workspace } = useWorkspace(workspaceId);
  const tables = useLoad(
    () => unwrap(api.GET('/api/v1/workspaces/{workspace_id}/query/tables', { params: { path: { workspace_id: workspaceId } } })),
    [workspaceId],
  );
  const bySchema = new Map<string, TableEntry[]>();
  for (const table of tables.data?.tables ?? []) bySchema.set(table.schema_name, [...(bySchema.get(table.schema_name) ?? []), table]);
  return (
    <Page title="Tables" lead={workspace ? `The lake tables of ${workspace.name}.` : undefined}>
      {tables.loading && !tables.data ? <Loading /> : null}
      <ErrorNotice error={tables.error} />
      {tables.data && tables.data.tables.length === 0 ? <p>No tables yet. Upload a file below, push records through the API, or sync a connection.</p> : null}
      {[...bySchema].map(([schema, entries]) => (
        <Section key={schema} title={schema} id={`schema-${schema}`}>
          <div class="table-wrap">
            <table class="data-table">
              <caption class="visually-hidden">Tables of the schema {schema}</caption>
              <TableHead columns={['Table', { label: 'Rows', number: true }, { label: 'Size', number: true }, { label: 'Columns', number: true }]} />
              <tbody>
                {entries.map((table) => (
                  <tr key={table.name}>
                    <td>
                      <Link href={pathTo('table', { workspaceId, table: `${schema}.${table.name}` })} class="mono">
                        {schema}.{table.name}
                      </Link>
                    </td>
                    <td class="number">{formatCount(table.row_count)}</td>
                    <td class="number">{formatBytes(table.size_bytes)}</td>
                    <td class="number">{table.column_count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Section>
      ))}
      {atLeast(workspace?.role, 'MEMBER') ? (
        <Section title="Upload a file">
          <Upload workspaceId={workspaceId} onDone={() => void tables.reload()} />
        </Section>
      ) : null}
    </Page>
  );
}
