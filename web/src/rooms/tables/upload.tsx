import { useRef, useState } from 'preact/hooks';
import { uploadFile, uploadTypes, type PushAnswer } from '../../api/upload';
import { session } from '../../session/session';
import { Field, Form, SelectField } from '../../ui/forms';
import { Notice } from '../../ui/notice';
import { formatBytes, formatCount } from '../../ui/format';

/** A table name from a file name: `uploads.<file name as an identifier>`. */
function suggestedTable(fileName: string): string {
  const base =
    fileName
      .replace(/\.[^.]+$/, '')
      .toLowerCase()
      .replace(/[^a-z0-9_]+/g, '_')
      .replace(/^_+|_+$/g, '') || 'data';
  return `uploads.${/^[a-z_]/.test(base) ? base : `t_${base}`}`;
}

/** Uploads a CSV, NDJSON or Parquet file into a table (created when missing), with a progress bar. */
export function Upload({ workspaceId, onDone }: { workspaceId: string; onDone: (answer: PushAnswer) => void }) {
  const [progress, setProgress] = useState<{ sent: number; total: number } | undefined>(undefined);
  const [done, setDone] = useState<PushAnswer | undefined>(undefined);
  const [table, setTable] = useState('');
  const abort = useRef<AbortController | undefined>(undefined);
  const accept = uploadTypes.flatMap((entry) => entry.extensions).join(',');
  return (
    <div class="upload">
      {done ? (
        <Notice kind="success">
          {formatCount(done.records_written)} records written to <span class="mono">{done.table}</span>.
        </Notice>
      ) : null}
      <Form
        label="Upload a file into a table"
        submitLabel="Upload"
        busyLabel="Uploading…"
        secondary={
          progress ? (
            <button type="button" class="button" onClick={() => abort.current?.abort()}>
              Cancel upload
            </button>
          ) : null
        }
        onSubmit={async (values, form) => {
          const file = (form.elements.namedItem('file') as HTMLInputElement).files?.[0];
          if (!file) throw new Error('Choose a file to upload.');
          abort.current = new AbortController();
          setDone(undefined);
          setProgress({ sent: 0, total: file.size });
          try {
            const answer = await uploadFile({
              workspaceId,
              file,
              table: values.table ?? '',
              mode: values.mode === 'overwrite' ? 'overwrite' : 'append',
              primaryKey: (values.primary_key ?? '')
                .split(',')
                .map((name) => name.trim())
                .filter(Boolean),
              tokens: session,
              onProgress: (sent, total) => setProgress({ sent, total }),
              signal: abort.current.signal,
            });
            setDone(answer);
            onDone(answer);
            form.reset();
            setTable('');
          } finally {
            setProgress(undefined);
          }
        }}
      >
        <div class="field">
          <label for="upload-file">File</label>
          <input
            id="upload-file"
            name="file"
            type="file"
            accept={accept}
            required
            aria-describedby="upload-file-hint"
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              if (file && !table) setTable(suggestedTable(file.name));
            }}
          />
          <p class="field-hint" id="upload-file-hint">
            {uploadTypes.map((entry) => `${entry.extensions.join('/')}: ${entry.label}`).join('; ')}.
          </p>
        </div>
        <Field
          label="Table"
          name="table"
          required
          value={table}
          onInput={(event) => setTable(event.currentTarget.value)}
          hint="namespace.table; created when missing, its columns inferred from the file."
          class="mono"
        />
        <SelectField
          label="Mode"
          name="mode"
          options={[
            { value: 'append', label: 'Append to the table' },
            { value: 'overwrite', label: 'Replace the table’s rows' },
          ]}
        />
        <Field label="Primary key (optional)" name="primary_key" hint="Comma-separated columns; rows with a key already present replace it." class="mono" />
        {progress ? (
          <div class="progress-row">
            <label for="upload-progress">Upload progress</label>
            <progress id="upload-progress" max={progress.total || 1} value={progress.sent}>
              {Math.round((progress.sent / (progress.total || 1)) * 100)}%
            </progress>
            <span aria-hidden="true">
              {formatBytes(progress.sent)} of {formatBytes(progress.total)}
            </span>
          </div>
        ) : null}
      </Form>
    </div>
  );
}
