import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import { Link } from '../../router/link';
import { pathTo } from '../../router/paths';
import type { RoomProps } from '../../router/routes';
import { Field, Form } from '../../ui/forms';
import { ErrorNotice, Loading, Notice } from '../../ui/notice';
import { Page } from '../../ui/page';
import { useLoad } from '../../ui/use-load';

/**
 * Sign-up; invitations link here with the invited address filled in (`?email=`). When the service
 * takes no new accounts, the room offers its waitlist instead (or says that sign-up is closed).
 */
export function Signup({ search }: RoomProps) {
  const status = useLoad(() => unwrap(api.GET('/api/v1/auth/registration-status')), []);
  const [sentTo, setSentTo] = useState<string | undefined>(undefined);
  const invited = search.get('email') ?? '';
  if (status.loading && !status.data) return <Loading />;
  if (status.error) return <ErrorNotice error={status.error} />;
  if (status.data && !status.data.signup_open) return <Waitlist search={search} params={{}} />;
  if (sentTo) {
    return (
      <Page title="Check your inbox">
        <p>
          We sent a link to <strong>{sentTo}</strong>. Open it to verify the address, then <Link href={pathTo('login', {}, { email: sentTo })}>log in</Link>.
        </p>
      </Page>
    );
  }
  return (
    <Page
      title="Create your Oxbow account"
      lead={invited ? 'You were invited to a workspace: create your account with the invited address and you join it once the address is verified.' : undefined}
    >
      <Form
        label="Create an account"
        submitLabel="Create account"
        busyLabel="Creating the account…"
        onSubmit={async (values) => {
          await unwrap(
            api.POST('/api/v1/auth/signup', {
              body: { email: values.email ?? '', password: values.password ?? '', ...(values.name ? { name: values.name } : {}) },
            }),
          );
          setSentTo(values.email);
        }}
      >
        <Field label="Name (optional)" name="name" autoComplete="name" />
        <Field label="E-mail" name="email" type="email" autoComplete="email" required defaultValue={invited} />
        <Field label="Password" name="password" type="password" autoComplete="new-password" required minLength={8} hint="At least 8 characters." />
      </Form>
      <p class="aside">
        Already have an account? <Link href={pathTo('login')}>Log in</Link>
      </p>
    </Page>
  );
}

export function Waitlist({ search }: RoomProps) {
  const status = useLoad(() => unwrap(api.GET('/api/v1/auth/registration-status')), []);
  const [joined, setJoined] = useState(false);
  if (status.data && !status.data.waitlist_open) {
    return (
      <Page title="Sign-up is closed">
        <p>This Oxbow service takes no new accounts at the moment.</p>
      </Page>
    );
  }
  return (
    <Page title="Join the waitlist" lead="Sign-up is by invitation for now. Leave your address and we write when a place is free.">
      {joined ? (
        <Notice kind="success">You are on the waitlist.</Notice>
      ) : (
        <Form
          label="Join the waitlist"
          submitLabel="Join the waitlist"
          onSubmit={async (values) => {
            await unwrap(api.POST('/api/v1/auth/waitlist', { body: { email: values.email ?? '' } }));
            setJoined(true);
          }}
        >
          <Field label="E-mail" name="email" type="email" autoComplete="email" required defaultValue={search.get('email') ?? ''} />
        </Form>
      )}
    </Page>
  );
}
