import type { InputHTMLAttributes } from 'preact';
import { useId } from 'preact/hooks';
import type { ParameterDefinition } from './sharing-api';
import type { ParameterTexts } from './parameter-values';

interface Props {
  definitions: ParameterDefinition[];
  texts: ParameterTexts;
  onChange: (texts: ParameterTexts) => void;
  /** Whether the browser requires the required ones (not when the values only lock some of them). */
  enforceRequired?: boolean;
  /** The service's complaint about a value, by parameter name. */
  errorOf?: (name: string) => string | undefined;
}

/** A field per parameter, typed by its definition: number fields, a checkbox, a date or date-time picker, a list of its options. */
export function ParameterFields({ definitions, texts, onChange, enforceRequired = true, errorOf }: Props) {
  const id = useId();
  return (
    <div class="field-row">
      {definitions.map((definition) => {
        const fieldId = `${id}-${definition.name}`;
        const required = enforceRequired && definition.required !== false && definition.default === undefined;
        const value = texts[definition.name];
        const error = errorOf?.(definition.name);
        const set = (next: string | boolean) => onChange({ ...texts, [definition.name]: next });
        const hint = [
          definition.description,
          `${definition.type}${definition.required === false ? ', optional' : ''}${definition.default !== undefined ? `, default ${String(definition.default)}` : ''}`,
        ]
          .filter(Boolean)
          .join(' · ');
        const described = `${fieldId}-hint${error ? ` ${fieldId}-error` : ''}`;
        if (definition.type === 'boolean' && typeof value === 'boolean') {
          return (
            <div class="field" key={definition.name}>
              <label class="check" for={fieldId}>
                <input
                  id={fieldId}
                  type="checkbox"
                  checked={value === true}
                  aria-describedby={described}
                  onChange={(event) => set(event.currentTarget.checked)}
                />{' '}
                {definition.name}
              </label>
              <p class="field-hint" id={`${fieldId}-hint`}>
                {hint}
              </p>
            </div>
          );
        }
        const text = typeof value === 'string' ? value : '';
        return (
          <div class="field" key={definition.name}>
            <label for={fieldId}>{definition.name}</label>
            {definition.type === 'enum' || definition.type === 'boolean' ? (
              <select id={fieldId} required={required} value={text} aria-describedby={described} onChange={(event) => set(event.currentTarget.value)}>
                <option value="">—</option>
                {(definition.type === 'boolean' ? ['true', 'false'] : (definition.options ?? [])).map((option) => (
                  <option key={option} value={option}>
                    {option}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={fieldId}
                {...inputType(definition.type)}
                required={required}
                value={text}
                aria-invalid={error ? true : undefined}
                aria-describedby={described}
                onInput={(event) => set(event.currentTarget.value)}
              />
            )}
            <p class="field-hint" id={`${fieldId}-hint`}>
              {hint}
            </p>
            {error ? (
              <p class="field-error" id={`${fieldId}-error`}>
                {error}
              </p>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}

function inputType(type: ParameterDefinition['type']): InputHTMLAttributes<HTMLInputElement> {
  switch (type) {
    case 'integer':
      return { type: 'number', step: 1 };
    case 'number':
      return { type: 'number', step: 'any' };
    case 'date':
      return { type: 'date' };
    case 'timestamp':
      return { type: 'datetime-local', step: 1 };
    default:
      return { type: 'text' };
  }
}
