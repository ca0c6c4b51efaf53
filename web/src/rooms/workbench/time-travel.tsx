import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import { formatSnapshotTime } from '../../ui/format';
import { ErrorNotice } from '../../ui/notice';
import { useLoad } from '../../ui/use-load';
import { quoteIdentifier } from './sql-text';

/**
 * Time travel: a table and a moment (one of its snapshots, or any time since its earliest), put
 * into the query as `<table> FOR SYSTEM_TIME AS OF '<time>'` at the cursor.
 */
export function TimeTravelPicker({ workspaceId, tables, onInsert }: { workspaceId: string; tables: string[]; onInsert: (text: string) => void }) {
  const [table, setTable] = useState('');
  const [moment, setMoment] = useState('');
  const [custom, setCustom] = useState('');
  const chosen = table || tables[0] || '';
  const snapshots = useLoad(
    () =>
      chosen
        ? unwrap(
            api.GET('/api/v1/workspaces/{workspace_id}/query/tables/{table_name}/history', {
              params: { path: { workspace_id: workspaceId, table_name: chosen }, query: { limit: 50 } },
            }),
          )
        : Promise.resolve([]),
    [workspaceId, chosen],
  );
  const time = moment === 'custom' ? (custom ? new Date(`${custom}Z`).toISOString() : '') : moment || snapshots.data?.[0]?.committed_at || '';
  const insert = () => {
    if (!chosen || !time) return;
    onInsert(`${chosen.split('.').map(quoteIdentifier).join('.')} FOR SYSTEM_TIME AS OF '${time}'`);
  };
  if (tables.length === 0) return <p class="field-hint">Time travel needs a table: there is none yet.</p>;
  return (
    <fieldset class="time-travel">
      <legend>Time travel</legend>
      <div class="field">
        <label for="tt-table">Table</label>
        <select id="tt-table" value={chosen} onChange={(event) => (setTable(event.currentTarget.value), setMoment(''))}>
          {tables.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="tt-moment">As of</label>
        <select id="tt-moment" value={moment} onChange={(event) => setMoment(event.currentTarget.value)}>
          <option value="">Latest snapshot</option>
          {(snapshots.data ?? []).map((snapshot) => (
            <option key={snapshot.snapshot_id} value={snapshot.committed_at}>
              {formatSnapshotTime(snapshot.committed_at)} · {snapshot.changes.join(', ')} · snapshot {snapshot.snapshot_id}
            </option>
          ))}
          <option value="custom">Another time…</option>
        </select>
      </div>
      {moment === 'custom' ? (
        <div class="field">
          <label for="tt-custom">Time (UTC)</label>
          <input id="tt-custom" type="datetime-local" step={1} value={custom} onInput={(event) => setCustom(event.currentTarget.value)} />
        </div>
      ) : null}
      <ErrorNotice error={snapshots.error} />
      <button type="button" class="button" onClick={insert} disabled={!time}>
        Insert at the cursor
      </button>
    </fieldset>
  );
}
