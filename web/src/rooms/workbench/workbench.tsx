import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { components } from '../../api/schema';
import type { RoomProps } from '../../router/routes';
import { ErrorNotice, Notice } from '../../ui/notice';
import { Page, Section } from '../../ui/page';
import { formatBytes, formatCount, formatDuration, formatEuros } from '../../ui/format';
import { memorySource, type ResultSource } from '../../ui/results-grid';
import { useWorkspace } from '../workspaces/use-workspace';
import type { SqlEditorHandle } from './codemirror-editor';
import { JobPanel } from './job-panel';
import { QueryHistory } from './query-history';
import { ResultView } from './result-view';
import { useSchemaTree } from './schema-tree';
import { SqlEditor } from './sql-editor';
import { errorPosition } from './sql-text';
import { TimeTravelPicker } from './time-travel';

type Estimate = components['schemas']['EstimateOnlyResponse'];
type QueryResult = components['schemas']['QueryResponse'];

type Outcome =
  | { kind: 'result'; result: QueryResult; source: ResultSource }
  | { kind: 'estimate'; estimate: Estimate }
  | { kind: 'job'; jobId: string }
  | { kind: 'error'; error: unknown; sql: string };

const draftKey = (workspaceId: string) => `oxbow.console.sql.${workspaceId}`;

/**
 * The SQL workbench: write Postgres-flavoured SQL with completion of the workspace's tables and
 * columns, estimate its scan and cost, run it (or run it as a durable job with progress and
 * cancel), page through the result, chart it, download it; errors are marked where they are.
 */
export function Workbench({ params, search }: RoomProps) {
  const workspaceId = params.workspaceId ?? '';
  const { workspace } = useWorkspace(workspaceId);
  const [sql, setSql] = useState(() => search.get('sql') ?? sessionStorage.getItem(draftKey(workspaceId)) ?? 'SELECT 42 AS answer');
  const [outcome, setOutcome] = useState<Outcome | undefined>(undefined);
  const [busy, setBusy] = useState<string | undefined>(undefined);
  const [historyVersion, setHistoryVersion] = useState(0);
  const editor = useRef<SqlEditorHandle | undefined>(undefined);
  const { tree, tables } = useSchemaTree(workspaceId, historyVersion);

  /** A text from elsewhere (history, a link): into the editor, which reports it back as typing would. */
  const replaceSql = (text: string) => {
    setSql(text);
    editor.current?.setDoc(text);
  };
  useEffect(() => sessionStorage.setItem(draftKey(workspaceId), sql), [workspaceId, sql]);
  useEffect(() => {
    const given = search.get('sql');
    if (given) replaceSql(given);
  }, [search.get('sql')]);

  const attempt = async (label: string, work: () => Promise<Outcome>) => {
    if (busy) return;
    setBusy(label);
    try {
      setOutcome(await work());
    } catch (error) {
      setOutcome({ kind: 'error', error, sql });
    } finally {
      setBusy(undefined);
      setHistoryVersion((version) => version + 1);
    }
  };
  const query = (extra: { estimate_only?: boolean; force?: boolean }) =>
    unwrap(api.POST('/api/v1/workspaces/{workspace_id}/query', { params: { path: { workspace_id: workspaceId } }, body: { sql, format: 'json', ...extra } }));
  const run = (force = false) =>
    attempt('Running…', async () => {
      const answer = await query({ force });
      if (typeof answer !== 'object' || !('rows' in answer)) throw new Error('The service answered in another format');
      return { kind: 'result', result: answer, source: memorySource(answer.columns, answer.rows) };
    });
  const estimate = () =>
    attempt('Estimating…', async () => {
      const answer = await query({ estimate_only: true });
      if (typeof answer !== 'object' || !('estimate_only' in answer)) throw new Error('The service answered without an estimate');
      return { kind: 'estimate', estimate: answer };
    });
  const runAsJob = () =>
    attempt('Submitting…', async () => {
      const submitted = await unwrap(api.POST('/api/v1/query/jobs', { body: { sql, workspace_id: workspaceId, format: 'json' } }));
      return { kind: 'job', jobId: submitted.job_id };
    });

  const failure = outcome?.kind === 'error' ? outcome : undefined;
  const position = useMemo(() => (failure ? errorPosition(failure.sql, failure.error) : undefined), [failure]);
  const marked = position && failure?.sql === sql && failure.error instanceof ApiError ? { position, message: failure.error.message } : undefined;
  const tooLarge = failure?.error instanceof ApiError && failure.error.code === 'QUERY_TOO_LARGE';

  return (
    <Page
      title="SQL workbench"
      lead={
        workspace ? (
          <>
            Queries run in <strong>{workspace.name}</strong>; tables are <span class="mono">schema.table</span>.
          </>
        ) : undefined
      }
    >
      <div class="workbench">
        <div class="workbench-main">
          <div class="toolbar" role="toolbar" aria-label="Query">
            <button type="button" class="button primary" onClick={() => void run()} disabled={busy !== undefined}>
              Run
            </button>
            <button type="button" class="button" onClick={() => void estimate()} disabled={busy !== undefined}>
              Estimate
            </button>
            <button type="button" class="button" onClick={() => void runAsJob()} disabled={busy !== undefined}>
              Run as job
            </button>
            <span class="toolbar-status" role="status">
              {busy ?? ''}
            </span>
          </div>
          <SqlEditor value={sql} onChange={setSql} onRun={() => void run()} schema={tree} error={marked} onReady={(handle) => (editor.current = handle)} />
          <details class="panel">
            <summary>Time travel</summary>
            <TimeTravelPicker
              workspaceId={workspaceId}
              tables={tables}
              onInsert={(text) => (editor.current ? editor.current.insert(text) : replaceSql(`${sql} ${text}`))}
            />
          </details>
          {failure ? (
            <div class="query-error">
              <ErrorNotice error={failure.error} />
              {position ? (
                <p>
                  At line {position.line}, column {position.column}.{' '}
                  <button type="button" class="button small" onClick={() => editor.current?.focusAt(position.from)}>
                    Go to the error
                  </button>
                </p>
              ) : null}
              {tooLarge ? (
                <p>
                  <button type="button" class="button small" onClick={() => void run(true)}>
                    Run anyway
                  </button>{' '}
                  <button type="button" class="button small" onClick={() => void runAsJob()}>
                    Run as job
                  </button>
                </p>
              ) : null}
            </div>
          ) : null}
          {outcome?.kind === 'estimate' ? <EstimateView estimate={outcome.estimate} /> : null}
          {outcome?.kind === 'job' ? <JobPanel jobId={outcome.jobId} onFinished={() => setHistoryVersion((version) => version + 1)} /> : null}
          {outcome?.kind === 'result' ? (
            <Section title="Result">
              <p class="result-meta" role="status">
                {formatCount(outcome.result.row_count)} rows in {formatDuration(outcome.result.execution_time_ms)} ·{' '}
                {formatBytes(outcome.result.metadata.bytes_scanned)} scanned · {formatEuros(outcome.result.metadata.cost_eur)}
              </p>
              <ResultView source={outcome.source} columns={outcome.result.columns} rows={outcome.result.rows} />
            </Section>
          ) : null}
        </div>
        <aside class="workbench-side" aria-label="Query history">
          <details class="panel" open>
            <summary>History</summary>
            <QueryHistory workspaceId={workspaceId} version={historyVersion} onOpen={(text) => (replaceSql(text), editor.current?.focusAt(0))} />
          </details>
        </aside>
      </div>
    </Page>
  );
}

function EstimateView({ estimate }: { estimate: Estimate }) {
  return (
    <Section title="Estimate">
      <dl class="details">
        <dt>Scans at most</dt>
        <dd>{formatBytes(estimate.bytes_scanned_estimate)}</dd>
        <dt>Costs at most</dt>
        <dd>{formatEuros(estimate.cost_eur_estimate)}</dd>
        <dt>Tables</dt>
        <dd class="mono">{estimate.tables.join(', ') || '—'}</dd>
        <dt>Plan limit per query</dt>
        <dd>
          {formatBytes(estimate.plan_scan_limit_bytes)} ({estimate.plan})
        </dd>
      </dl>
      {estimate.exceeds_limit ? <Notice kind="warning">This query scans more than the plan allows for one query: run it anyway, or as a job.</Notice> : null}
    </Section>
  );
}
