import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import { navigate } from '../../router/history';
import { pathTo } from '../../router/paths';
import { session } from '../../session/session';
import { useStore } from '../../ui/store';
import { Dialog } from '../../ui/dialog';
import { Field, Form } from '../../ui/forms';
import { Notice } from '../../ui/notice';
import { Page, Section } from '../../ui/page';
import { formatTime } from '../../ui/format';

/** The signed-in account: its address and password, its sessions, and its deletion. */
export function Account() {
  const state = useStore(session.state);
  const [emailSent, setEmailSent] = useState<string | undefined>(undefined);
  const [deleting, setDeleting] = useState(false);
  if (state.status !== 'signed-in') return null;
  const user = state.user;
  return (
    <Page title="Your account">
      <Section title="Profile">
        <dl class="details">
          <dt>E-mail</dt>
          <dd>{user.email}</dd>
          {user.pending_email ? (
            <>
              <dt>New address, waiting for confirmation</dt>
              <dd>{user.pending_email}</dd>
            </>
          ) : null}
          <dt>Name</dt>
          <dd>{user.name ?? '—'}</dd>
          <dt>Member since</dt>
          <dd>{formatTime(user.created_at)}</dd>
        </dl>
      </Section>
      <Section title="Change e-mail">
        {emailSent ? <Notice kind="success">A confirmation link went to {emailSent}. The account switches to it once you open the link.</Notice> : null}
        <Form
          label="Change e-mail"
          submitLabel="Change e-mail"
          onSubmit={async (values, form) => {
            const updated = await unwrap(
              api.POST('/api/v1/auth/me/change-email', { body: { new_email: values.new_email ?? '', password: values.password ?? '' } }),
            );
            session.state.set({ status: 'signed-in', user: updated });
            setEmailSent(values.new_email);
            form.reset();
          }}
        >
          <Field label="New e-mail" name="new_email" type="email" autoComplete="email" required />
          <Field label="Current password" name="password" type="password" autoComplete="current-password" required />
        </Form>
      </Section>
      <Section title="Change password">
        <Form
          label="Change password"
          submitLabel="Change password"
          onSubmit={async (values) => {
            if (values.new_password !== values.confirm) throw new Error('The two new passwords differ.');
            await unwrap(
              api.POST('/api/v1/auth/me/change-password', {
                body: { current_password: values.current_password ?? '', new_password: values.new_password ?? '' },
              }),
            );
            await session.ended('Your password has been changed and every session signed out. Log in with the new password.');
            navigate(pathTo('login'));
          }}
        >
          <Field label="Current password" name="current_password" type="password" autoComplete="current-password" required />
          <Field
            label="New password"
            name="new_password"
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            hint="At least 8 characters. Every session, this one too, is signed out."
          />
          <Field label="New password again" name="confirm" type="password" autoComplete="new-password" required minLength={8} />
        </Form>
      </Section>
      <Section title="Sessions">
        <p>Log out of every browser and client that signed in with your password (API keys keep working; revoke them under API keys).</p>
        <button type="button" class="button" onClick={() => void session.logOut(true).then(() => navigate(pathTo('login')))}>
          Log out everywhere
        </button>
      </Section>
      <Section title="Delete account">
        <p>Your access ends at once; your data is purged after the retention period. Workspaces you own must be handed on or deleted first.</p>
        <button type="button" class="button danger" onClick={() => setDeleting(true)}>
          Delete account…
        </button>
        <Dialog title="Delete your account?" open={deleting} onClose={() => setDeleting(false)}>
          <Form
            label="Confirm the deletion of the account"
            submitLabel="Delete my account"
            secondary={
              <button type="button" class="button" onClick={() => setDeleting(false)}>
                Cancel
              </button>
            }
            onSubmit={async (values) => {
              await unwrap(api.POST('/api/v1/auth/me/delete-account', { body: { password: values.password ?? '' } }));
              setDeleting(false);
              await session.ended('Your account has been deleted.');
              navigate(pathTo('login'));
            }}
          >
            <Field label="Password" name="password" type="password" autoComplete="current-password" required />
          </Form>
        </Dialog>
      </Section>
    </Page>
  );
}
