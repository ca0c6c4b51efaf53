import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import { useId, useState } from 'preact/hooks';
import { FieldFrame as Frame, useFormError } from '../forms';
import { enumOptions, kindOf, labelOf, secretMask, toForm, withoutNull, type FormObject, type FormValue, type JsonSchema } from './json-schema';

type Path = (string | number)[];

interface Props {
  schema: JsonSchema;
  value: FormObject;
  onChange: (value: FormObject) => void;
  /** Where the object sits in the request body, for the service's 422 about a field (`['spec']`). */
  path: Path;
}

/**
 * The fields of an object schema, drawn from the schema alone: required fields marked and checked by
 * the browser, enums as lists, defaults filled in, secrets as password fields that keep a stored
 * value unless a new one is typed, nested objects as groups and repeated groups with add and remove.
 */
export function SchemaFields({ schema, value, onChange, path }: Props) {
  const required = new Set(schema.required ?? []);
  return (
    <>
      {Object.entries(schema.properties ?? {}).map(([name, property]) => (
        <SchemaField
          key={name}
          name={name}
          schema={property}
          required={required.has(name)}
          value={value[name] ?? toForm(property, undefined)}
          onChange={(next) => onChange({ ...value, [name]: next })}
          path={[...path, name]}
        />
      ))}
    </>
  );
}

interface FieldProps {
  name: string;
  schema: JsonSchema;
  required: boolean;
  value: FormValue;
  onChange: (value: FormValue) => void;
  path: Path;
}

function SchemaField(props: FieldProps) {
  const schema = withoutNull(props.schema);
  const label = labelOf(props.name, schema);
  switch (kindOf(schema)) {
    case 'object':
      return (
        <fieldset class="schema-group">
          <legend>{label}</legend>
          {schema.description ? <p class="field-hint">{schema.description}</p> : null}
          <SchemaFields schema={schema} value={props.value as FormObject} onChange={props.onChange} path={props.path} />
        </fieldset>
      );
    case 'list':
      return <ListField {...props} label={label} schema={schema} />;
    case 'choices':
      return <ChoicesField {...props} label={label} schema={schema} />;
    case 'boolean':
      return <BooleanField {...props} label={label} schema={schema} />;
    default:
      return <InputField {...props} label={label} schema={schema} />;
  }
}

/** The frame of a generated field: required ones marked, the service's complaint found by the field's place in the body. */
function FieldFrame({
  id,
  label,
  hint,
  path,
  required,
  children,
}: {
  id: string;
  label: string;
  hint: string | undefined;
  path: Path;
  required: boolean;
  children: (described: string | undefined, invalid: boolean) => ComponentChildren;
}) {
  const error = useFormError()?.messageAt(path);
  const title = (
    <>
      {label}
      {required ? <span class="required-mark"> (required)</span> : null}
    </>
  );
  return (
    <Frame id={id} label={title} hint={hint} error={error}>
      {children}
    </Frame>
  );
}

function hintOf(schema: JsonSchema, extra?: string): string | undefined {
  const parts = [schema.description, extra].filter((part): part is string => Boolean(part)).map((part) => (/[.!?)]$/.test(part) ? part : `${part}.`));
  return parts.length > 0 ? parts.join(' ') : undefined;
}

type Typed = FieldProps & { label: string };

function InputField({ schema, label, required, value, onChange, path }: Typed) {
  const id = useId();
  const kind = kindOf(schema);
  const [stored] = useState(kind === 'secret' && value === secretMask);
  const text = String(value);
  if (kind === 'enum') {
    const options = enumOptions(schema) ?? [];
    return (
      <FieldFrame id={id} label={label} hint={hintOf(schema)} path={path} required={required}>
        {(described, invalid) => (
          <select
            id={id}
            required={required}
            value={text}
            aria-describedby={described}
            aria-invalid={invalid || undefined}
            onChange={(event) => onChange(event.currentTarget.value)}
          >
            {required && text !== '' ? null : <option value="">—</option>}
            {options.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        )}
      </FieldFrame>
    );
  }
  if (kind === 'lines' || kind === 'map' || kind === 'json') {
    const how = kind === 'lines' ? 'One per line.' : kind === 'map' ? 'One "name: value" per line.' : 'As JSON.';
    return (
      <FieldFrame id={id} label={label} hint={hintOf(schema, how)} path={path} required={required}>
        {(described, invalid) => (
          <textarea
            id={id}
            class="mono"
            rows={kind === 'json' ? 6 : 3}
            required={required && kind !== 'json'}
            value={text}
            aria-describedby={described}
            aria-invalid={invalid || undefined}
            onInput={(event) => onChange(event.currentTarget.value)}
          />
        )}
      </FieldFrame>
    );
  }
  const secret = kind === 'secret';
  const numeric = kind === 'integer' || kind === 'number';
  const hint = hintOf(schema, secret && stored ? 'A value is stored: leave the field empty to keep it.' : undefined);
  return (
    <FieldFrame id={id} label={label} hint={hint} path={path} required={required && !stored}>
      {(described, invalid) => (
        <input
          {...({ type: secret ? 'password' : numeric ? 'number' : 'text' } as InputHTMLAttributes<HTMLInputElement>)}
          id={id}
          autoComplete={secret ? 'new-password' : 'off'}
          // A secret may be empty (a role without a password); every other required field may not.
          required={required && !secret}
          value={secret && text === secretMask ? '' : text}
          step={kind === 'integer' ? 1 : numeric ? 'any' : undefined}
          min={schema.minimum}
          max={schema.maximum}
          minLength={schema.minLength}
          maxLength={schema.maxLength}
          aria-describedby={described}
          aria-invalid={invalid || undefined}
          onInput={(event) => {
            const typed = event.currentTarget.value;
            onChange(secret && stored && typed === '' ? secretMask : typed);
          }}
        />
      )}
    </FieldFrame>
  );
}

function BooleanField({ schema, label, value, onChange, path }: Typed) {
  const id = useId();
  const error = useFormError()?.messageAt(path);
  return (
    <div class="field">
      <label class="check" for={id}>
        <input
          id={id}
          type="checkbox"
          checked={value === true}
          aria-describedby={schema.description ? `${id}-hint` : undefined}
          onChange={(event) => onChange(event.currentTarget.checked)}
        />{' '}
        {label}
      </label>
      {schema.description ? (
        <p class="field-hint" id={`${id}-hint`}>
          {schema.description}
        </p>
      ) : null}
      {error ? <p class="field-error">{error}</p> : null}
    </div>
  );
}

function ChoicesField({ schema, label, required, value, onChange, path }: Typed) {
  const id = useId();
  const chosen = value as string[];
  const options = enumOptions(withoutNull(schema.items ?? {})) ?? [];
  const error = useFormError()?.messageAt(path);
  return (
    <fieldset class="schema-group" aria-describedby={schema.description ? `${id}-hint` : undefined}>
      <legend>
        {label}
        {required ? <span class="required-mark"> (required)</span> : null}
      </legend>
      {schema.description ? (
        <p class="field-hint" id={`${id}-hint`}>
          {schema.description}
        </p>
      ) : null}
      {options.map((option) => (
        <label key={option} class="check">
          <input
            type="checkbox"
            checked={chosen.includes(option)}
            onChange={(event) =>
              onChange(
                event.currentTarget.checked
                  ? options.filter((other) => other === option || chosen.includes(other))
                  : chosen.filter((other) => other !== option),
              )
            }
          />{' '}
          {option}
        </label>
      ))}
      {error ? <p class="field-error">{error}</p> : null}
    </fieldset>
  );
}

function ListField({ schema, label, value, onChange, path, name }: Typed) {
  const items = value as FormValue[];
  const itemSchema = withoutNull(schema.items ?? {});
  const error = useFormError()?.messageAt(path);
  const singular = labelOf(name.replace(/s$/, ''), {});
  return (
    <fieldset class="schema-group">
      <legend>{label}</legend>
      {schema.description ? <p class="field-hint">{schema.description}</p> : null}
      {items.map((item, index) => (
        <fieldset key={index} class="schema-item">
          <legend>
            {singular} {index + 1}
          </legend>
          <SchemaFields
            schema={itemSchema}
            value={item as FormObject}
            onChange={(next) => onChange(items.map((other, at) => (at === index ? next : other)))}
            path={[...path, index]}
          />
          <button type="button" class="button small" onClick={() => onChange(items.filter((_, at) => at !== index))}>
            Remove {singular.toLowerCase()} {index + 1}
          </button>
        </fieldset>
      ))}
      {error ? <p class="field-error">{error}</p> : null}
      <button type="button" class="button small" onClick={() => onChange([...items, toForm(itemSchema, {})])}>
        Add {singular.toLowerCase()}
      </button>
    </fieldset>
  );
}
