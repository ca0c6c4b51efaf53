import { useMemo, useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import { Field, Form, SelectField } from '../../ui/forms';
import { ErrorNotice, Loading } from '../../ui/notice';
import { memorySource, ResultsGrid } from '../../ui/results-grid';
import { useLoad } from '../../ui/use-load';
import { SqlEditor } from '../workbench/sql-editor';
import { useSchemaTree } from '../workbench/schema-tree';
import type { Transform } from './transform-api';

type Materialization = Transform['materialization'];

// A type, not an interface: the request body's index signature takes it.
export type TransformDraft = {
  name: string;
  target_table: string;
  materialization: Materialization;
  unique_key: string[] | null;
  depends_on: string[];
  description: string | null;
  sql: string;
};

interface Props {
  workspaceId: string;
  initial: Transform | undefined;
  /** Every transform of the workspace, to choose dependencies among. */
  others: { id: string; name: string }[];
  submitLabel: string;
  onSubmit: (draft: TransformDraft) => Promise<void>;
  canEdit: boolean;
}

/**
 * A transform's definition: name, the table it writes and how (table, view, or incremental merged on a
 * unique key), the transforms it runs after, and its SQL in the editor, whose result can be previewed.
 */
export function TransformEditor({ workspaceId, initial, others, submitLabel, onSubmit, canEdit }: Props) {
  const [sql, setSql] = useState(initial?.sql ?? 'SELECT 1 AS id');
  const [materialization, setMaterialization] = useState<Materialization>(initial?.materialization ?? 'table');
  const [depends, setDepends] = useState<Set<string>>(new Set(initial?.depends_on ?? []));
  const [previewed, setPreviewed] = useState<string | undefined>(undefined);
  const { tree } = useSchemaTree(workspaceId, 0);
  const submit = async (values: Record<string, string>) => {
    const key = (values.unique_key ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    await onSubmit({
      name: values.name ?? '',
      target_table: values.target_table ?? '',
      materialization,
      unique_key: materialization === 'incremental' && key.length > 0 ? key : null,
      depends_on: [...depends],
      description: values.description?.trim() ? values.description : null,
      sql,
    });
  };
  const choices = others.filter((other) => other.id !== initial?.id);
  return (
    <div class="stack">
      <Form
        label="Transform"
        submitLabel={submitLabel}
        busyLabel="Saving…"
        onSubmit={submit}
        secondary={
          <button type="button" class="button" onClick={() => setPreviewed(sql)}>
            Preview result
          </button>
        }
      >
        <div class="field-row">
          <Field label="Name" name="name" required maxLength={63} defaultValue={initial?.name} readOnly={!canEdit} hint="Lowercase letters, digits, - and _." />
          <Field
            label="Target table"
            name="target_table"
            required
            maxLength={127}
            defaultValue={initial?.target_table}
            readOnly={!canEdit}
            hint="schema.table, written by this transform alone."
            class="mono"
          />
          <SelectField
            label="Materialization"
            name="materialization"
            value={materialization}
            onChange={(event) => setMaterialization(event.currentTarget.value as Materialization)}
            options={[
              { value: 'table', label: 'Table: replaced on every run' },
              { value: 'view', label: 'View over the SQL' },
              { value: 'incremental', label: 'Incremental: merged on a unique key' },
            ]}
          />
          {materialization === 'incremental' ? (
            <Field
              label="Unique key"
              name="unique_key"
              required
              defaultValue={initial?.unique_key?.join(', ')}
              hint="Columns separated by commas."
              class="mono"
            />
          ) : null}
        </div>
        <SqlEditor
          label="SQL of the transform (Ctrl+Enter or Cmd+Enter previews its result)"
          value={sql}
          onChange={setSql}
          onRun={() => setPreviewed(sql)}
          schema={tree}
          error={undefined}
        />
        {choices.length > 0 ? (
          <fieldset>
            <legend>Runs after</legend>
            <p class="field-hint">Besides the transforms whose tables the SQL reads, which it runs after anyway.</p>
            {choices.map((other) => (
              <label key={other.id} class="check">
                <input
                  type="checkbox"
                  checked={depends.has(other.id)}
                  disabled={!canEdit}
                  onChange={(event) => {
                    const next = new Set(depends);
                    if (event.currentTarget.checked) next.add(other.id);
                    else next.delete(other.id);
                    setDepends(next);
                  }}
                />{' '}
                {other.name}
              </label>
            ))}
          </fieldset>
        ) : null}
        <div class="field">
          <label for="transform-description">Description</label>
          <textarea id="transform-description" name="description" rows={2} defaultValue={initial?.description ?? ''} readOnly={!canEdit} />
        </div>
      </Form>
      {previewed ? <SqlPreview workspaceId={workspaceId} sql={previewed} /> : null}
    </div>
  );
}

/** The first rows the SQL returns, run as a query of the workspace (nothing is written). */
function SqlPreview({ workspaceId, sql }: { workspaceId: string; sql: string }) {
  const body = `SELECT * FROM (\n${sql.trim().replace(/;+\s*$/, '')}\n) AS preview LIMIT 100`;
  const result = useLoad(
    () => unwrap(api.POST('/api/v1/workspaces/{workspace_id}/query', { params: { path: { workspace_id: workspaceId } }, body: { sql: body, format: 'json' } })),
    [workspaceId, body],
  );
  const source = useMemo(
    () => (typeof result.data === 'object' && 'rows' in result.data ? memorySource(result.data.columns, result.data.rows) : undefined),
    [result.data],
  );
  return (
    <section class="section" aria-labelledby="transform-preview-heading">
      <h2 id="transform-preview-heading">Preview</h2>
      <ErrorNotice error={result.error} />
      {source ? <ResultsGrid source={source} label="First rows of the transform's result" /> : result.loading ? <Loading /> : null}
    </section>
  );
}
