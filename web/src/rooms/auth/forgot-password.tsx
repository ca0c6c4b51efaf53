import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import { Link } from '../../router/link';
import { pathTo } from '../../router/paths';
import { Field, Form } from '../../ui/forms';
import { Notice } from '../../ui/notice';
import { Page } from '../../ui/page';

export function ForgotPassword() {
  const [sent, setSent] = useState(false);
  return (
    <Page title="Reset your password" lead="We send a link to choose a new password. It works for one hour.">
      {sent ? (
        <Notice kind="success">If the address has an account, a reset link is on its way. Check your inbox.</Notice>
      ) : (
        <Form
          label="Send a reset link"
          submitLabel="Send the reset link"
          onSubmit={async (values) => {
            await unwrap(api.POST('/api/v1/auth/forgot-password', { body: { email: values.email ?? '' } }));
            setSent(true);
          }}
        >
          <Field label="E-mail" name="email" type="email" autoComplete="email" required />
        </Form>
      )}
      <p class="aside">
        <Link href={pathTo('login')}>Back to log in</Link>
      </p>
    </Page>
  );
}
