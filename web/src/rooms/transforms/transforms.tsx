import { useRef, useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import { Link } from '../../router/link';
import { pathTo } from '../../router/paths';
import type { RoomProps } from '../../router/routes';
import { atLeast } from '../../session/workspaces';
import { ErrorNotice, Loading, Notice } from '../../ui/notice';
import { Page, Section } from '../../ui/page';
import { ScheduleEditor } from '../../ui/schedule-editor';
import { StatusBadge } from '../../ui/status-badge';
import { useLoad } from '../../ui/use-load';
import { usePolled } from '../../ui/use-polled';
import { useWorkspace } from '../workspaces/use-workspace';
import { DagGraph } from './dag-graph';
import { RunHistory } from './run-history';
import { loadDag, loadDagRuns, runDag, runInFlight, type Dag, type DagRun, type RunRequest, type RunStatus } from './transform-api';
import { TableHead } from '../../ui/table-head';

/** The workspace's transforms: the DAG drawn with each node's state, runs of all, chosen, stale or failed nodes, the history and the schedule. */
export function Transforms({ params }: RoomProps) {
  const workspaceId = params.workspaceId ?? '';
  const { workspace } = useWorkspace(workspaceId);
  const canRun = atLeast(workspace?.role, 'MEMBER');
  const dag = useLoad(() => loadDag(workspaceId), [workspaceId]);
  const [started, setStarted] = useState(0);
  // Whether the last list of runs had one in flight.
  const latestInFlight = useRef(false);
  const runs = usePolled(
    async () => {
      const list = await loadDagRuns(workspaceId, 20);
      // A run that has just ended changes the nodes' last states and staleness.
      if (latestInFlight.current && !list.some((run) => runInFlight(run.status))) void dag.reload();
      latestInFlight.current = list.some((run) => runInFlight(run.status));
      return list;
    },
    [workspaceId, started],
    (list) => (list.some((run) => runInFlight(run.status)) ? 1000 : 10_000),
  );
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const latest = runs.data?.find((run) => !run.single);
  const states = nodeStates(dag.data, latest);
  const run = async (body: RunRequest) => {
    setBusy(true);
    setError(undefined);
    try {
      await runDag(workspaceId, body);
      setStarted((count) => count + 1);
      await dag.reload();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };
  const inFlight = latest !== undefined && runInFlight(latest.status);
  return (
    <Page
      title="Transforms"
      lead="SQL models that build tables from other tables, run in dependency order."
      actions={
        canRun ? (
          <Link class="button primary" href={pathTo('newTransform', { workspaceId })}>
            New transform
          </Link>
        ) : null
      }
    >
      <ErrorNotice error={dag.error} />
      {dag.loading && !dag.data ? <Loading /> : null}
      {dag.data ? (
        <Section title="Graph">
          {canRun && dag.data.nodes.length > 0 ? (
            <div class="toolbar" role="group" aria-label="Run transforms">
              <button type="button" class="button primary" disabled={busy} onClick={() => void run({})}>
                Run all
              </button>
              <button type="button" class="button" disabled={busy || selected.size === 0} onClick={() => void run({ transform_ids: [...selected] })}>
                Run selected ({selected.size})
              </button>
              <button type="button" class="button" disabled={busy || !dag.data.nodes.some((node) => node.stale)} onClick={() => void run({ only_stale: true })}>
                Run stale only
              </button>
              <button
                type="button"
                class="button"
                disabled={busy || latest?.status !== 'failed'}
                onClick={() => latest && void run({ retry_from: latest.dag_run_id })}
              >
                Retry from failure
              </button>
              {selected.size > 0 ? (
                <button type="button" class="button ghost" onClick={() => setSelected(new Set())}>
                  Clear selection
                </button>
              ) : null}
            </div>
          ) : null}
          <ErrorNotice error={error} />
          {inFlight ? <Notice kind="info">A run is in progress: the graph shows each transform’s state as it goes.</Notice> : null}
          {latest && !inFlight ? (
            <p class="field-hint" role="status">
              Last run <StatusBadge status={latest.status} /> <Link href={pathTo('transformRun', { workspaceId, dagRunId: latest.dag_run_id })}>details</Link>
            </p>
          ) : null}
          <DagGraph dag={dag.data} states={states} selected={selected} onToggle={toggle} />
          <p class="field-hint">Choose transforms in the graph (click, or Space on a focused node) to run them with what they depend on.</p>
        </Section>
      ) : null}
      {dag.data && dag.data.nodes.length > 0 ? <TransformTable workspaceId={workspaceId} dag={dag.data} states={states} /> : null}
      <Section title="Run history">
        <ErrorNotice error={runs.error} />
        {runs.data ? <RunHistory workspaceId={workspaceId} runs={runs.data} dag={dag.data} /> : <Loading />}
      </Section>
      <Section title="Schedule">
        <WorkspaceSchedule workspaceId={workspaceId} canEdit={canRun} />
      </Section>
    </Page>
  );
}

function nodeStates(dag: Dag | undefined, latest: DagRun | undefined): Map<string, RunStatus | null> {
  const states = new Map<string, RunStatus | null>((dag?.nodes ?? []).map((node) => [node.id, node.last_run_status]));
  if (latest && runInFlight(latest.status)) for (const run of latest.runs) states.set(run.transform_id, run.status);
  return states;
}

function TransformTable({ workspaceId, dag, states }: { workspaceId: string; dag: Dag; states: Map<string, RunStatus | null> }) {
  return (
    <Section title="All transforms">
      <div class="table-wrap">
        <table class="data-table">
          <caption class="visually-hidden">Transforms in run order</caption>
          <TableHead columns={['Name', 'Writes', 'Materialization', 'Last state', 'Runs after']} />
          <tbody>
            {dag.order.map((id) => {
              const node = dag.nodes.find((candidate) => candidate.id === id);
              if (!node) return null;
              const after = dag.edges
                .filter((edge) => edge.to === id)
                .map((edge) => dag.nodes.find((candidate) => candidate.id === edge.from)?.name ?? edge.from);
              return (
                <tr key={id}>
                  <td>
                    <Link href={pathTo('transform', { workspaceId, transformId: id })}>{node.name}</Link>
                  </td>
                  <td class="mono">{node.target_table}</td>
                  <td>{node.materialization}</td>
                  <td>
                    <StatusBadge status={states.get(id) ?? 'never'} label={states.get(id) ? undefined : 'never run'} />{' '}
                    {node.stale ? <StatusBadge status="stale" /> : null}
                  </td>
                  <td>{after.length > 0 ? after.join(', ') : '—'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </Section>
  );
}

function WorkspaceSchedule({ workspaceId, canEdit }: { workspaceId: string; canEdit: boolean }) {
  const path = { params: { path: { workspace_id: workspaceId } } };
  const schedule = useLoad(() => unwrap(api.GET('/api/v1/workspaces/{workspace_id}/transforms/schedule', path)), [workspaceId]);
  if (!schedule.data) return schedule.error ? <ErrorNotice error={schedule.error} /> : <Loading />;
  return (
    <ScheduleEditor
      schedule={schedule.data.schedule}
      nextRuns={schedule.data.next_runs}
      canEdit={canEdit}
      what="every transform"
      onSave={async (next) => {
        if (next === null) await unwrap(api.DELETE('/api/v1/workspaces/{workspace_id}/transforms/schedule', path));
        else await unwrap(api.PUT('/api/v1/workspaces/{workspace_id}/transforms/schedule', { ...path, body: { schedule: next } }));
        await schedule.reload();
      }}
    />
  );
}
