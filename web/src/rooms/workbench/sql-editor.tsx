import { useEffect, useRef, useState } from 'preact/hooks';
import type { SqlEditorHandle } from './codemirror-editor';
import type { SqlPosition } from './sql-text';
import type { SchemaTree } from './schema-tree';

interface Props {
  value: string;
  onChange: (value: string) => void;
  onRun: () => void;
  schema: SchemaTree;
  error: { position: SqlPosition; message: string } | undefined;
  /** Gets the editor's handle once it is ready (to replace or insert text, or move to an error). */
  onReady?: (handle: SqlEditorHandle | undefined) => void;
  /** The editor's accessible name; it says what Ctrl+Enter does. */
  label?: string;
}

/**
 * The SQL editor. CodeMirror is a chunk of its own, loaded as the workbench opens; until it is
 * there (or if it cannot load) a plain text area does the same job.
 */
export function SqlEditor({ value, onChange, onRun, schema, error, onReady, label = 'SQL query (Ctrl+Enter or Cmd+Enter runs it)' }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<SqlEditorHandle | undefined>(undefined);
  const [ready, setReady] = useState(false);
  // The editor owns its text: it reports each change, and takes a new text only through its handle
  // (history, time travel). Writing `value` back from an effect could run a stale render's value
  // after newer typing, and two renders would pass the text back and forth.
  const latest = useRef({ value, onChange, onRun });
  latest.current = { value, onChange, onRun };

  useEffect(() => {
    let cancelled = false;
    void import('./codemirror-editor').then(({ createSqlEditor }) => {
      if (cancelled || !host.current) return;
      editor.current = createSqlEditor(host.current, {
        doc: latest.current.value,
        label,
        onChange: (doc) => latest.current.onChange(doc),
        onRun: () => latest.current.onRun(),
      });
      setReady(true);
      onReady?.(editor.current);
    });
    return () => {
      cancelled = true;
      editor.current?.destroy();
      editor.current = undefined;
      onReady?.(undefined);
    };
  }, []);
  useEffect(() => editor.current?.setSchema(schema), [schema, ready]);
  useEffect(() => {
    if (error) editor.current?.showError(error.position.from, error.position.to, error.message);
    else editor.current?.clearError();
  }, [error, ready]);

  return (
    <div class="sql-editor">
      <div ref={host} class="sql-editor-host" hidden={!ready} />
      {ready ? null : (
        <textarea
          class="sql-editor-fallback mono"
          aria-label={label}
          value={value}
          rows={8}
          spellcheck={false}
          onInput={(event) => onChange(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
              event.preventDefault();
              onRun();
            }
          }}
        />
      )}
    </div>
  );
}
