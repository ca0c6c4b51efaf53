import type { Server } from 'bun';
import type { App } from './app';
import { requestMeta } from './plugins/request-context';

export interface HttpServer {
  url: string;
  /** Stops accepting connections and resolves once in-flight requests have finished. */
  stop(): Promise<void>;
}

/**
 * Bun refuses a body over its own limit with a bare 413 before the app sees the request; the app
 * enforces each route's limit itself, with the error envelope, so Bun's is set beyond any of them.
 */
const maxRequestBodyBytes = Number.MAX_SAFE_INTEGER;

export function startHttpServer(app: App, options: { host: string; port: number }): HttpServer {
  const server: Server<undefined> = Bun.serve({
    hostname: options.host,
    port: options.port,
    maxRequestBodySize: maxRequestBodyBytes,
    fetch: (request, bun) => {
      requestMeta(request).keepAlive = () => bun.timeout(request, 0);
      return app.handle(request);
    },
  });
  return {
    url: server.url.href.replace(/\/$/, ''),
    stop: () => server.stop(false),
  };
}
