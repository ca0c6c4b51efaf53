import { useState } from 'preact/hooks';
import { ApiError } from '../../api/errors';
import { Link } from '../../router/link';
import { pathTo } from '../../router/paths';
import type { RoomProps } from '../../router/routes';
import { session } from '../../session/session';
import { Field, Form } from '../../ui/forms';
import { Notice } from '../../ui/notice';
import { Page } from '../../ui/page';
import { ResendVerification } from './resend-verification';

export function Login({ search }: RoomProps) {
  const [unverified, setUnverified] = useState<string | undefined>(undefined);
  const submit = async (values: Record<string, string>) => {
    setUnverified(undefined);
    try {
      await session.logIn(values.email ?? '', values.password ?? '');
    } catch (error) {
      if (error instanceof ApiError && error.code === 'EMAIL_NOT_VERIFIED') setUnverified(values.email);
      throw error;
    }
  };
  return (
    <Page title="Log in to Oxbow">
      {search.get('verified') ? <Notice kind="success">Your e-mail address is verified. Log in to continue.</Notice> : null}
      {search.get('reset') ? <Notice kind="success">Your password has been changed. Log in with the new one.</Notice> : null}
      <Form onSubmit={submit} submitLabel="Log in" busyLabel="Logging in…" label="Log in">
        <Field label="E-mail" name="email" type="email" autoComplete="username" required defaultValue={search.get('email') ?? ''} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required />
      </Form>
      {unverified ? <ResendVerification email={unverified} /> : null}
      <p class="aside">
        <Link href={pathTo('forgotPassword')}>Forgot your password?</Link> · New here? <Link href={pathTo('signup')}>Create an account</Link>
      </p>
    </Page>
  );
}
