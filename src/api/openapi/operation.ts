import type { DocumentDecoration } from 'elysia';
import type { HeaderName } from './components';

/** Error statuses an operation may answer besides the ones its shape implies (see responses.ts). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 408 | 409 | 429 | 503;

/** A success answer other than the route's JSON response schema. */
export interface SuccessDoc {
  status: 200 | 201 | 202 | 204 | 302 | 303;
  /** json (the route's schema; the default), json-or-csv (the query formats), html, text (of `mediaTypes`), or none. */
  body?: 'json' | 'json-or-csv' | 'html' | 'text' | 'none';
  /** The media types of a `text` body (a script, a style sheet, CSV). */
  mediaTypes?: string[];
  /** Location of a redirect. */
  location?: boolean;
  /** What the answer is, when the status alone does not say. */
  description?: string;
}

/**
 * How an operation is documented, next to its route. The document adds what follows from the route's
 * shape: 422 for any input, 413 for a body, 401 and the security requirement for credentials, 500
 * always, X-Request-Id on every answer.
 */
export interface OperationDoc {
  /** camelCase, stable, named for what the operation does (never derived from its path). */
  id: string;
  summary: string;
  tags: string[];
  description?: string;
  errors?: ErrorStatus[];
  /** Default: one answer from the route's response schemas, as JSON. */
  success?: SuccessDoc[];
  /** A list: the success answer carries X-Total-Count. */
  list?: boolean;
  /** Counted against the workspace's query rate limit: the X-RateLimit-* headers come with its answers. */
  rateLimited?: boolean;
  /**
   * Runs or plans a tenant's statement (implied by `rateLimited`): the engine's admission may refuse
   * it, 429 CONCURRENCY_LIMITED for the workspace's own, 503 ENGINE_BUSY for the process's.
   */
  runsStatements?: boolean;
  /** The body may be absent (or null). */
  optionalBody?: boolean;
  /** The body's media type when it is not JSON. */
  requestBody?: 'application/x-www-form-urlencoded';
  /** Media types the body may also be sent as, as raw bytes (an upload of records). */
  uploads?: string[];
  /** Its listed errors are HTML pages (a public page's 404), not the JSON envelope. */
  errorBody?: 'html';
  /** Headers that come with every answer the operation gives itself (its successes and listed errors). */
  headers?: HeaderName[];
  /** Headers that come with its successes only (a session cookie). */
  successHeaders?: HeaderName[];
}

const operationKey = 'x-oxbow-operation';

/** A route's `detail`: Elysia keeps it with the route (merged with what macros add) for the document to read. */
export function operation(doc: OperationDoc): DocumentDecoration {
  const detail: DocumentDecoration & { [operationKey]: OperationDoc } = { summary: doc.summary, tags: doc.tags, [operationKey]: doc };
  return detail;
}

export function operationDocOf(detail: DocumentDecoration | undefined): OperationDoc | undefined {
  return (detail as { [operationKey]?: OperationDoc } | undefined)?.[operationKey];
}
