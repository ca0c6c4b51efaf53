import { useId, useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import { ApiError } from '../../api/errors';
import { CopyField } from '../../ui/copy-field';
import { formatTime } from '../../ui/format';
import { Form } from '../../ui/forms';
import { ErrorNotice, Notice } from '../../ui/notice';
import { ParameterFields } from './parameter-form';
import { parameterTexts, parameterValues } from './parameter-values';
import type { Chart, ParameterDefinition, Published } from './sharing-api';

interface Props {
  kind: 'chart' | 'page';
  workspaceId: string;
  name: string;
  published: Chart['published'];
  /** A chart's parameters (of its saved query), whose values the link may fix. */
  definitions: ParameterDefinition[];
  onChanged: () => void;
}

/**
 * The public link: publish with an optional expiry and parameter values fixed for its viewers; the
 * link is shown once to copy (publishing again gives a new one and ends the old); unpublish ends it.
 */
export function PublishPanel({ kind, workspaceId, name, published, definitions, onChanged }: Props) {
  const id = useId();
  const [link, setLink] = useState<Published | undefined>(undefined);
  const [locked, setLocked] = useState(() => parameterTexts(definitions, {}, false));
  const [refusal, setRefusal] = useState<ApiError | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const path = { params: { path: { workspace_id: workspaceId, name } } };
  const publish = async (values: Record<string, string>) => {
    setRefusal(undefined);
    const expires = values.expires_at ? new Date(`${values.expires_at}:00Z`).toISOString() : undefined;
    const body = { ...(expires ? { expires_at: expires } : {}), parameters: parameterValues(definitions, locked) };
    try {
      const answer =
        kind === 'chart'
          ? await unwrap(api.POST('/api/v1/workspaces/{workspace_id}/charts/{name}/publish', { ...path, body }))
          : await unwrap(api.POST('/api/v1/workspaces/{workspace_id}/pages/{name}/publish', { ...path, body }));
      setLink(answer);
      onChanged();
    } catch (caught) {
      if (caught instanceof ApiError) setRefusal(caught);
      throw caught;
    }
  };
  const unpublish = async () => {
    setError(undefined);
    try {
      if (kind === 'chart') await unwrap(api.DELETE('/api/v1/workspaces/{workspace_id}/charts/{name}/publish', path));
      else await unwrap(api.DELETE('/api/v1/workspaces/{workspace_id}/pages/{name}/publish', path));
      setLink(undefined);
      onChanged();
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <div class="stack">
      {published ? (
        <p role="status">
          Published since {formatTime(published.published_at)}
          {published.expires_at ? `, until ${formatTime(published.expires_at)}` : ', without an end'}.
        </p>
      ) : (
        <p role="status">Not published: nobody outside the workspace can see it.</p>
      )}
      {link ? (
        <Notice kind="success">
          <CopyField label="Public link (shown this once)" value={link.url} />
          <p>
            <a href={link.url} target="_blank" rel="noopener noreferrer">
              Open the public {kind}
            </a>
          </p>
        </Notice>
      ) : null}
      <Form label={`Publish the ${kind}`} submitLabel={published ? 'Publish again with a new link' : 'Publish'} busyLabel="Publishing…" onSubmit={publish}>
        <div class="field">
          <label for={`${id}-expires`}>Expires (UTC, optional)</label>
          <input id={`${id}-expires`} name="expires_at" type="datetime-local" aria-describedby={`${id}-expires-hint`} />
          <p class="field-hint" id={`${id}-expires-hint`}>
            After this time the link answers “not found”. Empty: it works until unpublished.
          </p>
        </div>
        {definitions.length > 0 ? (
          <fieldset>
            <legend>Locked parameters</legend>
            <p class="field-hint">A value given here is fixed for everyone who opens the link; empty ones keep the {kind}’s own.</p>
            <ParameterFields
              definitions={definitions}
              texts={locked}
              onChange={setLocked}
              enforceRequired={false}
              errorOf={(parameter) => refusal?.messageAt(['parameters', parameter])}
            />
          </fieldset>
        ) : null}
      </Form>
      {published ? (
        <p>
          <button type="button" class="button danger" onClick={() => void unpublish()}>
            Unpublish
          </button>
        </p>
      ) : null}
      <ErrorNotice error={error} />
    </div>
  );
}
