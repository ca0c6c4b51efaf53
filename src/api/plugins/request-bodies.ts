import { Elysia } from 'elysia';
import { RequestValidationError } from '../../errors/app-error';
import { assertKeepable, parseJsonInput } from '../request-body/json-input';
import { declaredLength, payloadTooLarge, readLimitedBody, type BodyLimit } from '../request-body/read-limited-body';
import { UploadBody, uploadFormatOf } from '../request-body/upload-body';
import { LargeJsonBody } from '../request-body/large-json-body';
import { requestMeta } from './request-context';

export interface BodyLimits {
  /** Every route's limit unless it has its own. */
  standard: BodyLimit;
  /** Routes that take larger bodies, by their route pattern (`/api/v1/workspaces/:workspace_id/push`). */
  routes: Record<string, BodyLimit>;
  /**
   * Routes that take their body as the bytes received, unparsed (within their limit all the same): a
   * signature over the body is checked against exactly what was signed.
   */
  raw?: readonly string[];
  /**
   * Routes that also take records as the body itself (NDJSON, CSV, Parquet; see upload-body.ts): such
   * a body is handed to the route as a stream within its own limit, never read into memory.
   */
  uploads?: { routes: readonly string[]; limit: BodyLimit };
  /** Keep every body as received, for a request forwarded to its workspace's owner (API replicas). */
  keep?: boolean;
  /**
   * Routes that read their JSON body's text besides its parsed value (a push hands its records to the
   * engine as sent): the bytes are kept on the request (RequestMeta.body) as for `keep`. A JSON body
   * of at least `largeBytes` is handed to the route unparsed (LargeJsonBody), which reads it itself.
   */
  jsonText?: { routes: readonly string[]; largeBytes: number };
}

const methodsWithoutBody = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The one reader of request bodies, for every route: the body is read within the route's limit (413
 * PAYLOAD_TOO_LARGE in the envelope, whatever Content-Length says), JSON is parsed and checked
 * (depth, number range, text the stores can keep: 422 pointing at the value), forms are decoded and checked;
 * an upload is handed on as a stream counted against its limit. Nothing else reads a body, so no route
 * can be made to buffer more than its limit.
 */
export function requestBodies(limits: BodyLimits) {
  const routeLimits = new Map(Object.entries(limits.routes));
  const byPath = [...routeLimits].map(([pattern, limit]) => ({ path: new RegExp(`^${pattern.replace(/:[^/]+/g, '[^/]+')}/?$`), limit }));
  const limitOfPath = (pathname: string) => byPath.find((entry) => entry.path.test(pathname))?.limit ?? limits.standard;
  const rawRoutes = new Set(limits.raw ?? []);
  const uploadRoutes = new Set(limits.uploads?.routes ?? []);
  const jsonTextRoutes = new Set(limits.jsonText?.routes ?? []);
  const uploadPaths = [...uploadRoutes].map((pattern) => new RegExp(`^${pattern.replace(/:[^/]+/g, '[^/]+')}/?$`));
  const limitOf = (request: Request) => {
    const pathname = new URL(request.url).pathname;
    if (limits.uploads && uploadFormatOf(request.headers.get('content-type')) && uploadPaths.some((path) => path.test(pathname))) return limits.uploads.limit;
    return limitOfPath(pathname);
  };
  return (
    new Elysia({ name: 'request-bodies' })
      // Before routing: a body declared larger than its path takes is refused without reading a byte.
      .onRequest(({ request }) => {
        const declared = declaredLength(request);
        if (declared === undefined || methodsWithoutBody.has(request.method)) return;
        const limit = limitOf(request);
        if (declared > limit.maxBytes) throw payloadTooLarge(limit, `${declared} bytes`);
      })
      .onParse({ as: 'global' }, async ({ request, route, contentType }) => {
        const upload = limits.uploads && uploadRoutes.has(route) ? uploadFormatOf(contentType) : undefined;
        if (upload) {
          const body = UploadBody.of(request, upload, limits.uploads!.limit);
          // Forwarded to the owner as it streams in, or read here: whichever comes first takes the stream.
          if (limits.keep) requestMeta(request).body = body.stream;
          return body;
        }
        const bytes = await readLimitedBody(request, routeLimits.get(route) ?? limits.standard);
        if (limits.keep || jsonTextRoutes.has(route)) requestMeta(request).body = bytes;
        if (rawRoutes.has(route)) return bytes;
        if (bytes.byteLength === 0) return null;
        if (jsonTextRoutes.has(route) && bytes.byteLength >= limits.jsonText!.largeBytes && isJson(contentType)) return new LargeJsonBody(bytes);
        return decodeBody(bytes, contentType);
      })
  );
}

function isJson(contentType: string): boolean {
  const type = contentType.trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}

function decodeBody(bytes: Uint8Array, contentType: string): unknown {
  const type = contentType.trim().toLowerCase();
  if (isJson(type)) return parseJsonInput(bytes);
  if (type === 'application/x-www-form-urlencoded') {
    const form = Object.fromEntries(new URLSearchParams(new TextDecoder().decode(bytes)));
    assertKeepable(form, ['body']);
    return form;
  }
  throw RequestValidationError.at(['body'], `A body of type "${type || 'unknown'}" is not accepted; send application/json`, 'model_attributes_type');
}
