import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import type { components } from '../../api/schema';
import { atLeast, type Role } from '../../session/workspaces';
import { Field, Form, SelectField } from '../../ui/forms';
import { ErrorNotice, Loading, Notice } from '../../ui/notice';
import { Section } from '../../ui/page';
import type { Loaded } from '../../ui/use-load';

export type Member = components['schemas']['MemberResponse'];

type Invitable = Exclude<Role, 'OWNER'>;

const assignable: { value: Invitable; label: string }[] = [
  { value: 'VIEWER', label: 'Viewer: reads and queries' },
  { value: 'MEMBER', label: 'Member: also writes tables, connections, transforms' },
  { value: 'ADMIN', label: 'Admin: also manages members' },
];

/** Members and pending invitations; owners and admins change roles, invite and remove. */
export function Members({ workspaceId, role, members }: { workspaceId: string; role: Role; members: Loaded<Member[]> }) {
  const manage = atLeast(role, 'ADMIN');
  const [error, setError] = useState<unknown>(undefined);
  const [invited, setInvited] = useState<string | undefined>(undefined);
  const path = { workspace_id: workspaceId };
  const act = async (work: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await work();
      await members.reload();
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <Section title="Members">
      {members.loading && !members.data ? <Loading /> : null}
      <ErrorNotice error={members.error ?? error} />
      <div class="table-wrap">
        <table class="data-table">
          <caption class="visually-hidden">Members and invitations</caption>
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">Status</th>
              {manage ? (
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {(members.data ?? []).map((member) => (
              <tr key={member.id}>
                <td>{member.email}</td>
                <td>
                  {manage && member.role !== 'OWNER' ? (
                    <select
                      aria-label={`Role of ${member.email}`}
                      value={member.role}
                      onChange={(event) =>
                        void act(() =>
                          unwrap(
                            api.PATCH('/api/v1/workspaces/{workspace_id}/members/{member_id}', {
                              params: { path: { ...path, member_id: member.id } },
                              body: { role: event.currentTarget.value as Invitable },
                            }),
                          ),
                        )
                      }
                    >
                      {assignable.map((option) => (
                        <option key={option.value} value={option.value}>
                          {option.value}
                        </option>
                      ))}
                    </select>
                  ) : (
                    member.role
                  )}
                </td>
                <td>{member.status === 'invited' ? 'Invited' : 'Active'}</td>
                {manage ? (
                  <td>
                    {member.role !== 'OWNER' ? (
                      <button
                        type="button"
                        class="button danger small"
                        onClick={() =>
                          void act(() =>
                            unwrap(
                              api.DELETE('/api/v1/workspaces/{workspace_id}/members/{member_id}', { params: { path: { ...path, member_id: member.id } } }),
                            ),
                          )
                        }
                      >
                        Remove<span class="visually-hidden"> {member.email}</span>
                      </button>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {manage ? (
        <>
          <h3>Invite someone</h3>
          {invited ? (
            <Notice kind="success">
              {invited} was invited. An e-mail with a sign-up link is on its way (or, with an account already, the workspace is in their list).
            </Notice>
          ) : null}
          <Form
            label="Invite a member"
            submitLabel="Invite"
            class="inline-form"
            onSubmit={async (values, form) => {
              await unwrap(
                api.POST('/api/v1/workspaces/{workspace_id}/members', {
                  params: { path },
                  body: { email: values.email ?? '', role: (values.role ?? 'MEMBER') as Invitable },
                }),
              );
              setInvited(values.email);
              form.reset();
              await members.reload();
            }}
          >
            <Field label="E-mail" name="email" type="email" required autoComplete="off" />
            <SelectField label="Role" name="role" options={assignable} defaultValue="MEMBER" />
          </Form>
        </>
      ) : null}
    </Section>
  );
}
