import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import { navigate } from '../../router/history';
import { pathTo } from '../../router/paths';
import { reloadWorkspaces, type Workspace } from '../../session/workspaces';
import { Dialog } from '../../ui/dialog';
import { Field, Form } from '../../ui/forms';
import { Section } from '../../ui/page';

/** Deleting a workspace takes its slug typed again: every table and its history go with it. */
export function DeleteWorkspace({ workspace }: { workspace: Workspace }) {
  const [open, setOpen] = useState(false);
  return (
    <Section title="Delete this workspace">
      <p>Deleting the workspace removes its tables, their history, connections, transforms, charts and members. It cannot be undone.</p>
      <button type="button" class="button danger" onClick={() => setOpen(true)}>
        Delete workspace…
      </button>
      <Dialog title={`Delete ${workspace.name}?`} open={open} onClose={() => setOpen(false)}>
        <Form
          label="Confirm the deletion"
          submitLabel="Delete the workspace"
          secondary={
            <button type="button" class="button" onClick={() => setOpen(false)}>
              Cancel
            </button>
          }
          onSubmit={async (values) => {
            if (values.confirm !== workspace.slug) throw new Error(`Type ${workspace.slug} to confirm.`);
            await unwrap(api.DELETE('/api/v1/workspaces/{workspace_id}', { params: { path: { workspace_id: workspace.id } } }));
            setOpen(false);
            await reloadWorkspaces();
            navigate(pathTo('workspaces'), { replace: true });
          }}
        >
          <Field label={`Type ${workspace.slug} to confirm`} name="confirm" required autoComplete="off" class="mono" />
        </Form>
      </Dialog>
    </Section>
  );
}
