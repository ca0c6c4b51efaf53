import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import { navigate } from '../../router/history';
import { pathTo } from '../../router/paths';
import { reloadWorkspaces } from '../../session/workspaces';
import { Field, Form } from '../../ui/forms';
import { Page } from '../../ui/page';

export function NewWorkspace() {
  return (
    <Page title="New workspace" lead="A workspace holds tables, queries and members. You are its owner.">
      <CreateWorkspaceForm />
    </Page>
  );
}

/** A slug from a name: lowercase letters, digits and hyphens, 3 to 63 characters. */
const slugOf = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63);

export function CreateWorkspaceForm() {
  const [slug, setSlug] = useState('');
  const [slugEdited, setSlugEdited] = useState(false);
  return (
    <Form
      label="Create a workspace"
      submitLabel="Create workspace"
      busyLabel="Creating…"
      onSubmit={async (values) => {
        const created = await unwrap(api.POST('/api/v1/workspaces', { body: { name: values.name ?? '', slug: values.slug ?? '' } }));
        await reloadWorkspaces();
        navigate(pathTo('workbench', { workspaceId: created.id }));
      }}
    >
      <Field label="Name" name="name" required maxLength={200} onInput={(event) => slugEdited || setSlug(slugOf(event.currentTarget.value))} />
      <Field
        label="Slug"
        name="slug"
        required
        minLength={3}
        maxLength={63}
        pattern="[a-z0-9](?:[a-z0-9\-]*[a-z0-9])?"
        value={slug}
        onInput={(event) => {
          setSlugEdited(true);
          setSlug(event.currentTarget.value);
        }}
        hint="3 to 63 lowercase letters, digits and hyphens; unique on this service. API keys and the CLI can name the workspace by it."
        class="mono"
      />
    </Form>
  );
}
