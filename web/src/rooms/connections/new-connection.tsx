import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import { Link } from '../../router/link';
import { navigate } from '../../router/history';
import { pathTo } from '../../router/paths';
import type { RoomProps } from '../../router/routes';
import { Field, Form, SelectField } from '../../ui/forms';
import { ErrorNotice, Loading } from '../../ui/notice';
import { Page } from '../../ui/page';
import { objectFromForm, objectToForm, type FormObject, type JsonSchema } from '../../ui/schema-form/json-schema';
import { SchemaFields } from '../../ui/schema-form/schema-form';
import { useLoad } from '../../ui/use-load';
import { loadConnectorTypes, type ConnectorType } from './connection-api';
import { OAuthConnect } from './connection-list';

/** A new connection: its type, then the form the type's JSON Schema makes; OAuth types through their provider's consent. */
export function NewConnection({ params, search }: RoomProps) {
  const workspaceId = params.workspaceId ?? '';
  const types = useLoad(loadConnectorTypes, []);
  const [typeName, setTypeName] = useState(search.get('type') ?? '');
  const type = types.data?.find((candidate) => candidate.type === typeName) ?? types.data?.[0];
  return (
    <Page title="New connection" lead="Its name is the schema its tables land in.">
      <p>
        <Link href={pathTo('workspaceConnections', { workspaceId })}>All connections</Link>
      </p>
      <ErrorNotice error={types.error} />
      {types.loading && !types.data ? <Loading /> : null}
      {types.data && type ? (
        <>
          <SelectField
            label="Source type"
            name="connector_type"
            value={type.type}
            onChange={(event) => setTypeName(event.currentTarget.value)}
            options={types.data.map((candidate) => ({ value: candidate.type, label: candidate.name }))}
            hint={type.description}
          />
          {type.auth === 'oauth' ? <OAuthConnect type={type} workspaceId={workspaceId} /> : <SpecForm key={type.type} type={type} workspaceId={workspaceId} />}
        </>
      ) : null}
    </Page>
  );
}

function SpecForm({ type, workspaceId }: { type: ConnectorType; workspaceId: string }) {
  const schema = type.spec_schema as JsonSchema;
  const [spec, setSpec] = useState<FormObject>(() => objectToForm(schema, {}));
  const create = async (values: Record<string, string>) => {
    const created = await unwrap(
      api.POST('/api/v1/workspaces/{workspace_id}/connections', {
        params: { path: { workspace_id: workspaceId } },
        body: {
          name: values.name ?? '',
          connector_type: type.type,
          spec: objectFromForm(schema, spec),
          query_mode: values.query_mode === 'live' ? 'live' : 'synced',
        },
      }),
    );
    navigate(pathTo('workspaceConnection', { workspaceId, connectionId: created.id }, { created: '1' }));
  };
  return (
    <Form label={`New ${type.name} connection`} submitLabel="Create connection" busyLabel="Creating…" onSubmit={create}>
      <Field
        label="Connection name"
        name="name"
        required
        maxLength={63}
        hint="Letters, digits and underscores, such as shop_db: the schema its tables land in."
      />
      <fieldset class="schema-group">
        <legend>{type.name} settings</legend>
        <SchemaFields schema={schema} value={spec} onChange={setSpec} path={['spec']} />
      </fieldset>
      {type.supports_live ? (
        <SelectField
          label="Query mode"
          name="query_mode"
          defaultValue="synced"
          options={[
            { value: 'synced', label: 'Synced: copied into the lake' },
            { value: 'live', label: 'Live: read from the source at query time' },
          ]}
        />
      ) : null}
    </Form>
  );
}
