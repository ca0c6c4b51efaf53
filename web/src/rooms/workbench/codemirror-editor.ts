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

/** The editor's look, as a theme beside CodeMirror's own rules. */
const look = EditorView.theme({
  '&': { maxHeight: '50vh', fontSize: '0.9rem', backgroundColor: '#ffffff' },
  '&.cm-focused': { outline: '3px solid #0b57d0', outlineOffset: '-3px' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', overflow: 'auto' },
  '.cm-content, .cm-gutter': { minHeight: '180px' },
  '.cm-gutters': { backgroundColor: '#f7f8fa', color: '#4e5969', borderRight: '1px solid #d9dde3' },
});

/**
 * The nonce the service gave this page for style elements: the console's style sheet link carries
 * it (the browser hides it from the attribute, but not from the element's `nonce` property).
 */
function styleNonce(): string {
  return document.querySelector<HTMLLinkElement>('link[rel="stylesheet"][nonce]')?.nonce ?? '';
}

/**
 * Text typed over a selection is put in by the editor itself: left to the browser, an edit across
 * the highlighted lines has it copy their styles into style attributes, which the console's policy
 * refuses (the editor would repair the text, but the page would report a violation).
 */
function typeOverSelection(event: InputEvent, view: EditorView): boolean {
  if (event.inputType !== 'insertText' || event.data === null || view.state.selection.main.empty) return false;
  event.preventDefault();
  view.dispatch(view.state.replaceSelection(event.data), { userEvent: 'input.type', scrollIntoView: true });
  return true;
}

/**
 * CodeMirror 6 with the PostgreSQL dialect of @codemirror/lang-sql: the workspace's schemas, tables
 * and columns completed, errors underlined where the service says they are. Tab is left to the
 * page (it moves the focus on), so the editor never traps the keyboard.
 *
 * CodeMirror writes its styles into a `<style>` element; the console's policy admits it by the
 * page's nonce (see styleNonce), and no other inline style.
 */
export function createSqlEditor(parent: HTMLElement, options: SqlEditorOptions): SqlEditorHandle {
  const language = new Compartment();
  const language_of = (schema: SQLNamespace) => sql({ dialect: PostgreSQL, schema, upperCaseKeywords: true });
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: options.doc,
      extensions: [
        look,
        EditorView.cspNonce.of(styleNonce()),
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
        keymap.of([{ key: 'Mod-Enter', run: () => (options.onRun(), true) }, ...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap]),
        EditorView.lineWrapping,
        EditorView.domEventHandlers({ beforeinput: typeOverSelection }),
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
