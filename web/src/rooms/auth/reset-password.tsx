import { api, unwrap } from '../../api/client';
import { Link } from '../../router/link';
import { navigate } from '../../router/history';
import { pathTo } from '../../router/paths';
import type { RoomProps } from '../../router/routes';
import { session } from '../../session/session';
import { Field, Form } from '../../ui/forms';
import { Page } from '../../ui/page';

/** Where the reset link of the e-mail lands: a new password, then every session is signed out. */
export function ResetPassword({ search }: RoomProps) {
  const token = search.get('token') ?? '';
  if (!token) {
    return (
      <Page title="Reset your password">
        <p>
          This page opens from the link in the reset e-mail. <Link href={pathTo('forgotPassword')}>Ask for a new link</Link>.
        </p>
      </Page>
    );
  }
  return (
    <Page title="Choose a new password">
      <Form
        label="Choose a new password"
        submitLabel="Set the new password"
        onSubmit={async (values) => {
          if (values.new_password !== values.confirm) throw new Error('The two passwords differ.');
          await unwrap(api.POST('/api/v1/auth/reset-password', { body: { token, new_password: values.new_password ?? '' } }));
          if (session.state.get().status === 'signed-in') await session.ended('Your password has been changed. Log in with the new one.');
          navigate(pathTo('login', {}, { reset: '1' }), { replace: true });
        }}
      >
        <Field label="New password" name="new_password" type="password" autoComplete="new-password" required minLength={8} hint="At least 8 characters." />
        <Field label="New password again" name="confirm" type="password" autoComplete="new-password" required minLength={8} />
      </Form>
    </Page>
  );
}
