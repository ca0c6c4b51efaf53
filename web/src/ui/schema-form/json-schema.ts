/**
 * The part of JSON Schema the service's connector specs use (TypeBox writes them), and how a form
 * holds a value of each: text in text boxes, lists one per line, nested objects as groups.
 */
export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  writeOnly?: boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** What the service shows instead of a stored secret; sent back as it is, the secret is kept. */
export const secretMask = '********';

/**
 * How a field is edited: `enum` a list to pick from, `choices` several of a list, `lines` a list of
 * words one per line, `map` name: value pairs one per line, `list` a repeated group, `json` the
 * value as JSON text (what the form does not know how to draw).
 */
export type FieldKind = 'enum' | 'text' | 'secret' | 'integer' | 'number' | 'boolean' | 'choices' | 'lines' | 'map' | 'object' | 'list' | 'json';

/** A field's value in the form. */
export type FormValue = string | boolean | string[] | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

/** The schema without a `null` alternative (a nullable field is an optional one here). */
export function withoutNull(schema: JsonSchema): JsonSchema {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (!alternatives) return schema;
  const rest = alternatives.filter((alternative) => alternative.type !== 'null');
  if (rest.length === 1 && rest.length < alternatives.length)
    return { ...rest[0], description: schema.description ?? rest[0]!.description, default: schema.default ?? rest[0]!.default };
  return schema;
}

/** The values to pick from: `enum`, or alternatives that are each one constant. */
export function enumOptions(schema: JsonSchema): string[] | undefined {
  if (schema.enum) return schema.enum.map(String);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0 && alternatives.every((alternative) => alternative.const !== undefined))
    return alternatives.map((alternative) => String(alternative.const));
  return undefined;
}

function typeOf(schema: JsonSchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((type) => type !== 'null') : schema.type;
}

export function kindOf(raw: JsonSchema): FieldKind {
  const schema = withoutNull(raw);
  if (enumOptions(schema)) return 'enum';
  switch (typeOf(schema)) {
    case 'string':
      return schema.writeOnly ? 'secret' : 'text';
    case 'integer':
      return 'integer';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array': {
      const items = withoutNull(schema.items ?? {});
      if (enumOptions(items)) return 'choices';
      const itemType = typeOf(items);
      if (itemType === 'object' && items.properties) return 'list';
      return itemType === 'string' || itemType === 'integer' || itemType === 'number' ? 'lines' : 'json';
    }
    case 'object':
      if (schema.properties) return 'object';
      if (typeof schema.additionalProperties === 'object' && typeOf(schema.additionalProperties) === 'string') return 'map';
      return 'json';
    default:
      return 'json';
  }
}

/** The form's value of a field from its JSON value, or its default when it has none. */
export function toForm(raw: JsonSchema, value: Json | undefined): FormValue {
  const schema = withoutNull(raw);
  const given = value === undefined || value === null ? (schema.default as Json | undefined) : value;
  switch (kindOf(schema)) {
    case 'boolean':
      return given === true;
    case 'choices':
      return Array.isArray(given) ? given.map(String) : [];
    case 'lines':
      return Array.isArray(given) ? given.map(String).join('\n') : '';
    case 'map':
      return given && typeof given === 'object' && !Array.isArray(given)
        ? Object.entries(given)
            .map(([key, entry]) => `${key}: ${String(entry)}`)
            .join('\n')
        : '';
    case 'object':
      return objectToForm(schema, given && typeof given === 'object' && !Array.isArray(given) ? given : {});
    case 'list':
      return Array.isArray(given) ? given.map((item) => toForm(schema.items!, item)) : [];
    case 'json':
      return given === undefined ? '' : JSON.stringify(given, null, 2);
    default:
      return given === undefined || given === null ? '' : String(given);
  }
}

export function objectToForm(schema: JsonSchema, value: { [key: string]: Json }): FormObject {
  const form: FormObject = {};
  for (const [key, property] of Object.entries(schema.properties ?? {})) form[key] = toForm(property, value[key]);
  return form;
}

/** A field's JSON value from the form; undefined for an optional field left empty (the service's default applies). */
export function fromForm(raw: JsonSchema, value: FormValue, required: boolean): Json | undefined {
  const schema = withoutNull(raw);
  switch (kindOf(schema)) {
    case 'boolean':
      return value === true;
    case 'integer':
    case 'number': {
      const text = String(value).trim();
      return text === '' ? undefined : Number(text);
    }
    case 'choices': {
      const chosen = value as string[];
      return chosen.length === 0 && !required ? undefined : chosen;
    }
    case 'lines': {
      const items = String(value)
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      const typed = typeOf(withoutNull(schema.items ?? {})) === 'string' ? items : items.map(Number);
      return typed.length === 0 && !required ? undefined : typed;
    }
    case 'map': {
      const entries = String(value)
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean)
        .map((line) => {
          const colon = line.indexOf(':');
          return colon < 0 ? [line, ''] : [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
        });
      return entries.length === 0 && !required ? undefined : Object.fromEntries(entries);
    }
    case 'object': {
      const object = objectFromForm(schema, value as FormObject);
      return Object.keys(object).length === 0 && !required ? undefined : object;
    }
    case 'list':
      return (value as FormValue[]).map((item) => objectFromForm(schema.items!, item as FormObject));
    case 'json': {
      const text = String(value).trim();
      return text === '' ? undefined : (JSON.parse(text) as Json);
    }
    default: {
      const text = String(value);
      return text === '' && !required ? undefined : text;
    }
  }
}

export function objectFromForm(schema: JsonSchema, form: FormObject): { [key: string]: Json } {
  const required = new Set(schema.required ?? []);
  const object: { [key: string]: Json } = {};
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const value = form[key];
    if (value === undefined) continue;
    const json = fromForm(property, value, required.has(key));
    if (json !== undefined) object[key] = json;
  }
  return object;
}

const acronyms = new Set(['id', 'url', 'ssl', 'api', 'sql', 'crm', 'aws', 's3', 'http', 'https']);

/** A label for a property name: `ssl_mode` → "SSL mode", `base_url` → "Base URL". */
export function labelOf(name: string, schema: JsonSchema): string {
  if (schema.title) return schema.title;
  const words = name
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((word) => (acronyms.has(word.toLowerCase()) ? word.toUpperCase() : word.toLowerCase()));
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
