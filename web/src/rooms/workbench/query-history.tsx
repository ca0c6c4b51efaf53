import { api, unwrap } from '../../api/client';
import { ApiError } from '../../api/errors';
import { formatBytes, formatDuration, formatTime } from '../../ui/format';
import { ErrorNotice, Loading } from '../../ui/notice';
import { useLoad } from '../../ui/use-load';

/** The workspace's recent queries (everyone's, from every client), newest first; one opens in the editor. */
export function QueryHistory({ workspaceId, version, onOpen }: { workspaceId: string; version: number; onOpen: (sql: string) => void }) {
  const history = useLoad(
    () => unwrap(api.GET('/api/v1/workspaces/{workspace_id}/queries', { params: { path: { workspace_id: workspaceId }, query: { limit: 50 } } })),
    [workspaceId, version],
  );
  return (
    <div class="history">
      {history.loading && !history.data ? <Loading /> : null}
      {history.error instanceof ApiError && history.error.status === 404 ? <p>This service keeps no query history.</p> : <ErrorNotice error={history.error} />}
      {history.data?.length === 0 ? <p>No queries yet.</p> : null}
      <ol class="history-list">
        {(history.data ?? []).map((entry) => (
          <li key={entry.query_id} class={`history-entry status-${entry.status}`}>
            <div class="history-meta">
              <span class={`badge badge-${entry.status}`}>{entry.status}</span> <span>{entry.kind}</span> ·{' '}
              <time dateTime={entry.started_at}>{formatTime(entry.started_at)}</time> · {formatDuration(entry.duration_ms)} · {formatBytes(entry.bytes_scanned)}
              {entry.error_code ? <> · {entry.error_code}</> : null}
            </div>
            <pre class="history-sql mono">{entry.sql.length > 300 ? `${entry.sql.slice(0, 300)}…` : entry.sql}</pre>
            <button type="button" class="button small" onClick={() => onOpen(entry.sql)}>
              Open in the editor<span class="visually-hidden">: {entry.sql.slice(0, 60)}</span>
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}
