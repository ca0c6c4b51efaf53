import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { PostgreSQL, sql, type SQLNamespace } from '@codemirror/lang-sql';
import { bracketMatching, defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, setDiagnostics } from '@codemirror/lint';
import { Compartment, EditorSelection, EditorState } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers, placeholder } from '@codemirror/view';

export interface SqlEditorOptions {
  doc: string;
  label: string;
  onChange: (doc: string) => void;
  /** Ctrl/Cmd-Enter. */
  onRun: () => void;
}

export interface SqlEditorHandle {
  setDoc(doc: string): void;
  /** The tables and columns completion offers: `{ schema: { table: [columns] } }`. */
  setSchema(schema: SQLNamespace): void;
  showError(from: number, to: number, message: string): void;
  clearError(): void;
  /** Puts text at the cursor (replacing a selection). */
  insert(text: string): void;
  focusAt(offset?: number): void;
  destroy(): void;
}

/**
 * CodeMirror 6 with the PostgreSQL dialect of @codemirror/lang-sql: the workspace's schemas, tables
 * and columns completed, errors underlined where the service says they are. Tab is left to the
 * page (it moves the focus on), so the editor never traps the keyboard.
 */
export function createSqlEditor(parent: HTMLElement, options: SqlEditorOptions): SqlEditorHandle {
  const language = new Compartment();
  const language_of = (schema: SQLNamespace) => sql({ dialect: PostgreSQL, schema, upperCaseKeywords: true });
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: options.doc,
      extensions: [
        lineNumbers(),
        history(),
        drawSelection(),
        highlightActiveLine(),
        bracketMatching(),
        closeBrackets(),
        autocompletion(),
        lintGutter(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        language.of(language_of({})),
        placeholder('SELECT … FROM schema.table'),
        keymap.of([
          { key: 'Mod-Enter', run: () => (options.onRun(), true) },
          ...closeBracketsKeymap,
          ...defaultKeymap,
          ...historyKeymap,
          ...completionKeymap,
        ]),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ 'aria-label': options.label, 'aria-multiline': 'true' }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    setDoc(doc) {
      if (doc !== view.state.doc.toString()) view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: doc } });
    },
    setSchema(schema) {
      view.dispatch({ effects: language.reconfigure(language_of(schema)) });
    },
    showError(from, to, message) {
      const end = view.state.doc.length;
      view.dispatch(setDiagnostics(view.state, [{ from: Math.min(from, end), to: Math.min(Math.max(to, from + 1), end), severity: 'error', message }]));
    },
    clearError() {
      view.dispatch(setDiagnostics(view.state, []));
    },
    insert(text) {
      view.dispatch(view.state.replaceSelection(text));
      view.focus();
    },
    focusAt(offset) {
      if (offset !== undefined) view.dispatch({ selection: EditorSelection.cursor(Math.min(offset, view.state.doc.length)), scrollIntoView: true });
      view.focus();
    },
    destroy: () => view.destroy(),
  };
}
