import type { DocumentDecoration } from 'elysia';
import type { OpenAPIV3_1 } from 'openapi-types';
import { namedModels, securitySchemes, tagDescriptions } from './components';
import type { JsonSchemaObject } from './documented-schema';
import { SchemaWriter } from './json-schema';
import { operationDocOf } from './operation';
import { responsesOf } from './responses';

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
  const writer = new SchemaWriter(new Map(Object.entries(namedModels).map(([name, schema]) => [schema, name])));
  const paths: OpenAPIV3_1.PathsObject = {};
  const requestModels = new Set<string>();
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
      ...(security?.length ? { security } : {}),
      parameters: [...parameters(route.hooks.params, 'path', writer), ...parameters(route.hooks.query, 'query', writer), ...parameters(route.hooks.headers, 'header', writer)],
      ...(route.hooks.body ? { requestBody: requestBody(route.hooks.body as object, doc.requestBody ?? 'application/json', writer, requestModels, !doc.optionalBody, doc.uploads) } : {}),
      responses: responsesOf(
        {
          method: route.method,
          hasInput: [route.hooks.body, route.hooks.query, route.hooks.params, route.hooks.headers].some(Boolean),
          secured: Boolean(security?.length),
          responseSchemas: responseSchemas(route.hooks.response),
        },
        doc,
        writer,
      ),
    };
    if (operation.parameters?.length === 0) delete operation.parameters;
    const path = route.path.replace(/:([^/]+)/g, '{$1}');
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.1',
    info: { title: options.title, version: '1.0.0', description: options.description },
    servers: [{ url: options.publicBaseUrl }],
    tags: tagDescriptions,
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(namedModels).map(([name, schema]) => [name, requestModels.has(name) ? takingUnknownFields(writer.write(schema, true)) : writer.write(schema, true)])),
      securitySchemes,
    },
  };
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

function requestBody(schema: object, mediaType: string, writer: SchemaWriter, requestModels: Set<string>, required: boolean, uploads: string[] = []): OpenAPIV3_1.RequestBodyObject {
  const written = writer.write(schema);
  const refs = [written, ...((written.anyOf as JsonSchemaObject[] | undefined) ?? [])].map((part) => part.$ref).filter((ref): ref is string => typeof ref === 'string');
  for (const ref of refs) requestModels.add(ref.split('/').pop()!);
  // An upload's bytes have no JSON Schema: the media type says what they are.
  const raw = Object.fromEntries(uploads.map((type) => [type, {}]));
  return { required, content: { [mediaType]: { schema: refs.length ? written : takingUnknownFields(written) }, ...raw } };
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
