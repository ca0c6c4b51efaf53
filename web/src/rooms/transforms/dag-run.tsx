import { useState } from 'preact/hooks';
import { Link } from '../../router/link';
import { navigate } from '../../router/history';
import { pathTo } from '../../router/paths';
import type { RoomProps } from '../../router/routes';
import { atLeast } from '../../session/workspaces';
import { formatDuration, formatTime } from '../../ui/format';
import { ErrorNotice, Loading } from '../../ui/notice';
import { Page, Section } from '../../ui/page';
import { StatusBadge } from '../../ui/status-badge';
import { usePolled } from '../../ui/use-polled';
import { useWorkspace } from '../workspaces/use-workspace';
import { runSpan, timelineOf, TransformRunTable } from './run-history';
import { loadDagRun, runDag, runInFlight, type DagRun } from './transform-api';

/** One run: each transform's state, timing, rows and error, read live while it runs; retried from its failure. */
export function DagRunRoom({ params }: RoomProps) {
  const workspaceId = params.workspaceId ?? '';
  const dagRunId = params.dagRunId ?? '';
  const { workspace } = useWorkspace(workspaceId);
  const run = usePolled(
    () => loadDagRun(workspaceId, dagRunId),
    [workspaceId, dagRunId],
    (data) => (runInFlight(data.status) ? 1000 : null),
  );
  const [error, setError] = useState<unknown>(undefined);
  const retry = async () => {
    setError(undefined);
    try {
      const again = await runDag(workspaceId, { retry_from: dagRunId });
      navigate(pathTo('transformRun', { workspaceId, dagRunId: again.dag_run_id }));
    } catch (caught) {
      setError(caught);
    }
  };
  const data = run.data;
  return (
    <Page
      title="Transform run"
      lead={
        data ? (
          <>
            Started {formatTime(data.created_at)} · {data.trigger}
          </>
        ) : undefined
      }
    >
      <p>
        <Link href={pathTo('transforms', { workspaceId })}>All transforms</Link>
      </p>
      <ErrorNotice error={run.error} />
      {!data && run.loading ? <Loading /> : null}
      {data ? (
        <>
          <dl class="details">
            <dt>State</dt>
            <dd>
              <StatusBadge status={data.status} />
            </dd>
            <dt>Took</dt>
            <dd>{formatDuration(runSpan(data))}</dd>
            {data.retry_of ? (
              <>
                <dt>Retries</dt>
                <dd>
                  <Link href={pathTo('transformRun', { workspaceId, dagRunId: data.retry_of })}>the run before</Link>
                </dd>
              </>
            ) : null}
          </dl>
          {data.status === 'failed' && atLeast(workspace?.role, 'MEMBER') ? (
            <p>
              <button type="button" class="button" onClick={() => void retry()}>
                Retry from failure
              </button>
            </p>
          ) : null}
          <ErrorNotice error={error} />
          <Section title="Transforms of the run">
            <TransformRunTable runs={data.runs} caption="Each transform of the run, in its order" workspaceId={workspaceId} by="transform" />
          </Section>
          <Section title="Timeline">
            <Timeline run={data} />
          </Section>
        </>
      ) : null}
    </Page>
  );
}

const rowHeight = 26;
const labelWidth = 180;
const barWidth = 560;

/** The nodes' runs as bars on one time axis: which ran when, and for how long (the table above says the same in words). */
function Timeline({ run }: { run: DagRun }) {
  const placed = timelineOf(run.runs);
  const span = Math.max(1, ...placed.map((entry) => entry.offset + entry.length));
  const height = placed.length * rowHeight + 24;
  return (
    <div class="dag-scroll">
      <svg class="timeline" width={labelWidth + barWidth + 80} height={height} role="img" aria-label={`Timeline of the run over ${formatDuration(span)}`}>
        {placed.map((entry, index) => {
          const y = index * rowHeight + 4;
          const x = labelWidth + (entry.offset / span) * barWidth;
          const width = Math.max(2, (entry.length / span) * barWidth);
          return (
            <g key={entry.run.id} class={`timeline-row state-${entry.run.status}`}>
              <text x="0" y={y + 15} class="timeline-label">
                {entry.run.transform_name}
              </text>
              {entry.run.started_at ? <rect x={x} y={y + 3} width={width} height={rowHeight - 10} rx="3" class="timeline-bar" /> : null}
              <text x={entry.run.started_at ? x + width + 6 : labelWidth} y={y + 15} class="timeline-value">
                {entry.run.started_at ? formatDuration(entry.length) : entry.run.status}
              </text>
            </g>
          );
        })}
        <line x1={labelWidth} x2={labelWidth + barWidth} y1={height - 14} y2={height - 14} class="timeline-axis" />
        <text x={labelWidth} y={height - 2} class="timeline-value">
          0
        </text>
        <text x={labelWidth + barWidth} y={height - 2} class="timeline-value" text-anchor="end">
          {formatDuration(span)}
        </text>
      </svg>
    </div>
  );
}
