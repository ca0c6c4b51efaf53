import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import { formatCount } from '../../ui/format';
import { Form } from '../../ui/forms';
import { ErrorNotice, Loading, Notice } from '../../ui/notice';
import { memorySource, ResultsGrid } from '../../ui/results-grid';
import { useLoad } from '../../ui/use-load';
import { connectionPath, syncModeLabels, updateConnection, type Connection, type ConfiguredStream, type StreamInfo, type SyncMode } from './connection-api';
import { TableHead } from '../../ui/table-head';

interface Choice {
  included: boolean;
  mode: SyncMode;
  cursor: string;
  key: string;
}

interface Props {
  workspaceId: string;
  connection: Connection;
  canEdit: boolean;
  onSaved: (connection: Connection) => void;
  /** The source refused the discovery: the connection's state may have changed with it (needing authorization). */
  onRefused: () => void;
}

/**
 * The streams the source offers (discovered from it now) and how each syncs: included or not, its
 * sync mode, its cursor among the candidates, its primary key; a preview of a stream's first rows.
 */
export function StreamsPanel({ workspaceId, connection, canEdit, onSaved, onRefused }: Props) {
  const path = connectionPath(workspaceId, connection.id);
  const streams = useLoad(
    () => unwrap(api.GET('/api/v1/workspaces/{workspace_id}/connections/{connection_id}/streams', { params: path })),
    [workspaceId, connection.id],
  );
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  const [saved, setSaved] = useState(false);
  const [previewing, setPreviewing] = useState<string | undefined>(undefined);
  useEffect(() => {
    if (streams.data) setChoices(choicesOf(streams.data, connection.streams));
  }, [streams.data, connection.streams]);
  useEffect(() => {
    if (streams.error) onRefused();
  }, [streams.error]);
  const change = (name: string, patch: Partial<Choice>) => {
    setSaved(false);
    setChoices((all) => ({ ...all, [name]: { ...all[name]!, ...patch } }));
  };
  const save = async () => {
    const list = (streams.data ?? []).filter((stream) => choices[stream.name]?.included).map((stream) => configured(stream, choices[stream.name]!));
    onSaved(await updateConnection(workspaceId, connection.id, { streams: list }));
    setSaved(true);
  };
  if (streams.loading && !streams.data) return <Loading label="Reading the source's streams…" />;
  if (!streams.data) return <ErrorNotice error={streams.error} />;
  return (
    <div>
      <Form label="Streams" submitLabel="Save streams" busyLabel="Saving…" onSubmit={save} secondary={saved ? <span role="status">Saved.</span> : null}>
        <div class="table-wrap">
          <table class="data-table">
            <caption class="visually-hidden">Streams of {connection.name}</caption>
            <TableHead
              columns={[
                'Sync',
                'Stream',
                'Mode',
                'Cursor',
                'Primary key',
                { label: 'Rows (about)', number: true },
                <span class="visually-hidden">Preview</span>,
              ]}
            />
            <tbody>
              {streams.data.map((stream) => {
                const choice = choices[stream.name];
                if (!choice) return null;
                const incremental = choice.mode.startsWith('incremental');
                return (
                  <tr key={stream.name}>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Sync ${stream.name}`}
                        checked={choice.included}
                        disabled={!canEdit || stream.status === 'unavailable'}
                        onChange={(event) => change(stream.name, { included: event.currentTarget.checked })}
                      />
                    </td>
                    <td class="mono">
                      {stream.name}
                      {stream.status === 'unavailable' ? <span class="field-hint"> (unavailable: {stream.reason})</span> : null}
                    </td>
                    <td>
                      <select
                        aria-label={`Sync mode of ${stream.name}`}
                        value={choice.mode}
                        disabled={!canEdit}
                        onChange={(event) => change(stream.name, { mode: event.currentTarget.value as SyncMode })}
                      >
                        {stream.supported_sync_modes.map((mode) => (
                          <option key={mode} value={mode}>
                            {syncModeLabels[mode]}
                          </option>
                        ))}
                      </select>
                    </td>
                    <td>
                      {stream.source_defined_cursor ? (
                        <span class="mono">{stream.default_cursor_field ?? 'the source’s own'}</span>
                      ) : (
                        <select
                          aria-label={`Cursor of ${stream.name}`}
                          value={choice.cursor}
                          disabled={!canEdit || !incremental}
                          onChange={(event) => change(stream.name, { cursor: event.currentTarget.value })}
                        >
                          <option value="">—</option>
                          {stream.cursor_candidates.map((candidate) => (
                            <option key={candidate} value={candidate}>
                              {candidate}
                            </option>
                          ))}
                        </select>
                      )}
                    </td>
                    <td>
                      <input
                        class="mono key-input"
                        aria-label={`Primary key of ${stream.name}`}
                        value={choice.key}
                        readOnly={!canEdit}
                        onInput={(event) => change(stream.name, { key: event.currentTarget.value })}
                      />
                    </td>
                    <td class="number">{formatCount(stream.row_estimate)}</td>
                    <td>
                      <button
                        type="button"
                        class="button small"
                        aria-pressed={previewing === stream.name}
                        onClick={() => setPreviewing(previewing === stream.name ? undefined : stream.name)}
                      >
                        Preview<span class="visually-hidden"> {stream.name}</span>
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        <p class="field-hint">
          An incremental mode needs a cursor (unless the source keeps its own); deduplication needs a primary key (columns separated by commas).
        </p>
      </Form>
      {previewing ? <StreamPreview workspaceId={workspaceId} connectionId={connection.id} stream={previewing} /> : null}
    </div>
  );
}

function StreamPreview({ workspaceId, connectionId, stream }: { workspaceId: string; connectionId: string; stream: string }) {
  const preview = useLoad(
    () =>
      unwrap(
        api.POST('/api/v1/workspaces/{workspace_id}/connections/{connection_id}/preview', {
          params: connectionPath(workspaceId, connectionId),
          body: { stream, limit: 20 },
        }),
      ),
    [workspaceId, connectionId, stream],
  );
  const source = useMemo(() => (preview.data ? memorySource(preview.data.columns, preview.data.rows) : undefined), [preview.data]);
  return (
    <section class="stream-preview" aria-label={`Preview of ${stream}`}>
      <h3>Preview of {stream}</h3>
      <ErrorNotice error={preview.error} />
      {source ? <ResultsGrid source={source} label={`First rows of ${stream} at the source`} /> : preview.loading ? <Loading /> : null}
      {preview.data && preview.data.row_count === 0 ? <Notice kind="info">The stream has no rows.</Notice> : null}
    </section>
  );
}

function choicesOf(streams: StreamInfo[], configuredStreams: ConfiguredStream[] | null): Record<string, Choice> {
  const byName = new Map((configuredStreams ?? []).map((stream) => [stream.name, stream]));
  return Object.fromEntries(
    streams.map((stream) => {
      const chosen = byName.get(stream.name);
      const included = configuredStreams === null ? stream.status !== 'unavailable' : chosen !== undefined;
      const mode = (chosen?.sync_mode ?? 'full_refresh_overwrite') as SyncMode;
      return [
        stream.name,
        { included, mode, cursor: chosen?.cursor_field ?? stream.default_cursor_field ?? '', key: (chosen?.primary_key ?? stream.primary_key).join(', ') },
      ];
    }),
  );
}

function configured(stream: StreamInfo, choice: Choice): ConfiguredStream {
  const key = choice.key
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const incremental = choice.mode.startsWith('incremental');
  return {
    name: stream.name,
    sync_mode: choice.mode,
    ...(incremental && choice.cursor && !stream.source_defined_cursor ? { cursor_field: choice.cursor } : {}),
    ...(key.length > 0 ? { primary_key: key } : {}),
  };
}
