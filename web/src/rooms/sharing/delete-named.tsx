import { useState } from 'preact/hooks';
import { unwrap } from '../../api/client';
import { navigate } from '../../router/history';
import { Dialog } from '../../ui/dialog';
import { Form } from '../../ui/forms';
import { Section } from '../../ui/page';

interface Props {
  what: string;
  name: string;
  onDelete: () => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  /** Where the room goes once it is gone. */
  back: string;
}

/** Deleting a saved query, chart or page by its name, after a confirmation (the service's 409 says what still uses it). */
export function DeleteNamed({ what, name, onDelete, back }: Props) {
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
          onSubmit={async () => {
            await unwrap(onDelete());
            navigate(back, { replace: true });
          }}
        >
          <p>It cannot be undone.</p>
        </Form>
      </Dialog>
    </Section>
  );
}
