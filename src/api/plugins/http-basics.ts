import { Elysia, ValidationError } from 'elysia';
import { AppError, RequestValidationError } from '../../errors/app-error';
import { errorEnvelope } from '../../errors/envelope';
import { hintOnTheApi } from '../error-advice';
import type { Logger } from '../../logging/logger';
import type { ServiceMetrics } from '../../metrics/service-metrics';
import { requestMeta } from './request-context';
import { withLogContext } from '../../logging/log-context';
import { validationIssues } from './validation-issues';

export interface HttpBasicsOptions {
  /** The methods the app serves on a path: a path served under other methods answers 405 with Allow. */
  allowedMethods?: (path: string) => string[];
  metrics?: ServiceMetrics;
}

/** Refusals that protect the service, counted apart in the metrics. */
const refusalCodes = new Set<string>(['RATE_LIMITED', 'CONCURRENCY_LIMITED', 'ENGINE_BUSY', 'PAYLOAD_TOO_LARGE', 'QUERY_TOO_COMPLEX']);

/**
 * Request ids, access logs and the one place that renders errors: the envelope of ARCHITECTURE §4 for
 * every error, and the FastAPI-shaped 422 for every validation failure.
 */
export function httpBasics(logger: Logger, options: HttpBasicsOptions = {}) {
  return (
    new Elysia({ name: 'http-basics' })
      // Every log line written while the request is handled carries its id (and later its workspace).
      .wrap((handle, request) => ((...args: unknown[]) => withLogContext(requestMeta(request).log, () => handle(...args))) as ReturnType<typeof handle>)
      .onRequest(({ request, set }) => {
        set.headers['x-request-id'] = requestMeta(request).id;
      })
      .onError({ as: 'global' }, ({ code, error: raised, request, set }) => {
        const meta = requestMeta(request);
        // Elysia wraps whatever a body parser throws; a parser's own typed error speaks for itself.
        const cause = code === 'PARSE' ? (raised as Error).cause : undefined;
        const error = cause instanceof AppError || cause instanceof RequestValidationError ? cause : raised;
        set.headers['x-request-id'] = meta.id;
        set.headers['content-type'] = 'application/json';
        if (error instanceof AppError) {
          if (refusalCodes.has(error.code)) options.metrics?.refused(error.code);
          set.status = error.status;
          Object.assign(set.headers, error.headers);
          if (error.code !== 'INTERNAL_ERROR') return errorEnvelope(error.code, error.message, hintOnTheApi(error), error.sqlstate);
          // A failure the code saw coming but could not place: it is ours all the same, so it gets the log line and the id.
          logger.error('internal error', { request_id: meta.id, method: request.method, path: new URL(request.url).pathname, error, cause: error.cause });
          return errorEnvelope(error.code, error.message, quoteRequestId(meta.id));
        }
        if (error instanceof RequestValidationError) {
          set.status = 422;
          return { detail: error.issues };
        }
        // A response that breaks its own schema is our bug, not the caller's: it falls through to the 500.
        if (error instanceof ValidationError && error.type !== 'response') {
          set.status = 422;
          return { detail: validationIssues(error) };
        }
        switch (code) {
          case 'NOT_FOUND': {
            const path = new URL(request.url).pathname;
            const allowed = options.allowedMethods?.(path) ?? [];
            if (allowed.length > 0) {
              set.status = 405;
              set.headers.allow = allowed.join(', ');
              return errorEnvelope('METHOD_NOT_ALLOWED', `${request.method} is not served on ${path}`, `Use ${allowed.join(' or ')}.`);
            }
            set.status = 404;
            return errorEnvelope('NOT_FOUND', `No route for ${request.method} ${path}`);
          }
          case 'PARSE':
            set.status = 422;
            return { detail: [{ loc: ['body'], msg: 'The request body could not be parsed', type: 'json_invalid' }] };
          default:
            // Internals stay in the log, tied to the request id the client sees.
            logger.error('unhandled error', { request_id: meta.id, method: request.method, path: new URL(request.url).pathname, error });
            set.status = 500;
            return errorEnvelope('INTERNAL_ERROR', 'An unexpected error occurred', quoteRequestId(meta.id));
        }
      })
      .onAfterResponse({ as: 'global' }, ({ request, set, route }) => {
        const meta = requestMeta(request);
        meta.answered?.();
        const status = typeof set.status === 'number' ? set.status : 200;
        const elapsedMs = performance.now() - meta.startedAt;
        logger.info('request', {
          ...meta.log,
          method: request.method,
          path: new URL(request.url).pathname,
          status,
          duration_ms: Math.round(elapsedMs * 100) / 100,
        });
        // By route pattern, never by path: ids in paths would make a series per request.
        options.metrics?.request(route || 'unmatched', request.method, status, elapsedMs / 1000);
      })
  );
}

function quoteRequestId(requestId: string): string {
  return `Quote request id ${requestId} when reporting this.`;
}
