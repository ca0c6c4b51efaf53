import { useRef } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import { formatBytes, formatCount, formatDuration, formatTime } from '../../ui/format';
import { ErrorNotice } from '../../ui/notice';
import { StatusBadge } from '../../ui/status-badge';
import { usePolled } from '../../ui/use-polled';
import { connectionPath, syncInFlight, syncModeLabels, type SyncJob, type SyncMode } from './connection-api';
import { TableHead } from '../../ui/table-head';

interface Props {
  workspaceId: string;
  connectionId: string;
  /** Changes when a sync was started here: the list is read again at once. */
  version: number;
  /** Told when a sync ends, so the connection's own state (last sync) is read again. */
  onSettled: () => void;
}

/** The connection's syncs, newest first; one in flight is read again every second with its streams' counts. */
export function SyncHistory({ workspaceId, connectionId, version, onSettled }: Props) {
  // Whether the last list read had a sync in flight: one that has ended since tells the room.
  const wasInFlight = useRef(false);
  const jobs = usePolled(
    async () => {
      const list = await unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/connections/{connection_id}/sync-jobs', {
          params: { ...connectionPath(workspaceId, connectionId), query: { limit: 10 } },
        }),
      );
      const inFlight = list.some(syncInFlight);
      if (wasInFlight.current && !inFlight) onSettled();
      wasInFlight.current = inFlight;
      return list;
    },
    [workspaceId, connectionId, version],
    // A sync in flight is read every second; otherwise a scheduled or OAuth sync may start at any time.
    (list) => (list.some(syncInFlight) ? 1000 : 5000),
  );
  return (
    <div>
      <ErrorNotice error={jobs.error} />
      {jobs.data && jobs.data.length === 0 ? <p>No syncs yet.</p> : null}
      <ol class="sync-list">
        {(jobs.data ?? []).map((job) => (
          <li key={job.id}>
            <SyncJobCard job={job} />
          </li>
        ))}
      </ol>
    </div>
  );
}

function SyncJobCard({ job }: { job: SyncJob }) {
  const running = syncInFlight(job);
  const read = job.records_read ?? job.streams.reduce((sum, stream) => sum + stream.records_read, 0);
  return (
    <article class="sync-job" aria-label={`Sync of ${formatTime(job.created_at)}`}>
      <header class="sync-job-header">
        <StatusBadge status={job.status} />
        <span>{formatTime(job.started_at ?? job.created_at)}</span>
        <span class="muted">{job.trigger}</span>
        {job.duration_ms !== null ? <span class="muted">{formatDuration(job.duration_ms)}</span> : null}
        <span>{formatCount(job.records_written)} records written</span>
      </header>
      {running ? (
        <div class="progress-row" role="status">
          <progress aria-label="Sync progress" />
          <span>
            {job.current_stream ? `Reading ${job.current_stream}: ` : job.status === 'pending' ? 'Waiting to start. ' : ''}
            {formatCount(read)} records read, {formatCount(job.records_written)} written
          </span>
        </div>
      ) : null}
      {job.error ? (
        <p class="field-error">
          {job.error.code}: {job.error.message}
        </p>
      ) : null}
      {job.streams.length > 0 ? (
        <div class="table-wrap">
          <table class="data-table">
            <caption class="visually-hidden">Streams of the sync</caption>
            <TableHead
              columns={[
                'Stream',
                'State',
                'Mode',
                { label: 'Read', number: true },
                { label: 'Written', number: true },
                { label: 'Bytes', number: true },
                'Note',
              ]}
            />
            <tbody>
              {job.streams.map((stream) => (
                <tr key={stream.name}>
                  <td class="mono">{stream.name}</td>
                  <td>
                    <StatusBadge status={stream.status} />
                  </td>
                  <td>{syncModeLabels[stream.sync_mode as SyncMode] ?? stream.sync_mode}</td>
                  <td class="number">{formatCount(stream.records_read)}</td>
                  <td class="number">{formatCount(stream.records_written)}</td>
                  <td class="number">{formatBytes(stream.bytes_read)}</td>
                  <td>{stream.error ?? stream.reason ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {job.schema_changes.length > 0 ? (
        <p class="field-hint">
          Schema changes:{' '}
          {job.schema_changes.map((change) => `${change.table}.${change.column} ${change.change}${change.to ? ` (${change.to})` : ''}`).join('; ')}
        </p>
      ) : null}
    </article>
  );
}
