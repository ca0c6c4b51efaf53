import { useEffect, useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import { Link } from '../../router/link';
import { navigate } from '../../router/history';
import { pathTo } from '../../router/paths';
import type { RoomProps } from '../../router/routes';
import { atLeast } from '../../session/workspaces';
import { Field, Form, SelectField } from '../../ui/forms';
import { ErrorNotice, Loading, Notice } from '../../ui/notice';
import { Page, Section } from '../../ui/page';
import { useLoad } from '../../ui/use-load';
import { SqlEditor } from '../workbench/sql-editor';
import { useSchemaTree } from '../workbench/schema-tree';
import { useWorkspace } from '../workspaces/use-workspace';
import { ChartControls, configFor } from './chart-controls';
import { ChartView } from './chart-view';
import { DeleteNamed } from '../../ui/delete-named';
import { ParameterFields } from './parameter-form';
import { parameterTexts, parameterValues, type ParameterTexts } from './parameter-values';
import { PublishPanel } from './publish-panel';
import {
  loadChart,
  loadSavedQueries,
  runSavedQuery,
  runSql,
  type Chart,
  type ChartConfig,
  type ChartType,
  type QueryResult,
  type SavedQuery,
} from './sharing-api';

/** A new chart, from a saved query (`?saved_query=`) or SQL of its own. */
export function NewChart({ params, search }: RoomProps) {
  const workspaceId = params.workspaceId ?? '';
  const queries = useLoad(() => loadSavedQueries(workspaceId), [workspaceId]);
  return (
    <Page title="New chart">
      <p>
        <Link href={pathTo('charts', { workspaceId })}>All charts</Link>
      </p>
      <ErrorNotice error={queries.error} />
      {queries.data ? (
        <ChartEditor workspaceId={workspaceId} queries={queries.data} chart={undefined} startWith={search.get('saved_query') ?? undefined} canEdit />
      ) : (
        <Loading />
      )}
    </Page>
  );
}

/** One chart: the builder with its live preview, the public link, deleting it. */
export function ChartRoom({ params }: RoomProps) {
  const workspaceId = params.workspaceId ?? '';
  const name = params.name ?? '';
  const { workspace } = useWorkspace(workspaceId);
  const canEdit = atLeast(workspace?.role, 'MEMBER');
  const chart = useLoad(() => loadChart(workspaceId, name), [workspaceId, name]);
  const queries = useLoad(() => loadSavedQueries(workspaceId), [workspaceId]);
  const data = chart.data;
  const definitions = queries.data?.find((query) => query.name === data?.saved_query)?.parameters ?? [];
  return (
    <Page title={data?.title ?? name} lead={data?.description ?? undefined}>
      <p>
        <Link href={pathTo('charts', { workspaceId })}>All charts</Link>
      </p>
      <ErrorNotice error={chart.error ?? queries.error} />
      {!data || !queries.data ? (
        <Loading />
      ) : (
        <ChartEditor
          workspaceId={workspaceId}
          queries={queries.data}
          chart={data}
          startWith={undefined}
          canEdit={canEdit}
          onSaved={() => void chart.reload()}
        />
      )}
      {data && canEdit ? (
        <Section title="Public link">
          <PublishPanel
            kind="chart"
            workspaceId={workspaceId}
            name={name}
            published={data.published}
            definitions={definitions}
            onChanged={() => void chart.reload()}
          />
        </Section>
      ) : null}
      {data && canEdit ? (
        <DeleteNamed
          what="chart"
          name={name}
          onDelete={() => api.DELETE('/api/v1/workspaces/{workspace_id}/charts/{name}', { params: { path: { workspace_id: workspaceId, name } } })}
          back={pathTo('charts', { workspaceId })}
        />
      ) : null}
    </Page>
  );
}

interface EditorProps {
  workspaceId: string;
  queries: SavedQuery[];
  chart: Chart | undefined;
  startWith: string | undefined;
  canEdit: boolean;
  onSaved?: () => void;
}

/** How long the builder waits after the last change of its query before running it for the preview. */
const previewDelayMs = 600;

function ChartEditor({ workspaceId, queries, chart, startWith, canEdit, onSaved }: EditorProps) {
  const [source, setSource] = useState<'saved' | 'sql'>(chart ? (chart.saved_query ? 'saved' : 'sql') : queries.length > 0 ? 'saved' : 'sql');
  const [savedName, setSavedName] = useState(chart?.saved_query ?? startWith ?? queries[0]?.name ?? '');
  const [sql, setSql] = useState(chart?.sql ?? 'SELECT 1 AS x, 2 AS y');
  const saved = queries.find((query) => query.name === savedName);
  const definitions = source === 'saved' ? (saved?.parameters ?? []) : [];
  const [texts, setTexts] = useState<ParameterTexts>(() => parameterTexts(definitions, chart?.parameters ?? {}));
  const [type, setType] = useState<ChartType>(chart?.chart_type ?? 'bar');
  const [config, setConfig] = useState<ChartConfig>(chart?.config ?? {});
  const [savedNote, setSavedNote] = useState(false);
  const { tree } = useSchemaTree(workspaceId, 0);
  useEffect(() => setTexts(parameterTexts(definitions, chart?.saved_query === savedName ? chart.parameters : {})), [savedName, source]);
  const values = parameterValues(definitions, texts);
  const preview = useDebouncedResult(
    () => (source === 'saved' ? (saved ? runSavedQuery(workspaceId, saved.name, values) : Promise.resolve(undefined)) : runSql(workspaceId, sql)),
    [source, savedName, sql, JSON.stringify(values)],
  );
  const [title, setTitle] = useState(chart?.title ?? '');
  const save = async (form: Record<string, string>) => {
    setSavedNote(false);
    const body = {
      title: form.title ?? '',
      description: form.description?.trim() ? form.description : null,
      ...(source === 'saved' ? { saved_query: savedName, sql: null } : { sql, saved_query: null }),
      parameters: values,
      chart_type: type,
      config: configFor(type, config),
    };
    if (chart) {
      await unwrap(api.PATCH('/api/v1/workspaces/{workspace_id}/charts/{name}', { params: { path: { workspace_id: workspaceId, name: chart.name } }, body }));
      setSavedNote(true);
      onSaved?.();
      return;
    }
    const created = await unwrap(
      api.POST('/api/v1/workspaces/{workspace_id}/charts', { params: { path: { workspace_id: workspaceId } }, body: { ...body, name: form.name ?? '' } }),
    );
    navigate(pathTo('chart', { workspaceId, name: created.name }));
  };
  return (
    <div class="chart-builder">
      <Form
        label="Chart"
        submitLabel={chart ? 'Save chart' : 'Create chart'}
        busyLabel="Saving…"
        onSubmit={save}
        secondary={savedNote ? <span role="status">Saved.</span> : null}
      >
        <div class="field-row">
          {chart ? null : <Field label="Name" name="name" required maxLength={63} hint="Lowercase letters, digits, - and _." />}
          <Field
            label="Title"
            name="title"
            required
            maxLength={200}
            value={title}
            onInput={(event) => setTitle(event.currentTarget.value)}
            readOnly={!canEdit}
          />
          <Field label="Description" name="description" maxLength={10_000} defaultValue={chart?.description ?? ''} readOnly={!canEdit} />
        </div>
        <fieldset>
          <legend>Data</legend>
          <label class="check">
            <input type="radio" name="source" checked={source === 'saved'} disabled={queries.length === 0} onChange={() => setSource('saved')} /> A saved query
          </label>
          <label class="check">
            <input type="radio" name="source" checked={source === 'sql'} onChange={() => setSource('sql')} /> SQL of its own
          </label>
        </fieldset>
        {source === 'saved' ? (
          <>
            <SelectField
              label="Saved query"
              name="saved_query"
              value={savedName}
              onChange={(event) => setSavedName(event.currentTarget.value)}
              options={queries.map((query) => ({ value: query.name, label: query.name }))}
            />
            {definitions.length > 0 ? <ParameterFields definitions={definitions} texts={texts} onChange={setTexts} /> : null}
          </>
        ) : (
          <SqlEditor label="SQL of the chart" value={sql} onChange={setSql} onRun={() => undefined} schema={tree} error={undefined} />
        )}
        <ChartControls
          type={type}
          config={config}
          result={preview.data}
          onChange={(nextType, nextConfig) => {
            setType(nextType);
            setConfig(nextConfig);
          }}
        />
      </Form>
      <section class="section chart-preview" aria-labelledby="chart-preview-heading">
        <h2 id="chart-preview-heading">Preview</h2>
        <ErrorNotice error={preview.error} />
        {preview.loading ? <p class="loading">Running the query…</p> : null}
        {preview.data ? <ChartView type={type} config={config} result={preview.data} title={title || 'Chart'} /> : null}
        {preview.data && preview.data.row_count === 0 ? <Notice kind="info">The query answered no rows.</Notice> : null}
      </section>
    </div>
  );
}

/** The query's result, run again a moment after the last change of its inputs; an older answer arriving late is dropped. */
function useDebouncedResult(
  run: () => Promise<QueryResult | undefined>,
  inputs: unknown[],
): { data: QueryResult | undefined; error: unknown; loading: boolean } {
  const [state, setState] = useState<{ data: QueryResult | undefined; error: unknown; loading: boolean }>({ data: undefined, error: undefined, loading: true });
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    const timer = window.setTimeout(() => {
      run().then(
        (data) => current && setState({ data, error: undefined, loading: false }),
        (error: unknown) => current && setState((previous) => ({ data: previous.data, error, loading: false })),
      );
    }, previewDelayMs);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, inputs);
  return state;
}
