import type { ParameterDefinition } from './sharing-api';
import { TableHead } from '../../ui/table-head';

type Type = ParameterDefinition['type'];
const types: Type[] = ['string', 'integer', 'number', 'boolean', 'date', 'timestamp', 'enum'];

/** A parameter's definition as the form holds it: the default and options as typed. */
export interface DefinitionDraft {
  name: string;
  type: Type;
  default: string;
  required: boolean;
  options: string;
  description: string;
}

/** The `{{name}}` placeholders of a SQL text, each once, in order. */
export function placeholders(sql: string): string[] {
  return [...new Set([...sql.matchAll(/\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/g)].map((match) => match[1]!))];
}

/** The drafts for the SQL's placeholders: those already there kept, new ones added as text parameters. */
export function draftsFor(sql: string, drafts: DefinitionDraft[]): DefinitionDraft[] {
  return placeholders(sql).map(
    (name) => drafts.find((draft) => draft.name === name) ?? { name, type: 'string', default: '', required: true, options: '', description: '' },
  );
}

export function definitionOf(draft: DefinitionDraft): ParameterDefinition {
  const options = draft.options
    .split(',')
    .map((option) => option.trim())
    .filter(Boolean);
  const text = draft.default.trim();
  const fallback =
    text === '' ? undefined : draft.type === 'integer' || draft.type === 'number' ? Number(text) : draft.type === 'boolean' ? text === 'true' : text;
  return {
    name: draft.name,
    type: draft.type,
    required: draft.required,
    ...(fallback === undefined ? {} : { default: fallback }),
    ...(draft.type === 'enum' ? { options } : {}),
    ...(draft.description.trim() ? { description: draft.description.trim() } : {}),
  };
}

/** One row per placeholder of the SQL: its type, default, whether it is required, an enum's options. */
export function ParameterDefinitions({ drafts, onChange }: { drafts: DefinitionDraft[]; onChange: (drafts: DefinitionDraft[]) => void }) {
  if (drafts.length === 0) return <p class="field-hint">Write {'{{name}}'} in the SQL where a value goes: each becomes a parameter here.</p>;
  const set = (index: number, patch: Partial<DefinitionDraft>) => onChange(drafts.map((draft, at) => (at === index ? { ...draft, ...patch } : draft)));
  return (
    <div class="table-wrap">
      <table class="data-table">
        <caption>Parameters</caption>
        <TableHead columns={['Name', 'Type', 'Default', 'Required', 'Options (enum)', 'Description']} />
        <tbody>
          {drafts.map((draft, index) => (
            <tr key={draft.name}>
              <td class="mono">{draft.name}</td>
              <td>
                <select aria-label={`Type of ${draft.name}`} value={draft.type} onChange={(event) => set(index, { type: event.currentTarget.value as Type })}>
                  {types.map((type) => (
                    <option key={type} value={type}>
                      {type}
                    </option>
                  ))}
                </select>
              </td>
              <td>
                <input aria-label={`Default of ${draft.name}`} value={draft.default} onInput={(event) => set(index, { default: event.currentTarget.value })} />
              </td>
              <td>
                <input
                  type="checkbox"
                  aria-label={`${draft.name} is required`}
                  checked={draft.required}
                  onChange={(event) => set(index, { required: event.currentTarget.checked })}
                />
              </td>
              <td>
                <input
                  aria-label={`Options of ${draft.name}, separated by commas`}
                  value={draft.options}
                  disabled={draft.type !== 'enum'}
                  onInput={(event) => set(index, { options: event.currentTarget.value })}
                />
              </td>
              <td>
                <input
                  aria-label={`Description of ${draft.name}`}
                  value={draft.description}
                  onInput={(event) => set(index, { description: event.currentTarget.value })}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
