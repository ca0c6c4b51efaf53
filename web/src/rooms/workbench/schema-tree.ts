import { useEffect, useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';

/** What completion knows: `{ schema: { table: [columns] } }`. */
export type SchemaTree = Record<string, Record<string, string[]>>;

/** Tables whose columns are fetched for completion, at most: past that, names only. */
const columnTables = 200;
const parallel = 4;

/**
 * The workspace's schemas, tables and columns for the editor: the table list at once, then each
 * table's columns a few requests at a time, the tree growing as they arrive.
 */
export function useSchemaTree(workspaceId: string, version: number): { tree: SchemaTree; tables: string[] } {
  const [state, setState] = useState<{ tree: SchemaTree; tables: string[] }>({ tree: {}, tables: [] });
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      const listing = await unwrap(api.GET('/api/v1/workspaces/{workspace_id}/query/tables', { params: { path: { workspace_id: workspaceId } } })).catch(
        () => ({ tables: [] }),
      );
      const tree: SchemaTree = {};
      for (const table of listing.tables) (tree[table.schema_name] ??= {})[table.name] = [];
      const tables = listing.tables.map((table) => `${table.schema_name}.${table.name}`);
      if (cancelled) return;
      setState({ tree: { ...tree }, tables });
      const queue = tables.slice(0, columnTables);
      const worker = async () => {
        for (let name = queue.shift(); name !== undefined && !cancelled; name = queue.shift()) {
          const detail = await unwrap(
            api.GET('/api/v1/workspaces/{workspace_id}/query/tables/{table_name}/metadata', {
              params: { path: { workspace_id: workspaceId, table_name: name } },
            }),
          ).catch(() => undefined);
          if (!detail) continue;
          tree[detail.schema_name] = { ...tree[detail.schema_name], [detail.name]: detail.columns.map((column) => column.name) };
        }
      };
      await Promise.all(Array.from({ length: parallel }, worker));
      if (!cancelled) setState({ tree: { ...tree }, tables });
    })();
    return () => {
      cancelled = true;
    };
  }, [workspaceId, version]);
  return state;
}
