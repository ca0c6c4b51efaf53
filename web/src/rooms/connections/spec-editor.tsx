import { useState } from 'preact/hooks';
import { Form } from '../../ui/forms';
import { objectFromForm, objectToForm, type FormObject, type Json, type JsonSchema } from '../../ui/schema-form/json-schema';
import { SchemaFields } from '../../ui/schema-form/schema-form';
import { updateConnection, type Connection, type ConnectorType } from './connection-api';

interface Props {
  connection: Connection;
  type: ConnectorType;
  workspaceId: string;
  canEdit: boolean;
  onSaved: (connection: Connection) => void;
}

/** The connection's settings in the form its type's schema makes; stored secrets stay unless typed anew. */
export function SpecEditor({ connection, type, workspaceId, canEdit, onSaved }: Props) {
  const schema = type.spec_schema as JsonSchema;
  const [spec, setSpec] = useState<FormObject>(() => objectToForm(schema, connection.spec as { [key: string]: Json }));
  const [saved, setSaved] = useState(false);
  if (!canEdit) return <pre class="spec-view">{JSON.stringify(connection.spec, null, 2)}</pre>;
  return (
    <Form
      label={`Settings of ${connection.name}`}
      submitLabel="Save settings"
      busyLabel="Saving…"
      secondary={saved ? <span role="status">Saved.</span> : null}
      onSubmit={async () => {
        setSaved(false);
        onSaved(await updateConnection(workspaceId, connection.id, { spec: objectFromForm(schema, spec) }));
        setSaved(true);
      }}
    >
      <SchemaFields schema={schema} value={spec} onChange={setSpec} path={['spec']} />
    </Form>
  );
}
