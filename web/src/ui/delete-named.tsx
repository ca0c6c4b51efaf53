import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { unwrap } from '../api/client';
import { navigate } from '../router/history';
import { Dialog } from './dialog';
import { Form } from './forms';
import { Section } from './page';

interface Props {
  what: string;
  name: string;
  /** Told the confirmation form's values (its checkboxes: what else goes with it). */
  onDelete: (values: Record<string, string>) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  /** Where the room goes once it is gone. */
  back: string;
  /** What deleting it does, and the choices that go with it; "It cannot be undone." when nothing is said. */
  children?: ComponentChildren;
}

/** Deleting a named thing (a connection, a transform, a saved query, chart or page) after a confirmation; the service's 409 says what still uses it. */
export function DeleteNamed({ what, name, onDelete, back, children }: Props) {
  const [open, setOpen] = useState(false);
  return (
    <Section title={`Delete this ${what}`}>
      <button type="button" class="button danger" onClick={() => setOpen(true)}>
        Delete {what}…
      </button>
      <Dialog title={`Delete ${name}?`} open={open} onClose={() => setOpen(false)}>
        <Form
          label={`Confirm deleting the ${what}`}
          submitLabel={`Delete the ${what}`}
          secondary={
            <button type="button" class="button" onClick={() => setOpen(false)}>
              Cancel
            </button>
          }
          onSubmit={async (values) => {
            await unwrap(onDelete(values));
            navigate(back, { replace: true });
          }}
        >
          {children ?? <p>It cannot be undone.</p>}
        </Form>
      </Dialog>
    </Section>
  );
}
