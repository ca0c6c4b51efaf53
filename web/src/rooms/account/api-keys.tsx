import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import type { components } from '../../api/schema';
import { CopyField } from '../../ui/copy-field';
import { Dialog } from '../../ui/dialog';
import { Field, Form } from '../../ui/forms';
import { ErrorNotice, Loading, Notice } from '../../ui/notice';
import { Page, Section } from '../../ui/page';
import { formatTime } from '../../ui/format';
import { useLoad } from '../../ui/use-load';
import { TableHead } from '../../ui/table-head';

type ApiKey = components['schemas']['APIKeyResponse'];

/** API keys for /execute and the CLI: create (the key shown once), reveal again with the password, revoke. */
export function ApiKeys() {
  const keys = useLoad(() => unwrap(api.GET('/api/v1/auth/api-keys', { params: { query: { limit: 200 } } })), []);
  const [shown, setShown] = useState<ApiKey | undefined>(undefined);
  const [revealing, setRevealing] = useState<ApiKey | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const revoke = async (key: ApiKey) => {
    setError(undefined);
    try {
      await unwrap(api.DELETE('/api/v1/auth/api-keys/{key_id}', { params: { path: { key_id: key.id } } }));
      if (shown?.id === key.id) setShown(undefined);
      await keys.reload();
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <Page title="API keys" lead="Keys let programs and the CLI query your workspaces (X-API-Key or Authorization: Bearer). Treat them as passwords.">
      {shown?.key ? (
        <Notice kind="success">
          <CopyField label={`Key ${shown.name}`} value={shown.key} />
        </Notice>
      ) : null}
      <Section title="Create a key">
        <Form
          label="Create an API key"
          submitLabel="Create key"
          class="inline-form"
          onSubmit={async (values, form) => {
            const expires = values.expires_at ? new Date(`${values.expires_at}T23:59:59Z`).toISOString() : null;
            const created = await unwrap(api.POST('/api/v1/auth/api-keys', { body: { name: values.name ?? '', expires_at: expires } }));
            setShown(created);
            form.reset();
            await keys.reload();
          }}
        >
          <Field label="Name" name="name" required maxLength={100} hint="Say where it is used, e.g. “nightly report”." />
          <Field label="Expires (optional)" name="expires_at" type="date" hint="The key stops working after this day (UTC)." />
        </Form>
      </Section>
      <Section title="Your keys">
        {keys.loading && !keys.data ? <Loading /> : null}
        <ErrorNotice error={keys.error ?? error} />
        {keys.data?.length === 0 ? <p>No keys yet.</p> : null}
        {keys.data && keys.data.length > 0 ? (
          <div class="table-wrap">
            <table class="data-table">
              <caption class="visually-hidden">Your API keys</caption>
              <TableHead columns={['Name', 'Prefix', 'Created', 'Last used', 'Expires', <span class="visually-hidden">Actions</span>]} />
              <tbody>
                {keys.data.map((key) => (
                  <tr key={key.id}>
                    <td>{key.name}</td>
                    <td class="mono">{key.prefix}…</td>
                    <td>{formatTime(key.created_at)}</td>
                    <td>{formatTime(key.last_used_at)}</td>
                    <td>{key.expires_at ? formatTime(key.expires_at) : 'Never'}</td>
                    <td class="row-actions">
                      <button type="button" class="button small" onClick={() => setRevealing(key)}>
                        Reveal<span class="visually-hidden"> {key.name}</span>
                      </button>
                      <button type="button" class="button danger small" onClick={() => void revoke(key)}>
                        Revoke<span class="visually-hidden"> {key.name}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </Section>
      <Dialog title={`Reveal ${revealing?.name ?? 'key'}`} open={revealing !== undefined} onClose={() => setRevealing(undefined)}>
        <Form
          label="Reveal the key"
          submitLabel="Reveal"
          onSubmit={async (values) => {
            if (!revealing) return;
            const key = await unwrap(
              api.POST('/api/v1/auth/api-keys/{key_id}/reveal', { params: { path: { key_id: revealing.id } }, body: { password: values.password ?? '' } }),
            );
            setShown(key);
            setRevealing(undefined);
          }}
        >
          <Field
            label="Your password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            hint="Revealing a key asks for the password again."
          />
        </Form>
      </Dialog>
    </Page>
  );
}
