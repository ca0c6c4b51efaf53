import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import { Form } from '../../ui/forms';
import { Notice } from '../../ui/notice';

/** Sends the verification e-mail again to an address. */
export function ResendVerification({ email }: { email: string }) {
  const [sent, setSent] = useState(false);
  if (sent) return <Notice kind="success">If the address can receive it, a new verification e-mail is on its way.</Notice>;
  return (
    <Form
      label="Send the verification e-mail again"
      submitLabel="Send the verification e-mail again"
      class="inline-form"
      onSubmit={async () => {
        await unwrap(api.POST('/api/v1/auth/resend-verification', { body: { email } }));
        setSent(true);
      }}
    >
      <p>This address is not verified yet.</p>
    </Form>
  );
}
