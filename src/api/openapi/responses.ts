import type { OpenAPIV3_1 } from 'openapi-types';
import { headerComponents, type HeaderName } from './components';
import { codesWithStatus, errorModels } from './error-models';
import type { JsonSchemaObject } from './documented-schema';
import type { SchemaWriter } from './json-schema';
import type { OperationDoc, SuccessDoc } from './operation';

/** What the responses of an operation follow from, besides its documentation. */
export interface RouteShape {
  method: string;
  /** Any body, query, path or header schema: the route answers 422 when its input fails them. */
  hasInput: boolean;
  /** Credentials required (a security requirement): 401 without them. */
  secured: boolean;
  /** The route's response schemas by status. */
  responseSchemas: Record<string, object>;
  /** Its 201 answer carries the Location of what it created (see created-location.ts). */
  locatesCreated: boolean;
}

const methodsWithoutBody = new Set(['GET', 'HEAD', 'OPTIONS']);
const rateLimitHeaders: HeaderName[] = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
// The query errors that come after the limiter has counted the query, and so carry its headers.
const countedStatuses = new Set([400, 408, 429]);

const errorMeaning: Record<number, string> = {
  400: 'The request cannot be carried out',
  401: 'Missing, invalid or expired credentials',
  403: 'Not allowed',
  404: 'Not found',
  408: 'The query ran past its time limit',
  409: 'In conflict with the current state',
  413: 'The body is larger than this operation takes',
  422: 'The request is malformed: a field is missing, of the wrong type, out of bounds or not valid Unicode',
  429: 'Too many requests',
  500: 'An unexpected error; the hint quotes the request id the log holds it under',
  503: 'A dependency is unavailable; nothing was changed',
};

/** Every answer an operation gives: its successes, then its errors in the envelope (422 in the validation shape). */
export function responsesOf(route: RouteShape, doc: OperationDoc, writer: SchemaWriter): OpenAPIV3_1.ResponsesObject {
  const responses: OpenAPIV3_1.ResponsesObject = {};
  for (const success of doc.success ?? [{ status: defaultSuccessStatus(route) }]) {
    const located = success.location || (success.status === 201 && route.locatesCreated);
    responses[success.status] = successResponse({ ...success, location: located }, route.responseSchemas[String(success.status)], doc, writer);
  }
  for (const [status, schema] of Object.entries(route.responseSchemas)) {
    if (Number(status) >= 300 && !responses[status])
      responses[status] = { description: errorMeaning[Number(status)] ?? 'Error', headers: headers(['X-Request-Id']), content: json(writer.write(schema)) };
  }
  for (const status of errorStatuses(route, doc)) {
    if (!responses[status]) responses[status] = errorResponse(status, doc, writer);
  }
  return responses;
}

function defaultSuccessStatus(route: RouteShape): SuccessDoc['status'] {
  const declared = Object.keys(route.responseSchemas)
    .map(Number)
    .find((status) => status < 300);
  return (declared ?? 200) as SuccessDoc['status'];
}

function successResponse(success: SuccessDoc, schema: object | undefined, doc: OperationDoc, writer: SchemaWriter): OpenAPIV3_1.ResponseObject {
  const required: HeaderName[] = [
    'X-Request-Id',
    ...(doc.list ? (['X-Total-Count'] as const) : []),
    ...(success.location ? (['Location'] as const) : []),
    ...(doc.headers ?? []),
    ...(doc.successHeaders ?? []),
  ];
  const downloads = success.body === 'json-or-csv' || success.mediaTypes?.includes('text/csv');
  const optional: HeaderName[] = [...(doc.rateLimited ? rateLimitHeaders : []), ...(downloads ? (['Content-Disposition'] as const) : [])];
  const response: OpenAPIV3_1.ResponseObject = { description: successMeaning(success), headers: headers(required, optional) };
  const body = success.body ?? 'json';
  if (body === 'html') response.content = { 'text/html': { schema: { type: 'string' } } };
  if (body === 'text') response.content = Object.fromEntries((success.mediaTypes ?? ['text/plain']).map((type) => [type, { schema: { type: 'string' } }]));
  if (body === 'json' && schema && success.mediaTypes) {
    response.content = { ...json(writer.write(schema)), ...Object.fromEntries(success.mediaTypes.map((type) => [type, { schema: { type: 'string' } }])) };
    return response;
  }
  if ((body === 'json' || body === 'json-or-csv') && schema) response.content = json(writer.write(schema));
  if (body === 'json-or-csv' && response.content)
    response.content['text/csv'] = { schema: { type: 'string', description: 'Format csv: RFC 4180, a header row, CRLF line ends' } };
  return response;
}

function successMeaning(success: SuccessDoc): string {
  if (success.description) return success.description;
  switch (success.status) {
    case 201:
      return 'Created';
    case 204:
      return 'Done; no content';
    case 302:
    case 303:
      return 'Redirected';
    default:
      return success.body === 'json-or-csv' ? 'The result in the requested format (or the estimate)' : 'OK';
  }
}

function errorStatuses(route: RouteShape, doc: OperationDoc): number[] {
  const statuses = new Set<number>(doc.errors ?? []);
  // A tenant's statement waits for the engine's admission, which may refuse it.
  if (doc.rateLimited || doc.runsStatements) {
    statuses.add(429);
    statuses.add(503);
  }
  const takesBody = !methodsWithoutBody.has(route.method);
  if (route.secured) statuses.add(401);
  if (takesBody) statuses.add(413);
  if (takesBody || route.hasInput) statuses.add(422);
  statuses.add(500);
  return [...statuses].sort((a, b) => a - b);
}

function errorResponse(status: number, doc: OperationDoc, writer: SchemaWriter): OpenAPIV3_1.ResponseObject {
  const own = doc.errors?.includes(status as never) ?? false;
  const required: HeaderName[] = ['X-Request-Id', ...(status === 429 ? (['Retry-After'] as const) : []), ...(own ? (doc.headers ?? []) : [])];
  const optional: HeaderName[] = [
    ...(doc.rateLimited && countedStatuses.has(status) ? rateLimitHeaders : []),
    ...(status === 409 || status === 503 ? (['Retry-After'] as const) : []),
  ];
  const codes = status === 422 ? [] : codesWithStatus(status);
  return {
    description: `${errorMeaning[status] ?? 'Error'}${codes.length ? ` (${codes.join(', ')})` : ''}`,
    headers: headers(required, optional),
    content:
      own && doc.errorBody === 'html'
        ? { 'text/html': { schema: { type: 'string', description: 'A page saying what happened, with the same security headers' } } }
        : json(writer.write(status === 422 ? errorModels.ValidationError : errorModels.ErrorEnvelope)),
  };
}

function headers(required: HeaderName[], optional: HeaderName[] = []): Record<string, OpenAPIV3_1.HeaderObject> {
  return Object.fromEntries([
    ...required.map((name) => [name, { ...headerComponents[name], required: true }]),
    ...optional.map((name) => [name, { ...headerComponents[name], required: false }]),
  ]);
}

function json(schema: JsonSchemaObject): Record<string, OpenAPIV3_1.MediaTypeObject> {
  return { 'application/json': { schema } };
}
