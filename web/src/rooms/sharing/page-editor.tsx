import { useId, useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import { Link } from '../../router/link';
import { navigate } from '../../router/history';
import { pathTo } from '../../router/paths';
import type { RoomProps } from '../../router/routes';
import { atLeast } from '../../session/workspaces';
import { Field, Form } from '../../ui/forms';
import { ErrorNotice, Loading } from '../../ui/notice';
import { Page as Room, Section } from '../../ui/page';
import { useLoad } from '../../ui/use-load';
import { useWorkspace } from '../workspaces/use-workspace';
import { DeleteNamed } from '../../ui/delete-named';
import { PublishPanel } from './publish-panel';
import { loadCharts, named, type Chart, type Page, type PageBlock } from './sharing-api';

/** A new page (a dashboard): its charts and text in order. */
export function NewPage({ params }: RoomProps) {
  const workspaceId = params.workspaceId ?? '';
  const charts = useLoad(() => loadCharts(workspaceId), [workspaceId]);
  return (
    <Room title="New page">
      <p>
        <Link href={pathTo('pages', { workspaceId })}>All pages</Link>
      </p>
      <ErrorNotice error={charts.error} />
      {charts.data ? <PageForm workspaceId={workspaceId} charts={charts.data} page={undefined} canEdit /> : <Loading />}
    </Room>
  );
}

/** One page: its blocks to change and reorder, its public link, deleting it. */
export function PageRoom({ params }: RoomProps) {
  const workspaceId = params.workspaceId ?? '';
  const name = params.name ?? '';
  const { workspace } = useWorkspace(workspaceId);
  const canEdit = atLeast(workspace?.role, 'MEMBER');
  const page = useLoad(() => unwrap(api.GET('/api/v1/workspaces/{workspace_id}/pages/{name}', { params: named(workspaceId, name) })), [workspaceId, name]);
  const charts = useLoad(() => loadCharts(workspaceId), [workspaceId]);
  const data = page.data;
  return (
    <Room title={data?.title ?? name} lead={data?.description ?? undefined}>
      <p>
        <Link href={pathTo('pages', { workspaceId })}>All pages</Link>
      </p>
      <ErrorNotice error={page.error ?? charts.error} />
      {!data || !charts.data ? (
        <Loading />
      ) : (
        <PageForm key={data.updated_at} workspaceId={workspaceId} charts={charts.data} page={data} canEdit={canEdit} onSaved={() => void page.reload()} />
      )}
      {data && canEdit ? (
        <Section title="Public link">
          <PublishPanel kind="page" workspaceId={workspaceId} name={name} published={data.published} definitions={[]} onChanged={() => void page.reload()} />
        </Section>
      ) : null}
      {data && canEdit ? (
        <DeleteNamed
          what="page"
          name={name}
          onDelete={() => api.DELETE('/api/v1/workspaces/{workspace_id}/pages/{name}', { params: named(workspaceId, name) })}
          back={pathTo('pages', { workspaceId })}
        />
      ) : null}
    </Room>
  );
}

interface FormProps {
  workspaceId: string;
  charts: Chart[];
  page: Page | undefined;
  canEdit: boolean;
  onSaved?: () => void;
}

function PageForm({ workspaceId, charts, page, canEdit, onSaved }: FormProps) {
  const [blocks, setBlocks] = useState<PageBlock[]>(page?.blocks ?? []);
  const [savedNote, setSavedNote] = useState(false);
  const save = async (form: Record<string, string>) => {
    setSavedNote(false);
    const body = { title: form.title ?? '', description: form.description?.trim() ? form.description : null, blocks };
    if (page) {
      await unwrap(api.PATCH('/api/v1/workspaces/{workspace_id}/pages/{name}', { params: named(workspaceId, page.name), body }));
      setSavedNote(true);
      onSaved?.();
      return;
    }
    const created = await unwrap(
      api.POST('/api/v1/workspaces/{workspace_id}/pages', { params: { path: { workspace_id: workspaceId } }, body: { ...body, name: form.name ?? '' } }),
    );
    navigate(pathTo('page', { workspaceId, name: created.name }));
  };
  return (
    <Form
      label="Page"
      submitLabel={page ? 'Save page' : 'Create page'}
      busyLabel="Saving…"
      onSubmit={save}
      secondary={savedNote ? <span role="status">Saved.</span> : null}
    >
      <div class="field-row">
        {page ? null : <Field label="Name" name="name" required maxLength={63} hint="Lowercase letters, digits, - and _." />}
        <Field label="Title" name="title" required maxLength={200} defaultValue={page?.title} readOnly={!canEdit} />
        <Field label="Description" name="description" maxLength={10_000} defaultValue={page?.description ?? ''} readOnly={!canEdit} />
      </div>
      <BlockList blocks={blocks} charts={charts} onChange={setBlocks} canEdit={canEdit} />
    </Form>
  );
}

/** The page's blocks in order, each a chart or markdown text; moved up or down, removed, added. */
function BlockList({ blocks, charts, onChange, canEdit }: { blocks: PageBlock[]; charts: Chart[]; onChange: (blocks: PageBlock[]) => void; canEdit: boolean }) {
  const id = useId();
  const move = (from: number, to: number) => {
    const next = [...blocks];
    const [block] = next.splice(from, 1);
    next.splice(to, 0, block!);
    onChange(next);
  };
  const set = (index: number, block: PageBlock) => onChange(blocks.map((other, at) => (at === index ? block : other)));
  return (
    <fieldset class="block-list">
      <legend>Blocks, in the order the page shows them</legend>
      {blocks.length === 0 ? <p class="field-hint">No blocks yet: add a chart or some text.</p> : null}
      <ol class="blocks">
        {blocks.map((block, index) => {
          const label = `Block ${index + 1}`;
          return (
            <li key={index} class="block">
              {'chart' in block ? (
                <div class="field">
                  <label for={`${id}-${index}`}>{label}: chart</label>
                  <select id={`${id}-${index}`} value={block.chart} disabled={!canEdit} onChange={(event) => set(index, { chart: event.currentTarget.value })}>
                    {charts.map((chart) => (
                      <option key={chart.name} value={chart.name}>
                        {chart.title} ({chart.name})
                      </option>
                    ))}
                  </select>
                </div>
              ) : (
                <div class="field">
                  <label for={`${id}-${index}`}>{label}: text (Markdown)</label>
                  <textarea
                    id={`${id}-${index}`}
                    rows={4}
                    value={block.markdown}
                    readOnly={!canEdit}
                    onInput={(event) => set(index, { markdown: event.currentTarget.value })}
                  />
                </div>
              )}
              {canEdit ? (
                <div class="row-actions" role="group" aria-label={`${label} actions`}>
                  <button type="button" class="button small" disabled={index === 0} onClick={() => move(index, index - 1)}>
                    Move up<span class="visually-hidden"> {label.toLowerCase()}</span>
                  </button>
                  <button type="button" class="button small" disabled={index === blocks.length - 1} onClick={() => move(index, index + 1)}>
                    Move down<span class="visually-hidden"> {label.toLowerCase()}</span>
                  </button>
                  <button type="button" class="button small" onClick={() => onChange(blocks.filter((_, at) => at !== index))}>
                    Remove<span class="visually-hidden"> {label.toLowerCase()}</span>
                  </button>
                </div>
              ) : null}
            </li>
          );
        })}
      </ol>
      {canEdit ? (
        <div class="row-actions">
          <button
            type="button"
            class="button small"
            disabled={charts.length === 0}
            onClick={() => charts[0] && onChange([...blocks, { chart: charts[0].name }])}
          >
            Add a chart
          </button>
          <button type="button" class="button small" onClick={() => onChange([...blocks, { markdown: '' }])}>
            Add text
          </button>
        </div>
      ) : null}
    </fieldset>
  );
}
