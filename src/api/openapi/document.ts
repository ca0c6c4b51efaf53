import type { DocumentDecoration } from 'elysia';
import type { OpenAPIV3_1 } from 'openapi-types';
import { namedModels, securitySchemes, tagDescriptions } from './components';
import { documentationOf, type JsonSchemaObject } from './documented-schema';
import { SchemaWriter } from './json-schema';
import { operationDocOf } from './operation';
import { responsesOf } from './responses';
import { locationRule } from './created-location';

/** What the document reads from one of the app's routes. */
export interface DocumentedRoute {
  method: string;
  path: string;
  hooks: { body?: unknown; query?: unknown; params?: unknown; headers?: unknown; response?: unknown; detail?: DocumentDecoration };
}

export interface DocumentOptions {
  title: string;
  description: string;
  /** The service's public address (PUBLIC_BASE_URL): the document's server. */
  publicBaseUrl: string;
}

type ObjectSchema = { properties?: Record<string, object>; required?: string[] };

/**
 * The OpenAPI 3.1 document of the app, from its routes: each route's schemas and its operation's
 * documentation (see operation.ts). A route without one is a mistake the document refuses to hide.
 */
export function openapiDocument(routes: readonly DocumentedRoute[], options: DocumentOptions): OpenAPIV3_1.Document {
  const names = new Map(Object.entries(namedModels).map(([name, schema]) => [schema, name]));
  const writer = new SchemaWriter(names);
  const bodies = new RequestBodies(names);
  const paths: OpenAPIV3_1.PathsObject = {};
  const operationIds = new Set<string>();
  for (const route of routes) {
    if (route.hooks.detail?.hide) continue;
    const doc = operationDocOf(route.hooks.detail);
    if (!doc) throw new Error(`${route.method} ${route.path} has no operation documentation`);
    if (operationIds.has(doc.id)) throw new Error(`operation id ${doc.id} is used twice`);
    operationIds.add(doc.id);
    const security = route.hooks.detail?.security;
    const operation: OpenAPIV3_1.OperationObject = {
      operationId: doc.id,
      summary: doc.summary,
      ...(doc.description ? { description: doc.description } : {}),
      tags: doc.tags,
      // `[]`: public, said outright (an operation without the key would inherit a default a reader must look up).
      security: security?.length ? security : [],
      parameters: [
        ...parameters(route.hooks.params, 'path', writer),
        ...parameters(route.hooks.query, 'query', writer),
        ...parameters(route.hooks.headers, 'header', writer),
      ],
      ...(route.hooks.body
        ? { requestBody: bodies.add(route.hooks.body as object, doc.requestBody ?? 'application/json', !doc.optionalBody, doc.uploads) }
        : {}),
      responses: responsesOf(
        {
          method: route.method,
          hasInput: [route.hooks.body, route.hooks.query, route.hooks.params, route.hooks.headers].some(Boolean),
          secured: Boolean(security?.length),
          responseSchemas: responseSchemas(route.hooks.response),
          locatesCreated: locationRule(route, routes) !== undefined,
        },
        doc,
        writer,
      ),
    };
    if (operation.parameters?.length === 0) delete operation.parameters;
    const path = route.path.replace(/:([^/]+)/g, '{$1}');
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation };
  }
  const schemas = Object.fromEntries(Object.entries(namedModels).map(([name, schema]) => [name, writer.write(schema, true)]));
  const requestBodies = bodies.components();
  return {
    openapi: '3.1.1',
    // The service is not published under an open licence.
    info: { title: options.title, version: '1.0.0', description: options.description, license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' } },
    servers: [{ url: options.publicBaseUrl }],
    tags: tagDescriptions,
    paths,
    components: { schemas: referenced(schemas, { paths, requestBodies }), requestBodies, securitySchemes: schemesUsed(paths) },
  };
}

/**
 * Request bodies as components of their own (`#/components/requestBodies/<Model>`), written whole,
 * with the named models inside them inline. A field with a default is optional to a client, while in
 * an answer the service always fills it: generators (openapi-typescript among them) read a `default`
 * in a shared schema as "always present", and in a request body as "may be left out".
 */
class RequestBodies {
  private readonly written = new Map<string, OpenAPIV3_1.RequestBodyObject>();
  private readonly inline = new SchemaWriter(new Map());

  private readonly models: ReadonlyMap<string, object>;

  constructor(private readonly names: ReadonlyMap<object, string>) {
    this.models = new Map([...names].map(([schema, name]) => [name, schema]));
  }

  add(schema: object, mediaType: string, required: boolean, uploads: string[] = []): OpenAPIV3_1.RequestBodyObject | OpenAPIV3_1.ReferenceObject {
    const model = this.modelBehind(schema);
    // An upload's bytes have no JSON Schema: the media type says what they are.
    const raw = Object.fromEntries(uploads.map((type) => [type, {}]));
    const body: OpenAPIV3_1.RequestBodyObject = { required, content: { [mediaType]: { schema: takingUnknownFields(this.inline.write(model)) }, ...raw } };
    const name = this.names.get(model);
    if (name === undefined) return body;
    const existing = this.written.get(name);
    if (existing && JSON.stringify(existing) !== JSON.stringify(body)) throw new Error(`request model ${name} is used with two different bodies`);
    this.written.set(name, body);
    return { $ref: `#/components/requestBodies/${name}` };
  }

  /** A body the route checks itself (documented as a named model) is written as that model. */
  private modelBehind(schema: object): object {
    const ref = documentationOf(schema)?.$ref;
    const name = typeof ref === 'string' ? ref.replace('#/components/schemas/', '') : undefined;
    return (name ? this.models.get(name) : undefined) ?? schema;
  }

  components(): Record<string, OpenAPIV3_1.RequestBodyObject> {
    return Object.fromEntries([...this.written].sort(([a], [b]) => a.localeCompare(b)));
  }
}

/** The security schemes some operation asks for (the metrics' token only where it is set). */
function schemesUsed(paths: OpenAPIV3_1.PathsObject): Record<string, OpenAPIV3_1.SecuritySchemeObject> {
  const used = new Set(
    Object.values(paths).flatMap((item) =>
      Object.values(item ?? {}).flatMap((operation) =>
        ((operation as OpenAPIV3_1.OperationObject).security ?? []).flatMap((requirement) => Object.keys(requirement)),
      ),
    ),
  );
  return Object.fromEntries(Object.entries(securitySchemes).filter(([name]) => used.has(name)));
}

/** The schemas something in the document refers to, directly or through another schema. */
function referenced(schemas: Record<string, JsonSchemaObject>, from: object): Record<string, JsonSchemaObject> {
  const kept = new Set<string>();
  const visit = (value: unknown) => {
    for (const match of JSON.stringify(value).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      const name = match[1]!;
      if (kept.has(name) || !schemas[name]) continue;
      kept.add(name);
      visit(schemas[name]);
    }
  };
  visit(from);
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => kept.has(name)));
}

function parameters(schema: unknown, location: 'path' | 'query' | 'header', writer: SchemaWriter): OpenAPIV3_1.ParameterObject[] {
  const { properties = {}, required = [] } = (schema ?? {}) as ObjectSchema;
  return Object.entries(properties).map(([name, property]) => ({
    name: location === 'header' ? headerName(name) : name,
    in: location,
    required: location === 'path' || required.includes(name),
    schema: writer.write(property),
  }));
}

/** A body's fields that its schema does not name are dropped, not refused: the document says so. */
function takingUnknownFields(schema: JsonSchemaObject): JsonSchemaObject {
  return schema.type === 'object' && schema.additionalProperties === undefined ? { ...schema, additionalProperties: true } : schema;
}

/** Elysia keeps one schema (the 200) or schemas by status. */
function responseSchemas(response: unknown): Record<string, object> {
  if (!response || typeof response !== 'object') return {};
  return 'type' in response || 'anyOf' in response || '$ref' in response ? { 200: response } : (response as Record<string, object>);
}

/** `idempotency-key` as `Idempotency-Key`: header names are case-insensitive, and this is how clients write them. */
function headerName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`);
}
