/**
 * A request schema whose wire form differs from what the route validates: a query or form integer
 * arrives as text and is decoded (and bounds-checked with the field named) by a transform, yet the
 * document should say `integer`. The symbol survives TypeBox's copies (t.Optional spreads the schema)
 * and never reaches JSON.
 */
const documentedAsKey = Symbol('oxbow.documentedAs');

export type JsonSchemaObject = Record<string, unknown>;

export function documentedAs<T extends object>(schema: T, documented: JsonSchemaObject): T {
  Object.defineProperty(schema, documentedAsKey, { value: documented, enumerable: true });
  return schema;
}

export function documentationOf(schema: object): JsonSchemaObject | undefined {
  return (schema as { [documentedAsKey]?: JsonSchemaObject })[documentedAsKey];
}
