import { DeleteNamed } from '../../ui/delete-named';
import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import { Link } from '../../router/link';
import { navigate } from '../../router/history';
import { pathTo } from '../../router/paths';
import type { RoomProps } from '../../router/routes';
import { atLeast } from '../../session/workspaces';
import { ErrorNotice, Loading, Notice } from '../../ui/notice';
import { Page, Section } from '../../ui/page';
import { useLoad } from '../../ui/use-load';
import { usePolled } from '../../ui/use-polled';
import { useWorkspace } from '../workspaces/use-workspace';
import { loadTransforms, runInFlight, type Transform } from './transform-api';
import { TransformEditor, type TransformDraft } from './transform-editor';
import { TransformRunTable } from './run-history';

const transformPath = (workspaceId: string, transformId: string) => ({ path: { workspace_id: workspaceId, transform_id: transformId } });

/** A new transform: its definition, saved, then its own page. */
export function NewTransform({ params }: RoomProps) {
  const workspaceId = params.workspaceId ?? '';
  const others = useLoad(() => loadTransforms(workspaceId), [workspaceId]);
  const create = async (draft: TransformDraft) => {
    const created = await unwrap(api.POST('/api/v1/workspaces/{workspace_id}/transforms', { params: { path: { workspace_id: workspaceId } }, body: draft }));
    navigate(pathTo('transform', { workspaceId, transformId: created.id }));
  };
  return (
    <Page title="New transform">
      <p>
        <Link href={pathTo('transforms', { workspaceId })}>All transforms</Link>
      </p>
      <ErrorNotice error={others.error} />
      {others.data ? (
        <TransformEditor workspaceId={workspaceId} initial={undefined} others={others.data} submitLabel="Create transform" onSubmit={create} canEdit />
      ) : (
        <Loading />
      )}
    </Page>
  );
}

/** One transform: its definition to change, a run of it alone, its recent runs, its place in the DAG. */
export function TransformRoom({ params }: RoomProps) {
  const workspaceId = params.workspaceId ?? '';
  const transformId = params.transformId ?? '';
  const { workspace } = useWorkspace(workspaceId);
  const canEdit = atLeast(workspace?.role, 'MEMBER');
  const transform = useLoad(
    () => unwrap(api.GET('/api/v1/workspaces/{workspace_id}/transforms/{transform_id}', { params: transformPath(workspaceId, transformId) })),
    [workspaceId, transformId],
  );
  const others = useLoad(() => loadTransforms(workspaceId), [workspaceId]);
  const [saved, setSaved] = useState(false);
  const save = async (draft: TransformDraft) => {
    setSaved(false);
    await unwrap(api.PATCH('/api/v1/workspaces/{workspace_id}/transforms/{transform_id}', { params: transformPath(workspaceId, transformId), body: draft }));
    await transform.reload();
    setSaved(true);
  };
  const data = transform.data;
  return (
    <Page
      title={data ? data.name : 'Transform'}
      lead={
        data ? (
          <>
            Writes <code>{data.target_table}</code> · {data.materialization}
          </>
        ) : undefined
      }
    >
      <p>
        <Link href={pathTo('transforms', { workspaceId })}>All transforms</Link>
      </p>
      <ErrorNotice error={transform.error} />
      {!data && transform.loading ? <Loading /> : null}
      {data ? (
        <>
          <Relations workspaceId={workspaceId} transform={data} />
          {saved ? <Notice kind="success">Saved.</Notice> : null}
          {others.data ? (
            <TransformEditor
              key={data.updated_at}
              workspaceId={workspaceId}
              initial={data}
              others={others.data}
              submitLabel="Save changes"
              onSubmit={save}
              canEdit={canEdit}
            />
          ) : null}
          <Section title="Runs">
            <Runs workspaceId={workspaceId} transformId={transformId} canRun={canEdit} />
          </Section>
          {canEdit ? (
            <DeleteNamed
              what="transform"
              name={data.name}
              back={pathTo('transforms', { workspaceId })}
              onDelete={(values) =>
                api.DELETE('/api/v1/workspaces/{workspace_id}/transforms/{transform_id}', {
                  params: { ...transformPath(workspaceId, data.id), query: { cascade: values.cascade === 'on' ? 'true' : 'false' } },
                })
              }
            >
              <p>Its table stays.</p>
              {data.dependents.length > 0 ? (
                <label class="check">
                  <input type="checkbox" name="cascade" /> Delete the {data.dependents.length} transform{data.dependents.length === 1 ? '' : 's'} that run after
                  it too
                </label>
              ) : null}
            </DeleteNamed>
          ) : null}
        </>
      ) : null}
    </Page>
  );
}

function Relations({ workspaceId, transform }: { workspaceId: string; transform: Transform }) {
  const links = (list: { id: string; name: string }[]) =>
    list.length === 0
      ? '—'
      : list.map((other, index) => (
          <span key={other.id}>
            {index > 0 ? ', ' : ''}
            <Link href={pathTo('transform', { workspaceId, transformId: other.id })}>{other.name}</Link>
          </span>
        ));
  return (
    <dl class="details">
      <dt>Runs after</dt>
      <dd>{links(transform.dependencies)}</dd>
      <dt>Runs before</dt>
      <dd>{links(transform.dependents)}</dd>
    </dl>
  );
}

function Runs({ workspaceId, transformId, canRun }: { workspaceId: string; transformId: string; canRun: boolean }) {
  const [started, setStarted] = useState(0);
  const [error, setError] = useState<unknown>(undefined);
  const runs = usePolled(
    () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/transforms/{transform_id}/runs', {
          params: { ...transformPath(workspaceId, transformId), query: { limit: 10 } },
        }),
      ),
    [workspaceId, transformId, started],
    (list) => (list.some((run) => runInFlight(run.status)) ? 1000 : null),
  );
  const runAlone = async () => {
    setError(undefined);
    try {
      await unwrap(api.POST('/api/v1/workspaces/{workspace_id}/transforms/{transform_id}/run', { params: transformPath(workspaceId, transformId) }));
    } catch (caught) {
      setError(caught);
    }
    setStarted((count) => count + 1);
  };
  return (
    <div>
      {canRun ? (
        <p>
          <button type="button" class="button" onClick={() => void runAlone()}>
            Run this transform only
          </button>
        </p>
      ) : null}
      <ErrorNotice error={error ?? runs.error} />
      {runs.data && runs.data.length === 0 ? <p>It has not run yet.</p> : null}
      {runs.data && runs.data.length > 0 ? <TransformRunTable runs={runs.data} caption="Recent runs, newest first" workspaceId={workspaceId} by="run" /> : null}
    </div>
  );
}
