import { useEffect, useRef, useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import { Link } from '../../router/link';
import { pathTo } from '../../router/paths';
import type { RoomProps } from '../../router/routes';
import { session } from '../../session/session';
import { useStore } from '../../ui/store';
import { Field, Form } from '../../ui/forms';
import { ErrorNotice, Loading, Notice } from '../../ui/notice';
import { Page } from '../../ui/page';
import { ResendVerification } from './resend-verification';

/**
 * Where the verification link of a new account, and the confirmation link of a changed address,
 * land: the token from the link is sent once, as the page opens.
 */
export function VerifyEmail({ search }: RoomProps) {
  const token = search.get('token') ?? '';
  const signedIn = useStore(session.state).status === 'signed-in';
  const [outcome, setOutcome] = useState<{ done: true } | { error: unknown } | undefined>(undefined);
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current || !token) return;
    sent.current = true;
    unwrap(api.POST('/api/v1/auth/verify-email', { body: { token } }))
      .then(async () => {
        setOutcome({ done: true });
        // A confirmed new address shows at once in a signed-in console.
        if (session.state.get().status === 'signed-in') await session.loadUser();
      })
      .catch((error: unknown) => setOutcome({ error }));
  }, [token]);

  if (!token) return <AskForLink />;
  return (
    <Page title="Verify your e-mail address">
      {outcome === undefined ? <Loading label="Verifying the address…" /> : null}
      {outcome && 'done' in outcome ? (
        <>
          <Notice kind="success">Your e-mail address is verified.</Notice>
          <p>{signedIn ? <Link href={pathTo('account')}>Back to your account</Link> : <Link href={pathTo('login', {}, { verified: '1' })}>Log in</Link>}</p>
        </>
      ) : null}
      {outcome && 'error' in outcome ? (
        <>
          <ErrorNotice error={outcome.error} />
          <AskForLink embedded />
        </>
      ) : null}
    </Page>
  );
}

function AskForLink({ embedded = false }: { embedded?: boolean }) {
  const [email, setEmail] = useState<string | undefined>(undefined);
  const body = email ? (
    <ResendVerification email={email} />
  ) : (
    <Form label="Ask for a new link" submitLabel="Continue" onSubmit={(values) => setEmail(values.email)}>
      <Field label="E-mail" name="email" type="email" autoComplete="email" required />
    </Form>
  );
  if (embedded)
    return (
      <div class="stack">
        <p>Ask for a new link:</p>
        {body}
      </div>
    );
  return (
    <Page title="Verify your e-mail address" lead="This page opens from the link in the verification e-mail. Ask for a new one if yours expired.">
      {body}
    </Page>
  );
}
