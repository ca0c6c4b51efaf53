import { Link } from '../../router/link';
import { pathTo } from '../../router/paths';
import { formatCount, formatDuration, formatTime } from '../../ui/format';
import { StatusBadge } from '../../ui/status-badge';
import type { Dag, DagRun, TransformRun } from './transform-api';
import { TableHead } from '../../ui/table-head';

/** Runs of the DAG and of single transforms, newest first, each linking to its nodes' timing and errors. */
export function RunHistory({ workspaceId, runs, dag }: { workspaceId: string; runs: DagRun[]; dag: Dag | undefined }) {
  if (runs.length === 0) return <p>No runs yet.</p>;
  const nameOf = (id: string) => dag?.nodes.find((node) => node.id === id)?.name ?? id;
  return (
    <div class="table-wrap">
      <table class="data-table">
        <caption class="visually-hidden">Transform runs, newest first</caption>
        <TableHead columns={['Started', 'State', 'What', 'Trigger', { label: 'Took', number: true }, { label: 'Rows written', number: true }]} />
        <tbody>
          {runs.map((run) => (
            <tr key={run.dag_run_id}>
              <td>
                <Link href={pathTo('transformRun', { workspaceId, dagRunId: run.dag_run_id })}>{formatTime(run.created_at)}</Link>
              </td>
              <td>
                <StatusBadge status={run.status} />
              </td>
              <td>
                {run.single ? `only ${nameOf(run.order[0] ?? '')}` : `${run.order.length} transform${run.order.length === 1 ? '' : 's'}`}
                {run.retry_of ? ' (retry)' : ''}
              </td>
              <td>{run.trigger}</td>
              <td class="number">{formatDuration(runSpan(run))}</td>
              <td class="number">{formatCount(run.runs.reduce((sum, node) => sum + (node.rows_written ?? 0), 0))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** From the run's creation to its end (or null while it runs). */
export function runSpan(run: DagRun): number | null {
  return run.finished_at ? Date.parse(run.finished_at) - Date.parse(run.created_at) : null;
}

/** Where each node's run sits in time, for the timeline: offset and length from the first start, in ms. */
export function timelineOf(runs: TransformRun[]): { run: TransformRun; offset: number; length: number }[] {
  const starts = runs.map((run) => (run.started_at ? Date.parse(run.started_at) : Number.NaN)).filter(Number.isFinite);
  const origin = starts.length > 0 ? Math.min(...starts) : 0;
  return runs.map((run) => {
    const start = run.started_at ? Date.parse(run.started_at) : Number.NaN;
    if (!Number.isFinite(start)) return { run, offset: 0, length: 0 };
    const end = run.finished_at ? Date.parse(run.finished_at) : Date.now();
    return { run, offset: start - origin, length: Math.max(0, end - start) };
  });
}

/**
 * Runs of transforms, one a row: in a DAG run, each transform with its start (`by: 'transform'`);
 * of one transform, each run with its trigger (`by: 'run'`), linking to its DAG run.
 */
export function TransformRunTable({ runs, caption, workspaceId, by }: { runs: TransformRun[]; caption: string; workspaceId: string; by: 'transform' | 'run' }) {
  return (
    <div class="table-wrap">
      <table class="data-table">
        <caption class="visually-hidden">{caption}</caption>
        <TableHead
          columns={[
            by === 'transform' ? 'Transform' : 'Started',
            'State',
            by === 'transform' ? 'Started' : 'Trigger',
            { label: 'Took', number: true },
            { label: 'Rows written', number: true },
            'Error',
          ]}
        />
        <tbody>
          {runs.map((run) => (
            <tr key={run.id}>
              <td>
                {by === 'transform' ? (
                  <Link href={pathTo('transform', { workspaceId, transformId: run.transform_id })}>{run.transform_name}</Link>
                ) : run.dag_run_id ? (
                  <Link href={pathTo('transformRun', { workspaceId, dagRunId: run.dag_run_id })}>{formatTime(run.started_at)}</Link>
                ) : (
                  formatTime(run.started_at)
                )}
              </td>
              <td>
                <StatusBadge status={run.status} />
              </td>
              <td>{by === 'transform' ? formatTime(run.started_at) : run.trigger}</td>
              <td class="number">{formatDuration(run.duration_ms)}</td>
              <td class="number">{formatCount(run.rows_written)}</td>
              <td>
                {run.error ? (
                  <>
                    <span class="mono">{run.error.code}</span>: {run.error.message}
                    {run.error.hint ? <span class="field-hint"> {run.error.hint}</span> : null}
                  </>
                ) : (
                  '—'
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
