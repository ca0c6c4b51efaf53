import { useMemo, useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import { ApiError } from '../../api/errors';
import { Link } from '../../router/link';
import { navigate } from '../../router/history';
import { pathTo } from '../../router/paths';
import type { RoomProps } from '../../router/routes';
import { atLeast } from '../../session/workspaces';
import { formatTime } from '../../ui/format';
import { Field, Form } from '../../ui/forms';
import { ErrorNotice, Loading } from '../../ui/notice';
import { Page, Section } from '../../ui/page';
import { memorySource, ResultsGrid } from '../../ui/results-grid';
import { useLoad } from '../../ui/use-load';
import { SqlEditor } from '../workbench/sql-editor';
import { useSchemaTree } from '../workbench/schema-tree';
import { useWorkspace } from '../workspaces/use-workspace';
import { DeleteNamed } from '../../ui/delete-named';
import { definitionOf, draftsFor, ParameterDefinitions, type DefinitionDraft } from './parameter-definitions';
import { ParameterFields } from './parameter-form';
import { parameterTexts, parameterValues } from './parameter-values';
import { loadSavedQueries, loadSavedQuery, runSavedQuery, type QueryResult } from './sharing-api';
import { TableHead } from '../../ui/table-head';

/** The workspace's saved queries: SQL with typed parameters, run by name, the source of charts. */
export function SavedQueries({ params }: RoomProps) {
  const workspaceId = params.workspaceId ?? '';
  const { workspace } = useWorkspace(workspaceId);
  const list = useLoad(() => loadSavedQueries(workspaceId), [workspaceId]);
  return (
    <Page
      title="Saved queries"
      lead="SQL kept by name, with {{parameters}} filled in at each run."
      actions={
        atLeast(workspace?.role, 'MEMBER') ? (
          <Link class="button primary" href={pathTo('newSavedQuery', { workspaceId })}>
            New saved query
          </Link>
        ) : null
      }
    >
      <ErrorNotice error={list.error} />
      {list.loading && !list.data ? <Loading /> : null}
      {list.data && list.data.length === 0 ? <p>No saved queries yet.</p> : null}
      {list.data && list.data.length > 0 ? (
        <div class="table-wrap">
          <table class="data-table">
            <caption class="visually-hidden">Saved queries</caption>
            <TableHead columns={['Name', 'Description', 'Parameters', 'Saved']} />
            <tbody>
              {list.data.map((query) => (
                <tr key={query.id}>
                  <td>
                    <Link href={pathTo('savedQuery', { workspaceId, name: query.name })}>{query.name}</Link>
                  </td>
                  <td>{query.description ?? '—'}</td>
                  <td class="mono">{query.parameters.map((parameter) => `${parameter.name}: ${parameter.type}`).join(', ') || '—'}</td>
                  <td>{formatTime(query.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </Page>
  );
}

/** A new saved query: its SQL, and a definition for each `{{placeholder}}` the SQL has. */
export function NewSavedQuery({ params, search }: RoomProps) {
  const workspaceId = params.workspaceId ?? '';
  const [sql, setSql] = useState(search.get('sql') ?? 'SELECT 1 AS one');
  const [drafts, setDrafts] = useState<DefinitionDraft[]>([]);
  const { tree } = useSchemaTree(workspaceId, 0);
  const current = draftsFor(sql, drafts);
  const create = async (values: Record<string, string>) => {
    const created = await unwrap(
      api.POST('/api/v1/workspaces/{workspace_id}/saved-queries', {
        params: { path: { workspace_id: workspaceId } },
        body: { name: values.name ?? '', description: values.description?.trim() || undefined, sql, parameters: current.map(definitionOf) },
      }),
    );
    navigate(pathTo('savedQuery', { workspaceId, name: created.name }));
  };
  return (
    <Page title="New saved query">
      <p>
        <Link href={pathTo('savedQueries', { workspaceId })}>All saved queries</Link>
      </p>
      <Form label="New saved query" submitLabel="Save query" busyLabel="Saving…" onSubmit={create}>
        <div class="field-row">
          <Field label="Name" name="name" required maxLength={63} hint="Lowercase letters, digits, - and _: how charts and runs name it." />
          <Field label="Description" name="description" maxLength={10_000} />
        </div>
        <SqlEditor label="SQL of the saved query" value={sql} onChange={setSql} onRun={() => undefined} schema={tree} error={undefined} />
        <ParameterDefinitions drafts={current} onChange={setDrafts} />
      </Form>
    </Page>
  );
}

/** One saved query: its SQL, a form for its parameters typed by their definitions, its result. */
export function SavedQueryRoom({ params }: RoomProps) {
  const workspaceId = params.workspaceId ?? '';
  const name = params.name ?? '';
  const { workspace } = useWorkspace(workspaceId);
  const query = useLoad(() => loadSavedQuery(workspaceId, name), [workspaceId, name]);
  const data = query.data;
  return (
    <Page
      title={name}
      lead={data?.description ?? undefined}
      actions={
        data && atLeast(workspace?.role, 'MEMBER') ? (
          <Link class="button" href={pathTo('newChart', { workspaceId }, { saved_query: name })}>
            New chart from it
          </Link>
        ) : null
      }
    >
      <p>
        <Link href={pathTo('savedQueries', { workspaceId })}>All saved queries</Link>
      </p>
      <ErrorNotice error={query.error} />
      {!data && query.loading ? <Loading /> : null}
      {data ? (
        <>
          <pre class="sql-view">{data.sql}</pre>
          <Section title="Run">
            <RunForm workspaceId={workspaceId} name={name} definitions={data.parameters} />
          </Section>
          {atLeast(workspace?.role, 'MEMBER') ? (
            <DeleteNamed
              what="saved query"
              name={name}
              onDelete={() => api.DELETE('/api/v1/workspaces/{workspace_id}/saved-queries/{name}', { params: { path: { workspace_id: workspaceId, name } } })}
              back={pathTo('savedQueries', { workspaceId })}
            />
          ) : null}
        </>
      ) : null}
    </Page>
  );
}

function RunForm({ workspaceId, name, definitions }: { workspaceId: string; name: string; definitions: Parameters<typeof parameterTexts>[0] }) {
  const [texts, setTexts] = useState(() => parameterTexts(definitions));
  const [result, setResult] = useState<QueryResult | undefined>(undefined);
  const [refusal, setRefusal] = useState<ApiError | undefined>(undefined);
  const source = useMemo(() => (result ? memorySource(result.columns, result.rows) : undefined), [result]);
  const run = async () => {
    setRefusal(undefined);
    try {
      setResult(await runSavedQuery(workspaceId, name, parameterValues(definitions, texts)));
    } catch (error) {
      if (error instanceof ApiError) setRefusal(error);
      throw error;
    }
  };
  return (
    <div class="stack">
      <Form label={`Run ${name}`} submitLabel="Run" busyLabel="Running…" onSubmit={run}>
        {definitions.length > 0 ? (
          <ParameterFields definitions={definitions} texts={texts} onChange={setTexts} errorOf={(parameter) => refusal?.messageAt(['parameters', parameter])} />
        ) : (
          <p>It has no parameters.</p>
        )}
      </Form>
      {source ? <ResultsGrid source={source} label={`Result of ${name}`} /> : null}
    </div>
  );
}
