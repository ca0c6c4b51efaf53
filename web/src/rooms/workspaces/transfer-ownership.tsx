import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import { reloadWorkspaces, type Workspace } from '../../session/workspaces';
import { Dialog } from '../../ui/dialog';
import { Form, SelectField } from '../../ui/forms';
import { Notice } from '../../ui/notice';
import { Section } from '../../ui/page';
import type { Member } from './members';

/** The owner hands the workspace to an active member and becomes an admin (the service's role update with OWNER). */
export function TransferOwnership({ workspace, members, onDone }: { workspace: Workspace; members: Member[]; onDone: () => Promise<void> }) {
  const candidates = members.filter((member) => member.status === 'active' && member.role !== 'OWNER');
  const [chosen, setChosen] = useState<Member | undefined>(undefined);
  const [done, setDone] = useState<string | undefined>(undefined);
  return (
    <Section title="Ownership">
      {done ? <Notice kind="success">{done} now owns this workspace; you are an admin.</Notice> : null}
      {candidates.length === 0 ? (
        <p>Ownership goes to an active member. Invite someone first; once they joined, you can hand the workspace to them.</p>
      ) : (
        <Form
          label="Transfer ownership"
          submitLabel="Transfer ownership…"
          class="inline-form"
          onSubmit={(values) => setChosen(candidates.find((member) => member.id === values.member))}
        >
          <SelectField
            label="New owner"
            name="member"
            options={candidates.map((member) => ({ value: member.id, label: `${member.email} (${member.role})` }))}
          />
        </Form>
      )}
      <Dialog title="Transfer ownership?" open={chosen !== undefined} onClose={() => setChosen(undefined)}>
        <p>
          <strong>{chosen?.email}</strong> becomes the owner of {workspace.name}: they alone can delete it or hand it on. You stay as an admin.
        </p>
        <Form
          label="Confirm the transfer"
          submitLabel="Transfer"
          secondary={
            <button type="button" class="button" onClick={() => setChosen(undefined)}>
              Cancel
            </button>
          }
          onSubmit={async () => {
            if (!chosen) return;
            await unwrap(
              api.PATCH('/api/v1/workspaces/{workspace_id}/members/{member_id}', {
                params: { path: { workspace_id: workspace.id, member_id: chosen.id } },
                body: { role: 'OWNER' },
              }),
            );
            setDone(chosen.email);
            setChosen(undefined);
            await Promise.all([reloadWorkspaces(), onDone()]);
          }}
        >
          <span />
        </Form>
      </Dialog>
    </Section>
  );
}
