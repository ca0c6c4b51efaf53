import type { Server } from 'bun';
import type { App } from './app';
import { requestMeta } from './plugins/request-context';

export interface HttpServer {
  url: string;
  /**
   * Stops accepting connections and resolves once in-flight requests have finished, or once the grace
   * period is over (then the connections still open are closed): true when it had to close some.
   */
  stop(graceMs?: number): Promise<boolean>;
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
    async stop(graceMs = Number.POSITIVE_INFINITY) {
      const finished = server.stop(false).then(() => false);
      const overdue = Number.isFinite(graceMs) ? Bun.sleep(graceMs).then(() => true) : new Promise<boolean>(() => {});
      const forced = await Promise.race([finished, overdue]);
      if (forced) await server.stop(true);
      return forced;
    },
  };
}
