import { documentationOf, type JsonSchemaObject } from './documented-schema';

// TypeBox writes t.Record(t.String(), X) as this pattern; `additionalProperties` says the same in the form generators know.
const anyKeyPattern = '^(.*)$';
const schemaMaps = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
const schemaLists = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const schemaValues = new Set(['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else']);

/**
 * TypeBox schemas as OpenAPI 3.1 (JSON Schema 2020-12) schemas: TypeBox's symbols left behind, a named
 * model anywhere inside written as a `$ref` to its component, unions of string literals as enums, and
 * a schema documented otherwise (see documentedAs) as documented.
 */
export class SchemaWriter {
  constructor(private readonly names: ReadonlyMap<object, string>) {}

  /** The schema, with every named model inside it (itself too, unless `inline`) as a reference. */
  write(schema: object, inline = false): JsonSchemaObject {
    const name = this.names.get(schema);
    if (name !== undefined && !inline) return { $ref: `#/components/schemas/${name}` };
    const documented = documentationOf(schema);
    if (documented) return structuredClone(documented);
    const out: JsonSchemaObject = {};
    for (const [key, value] of Object.entries(schema)) out[key] = this.keyword(key, value);
    return tidy(out);
  }

  private keyword(key: string, value: unknown): unknown {
    if (schemaMaps.has(key) && isObject(value)) return Object.fromEntries(Object.entries(value).map(([name, child]) => [name, this.write(child as object)]));
    if (schemaLists.has(key) && Array.isArray(value)) return value.map((child: object) => this.write(child));
    if (schemaValues.has(key) && isObject(value)) return this.write(value);
    return structuredClone(value);
  }
}

// Elysia widens integers, numbers and booleans to accept their text too (query strings and forms
// carry nothing else): `anyOf: [{type: 'string', format: 'integer'}, {type: 'integer'}]`.
const textForms = new Set(['integer', 'numeric', 'boolean']);

function tidy(schema: JsonSchemaObject): JsonSchemaObject {
  // OpenAPI 3.0's keyword: in 3.1 a null sits in the type or in anyOf, where Elysia puts it too.
  const { patternProperties, anyOf, nullable: _nullable, ...rest } = schema;
  const widened =
    Array.isArray(anyOf) && anyOf.length === 2
      ? anyOf.findIndex((member) => isObject(member) && member.type === 'string' && textForms.has(String(member.format)))
      : -1;
  if (widened >= 0) return tidy({ ...rest, ...(anyOf as JsonSchemaObject[])[1 - widened], ...(patternProperties ? { patternProperties } : {}) });
  if (isObject(patternProperties)) {
    const entries = Object.entries(patternProperties);
    if (entries.length === 1 && entries[0]![0] === anyKeyPattern) return tidy({ ...rest, ...(anyOf ? { anyOf } : {}), additionalProperties: entries[0]![1] });
  }
  if (
    Array.isArray(anyOf) &&
    anyOf.length > 0 &&
    anyOf.every((member) => isObject(member) && typeof member.const === 'string' && Object.keys(member).every((k) => k === 'const' || k === 'type'))
  ) {
    return { ...rest, ...(patternProperties ? { patternProperties } : {}), type: 'string', enum: anyOf.map((member) => (member as JsonSchemaObject).const) };
  }
  return { ...rest, ...(patternProperties ? { patternProperties } : {}), ...(anyOf ? { anyOf } : {}) };
}

function isObject(value: unknown): value is JsonSchemaObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
