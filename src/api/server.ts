import type { Server } from 'bun';
import { sourceTimeoutMs } from '../connectors/source-timeout';
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

/**
 * Bun closes a connection that stays idle for 10 s, and a request whose handler works that long
 * without sending (a query near its timeout, a connection's source asked by test, streams or preview)
 * counts as idle: the client got an empty reply while the log said 200. Every handler answers within
 * the query timeout or the connectors' (whichever is longer), so a connection stays open that long and
 * a margin more; a route that may take longer once its body is in (an upload's write) lifts it.
 */
function idleSecondsFor(answerWithinMs: number | undefined): number {
  return Math.ceil(Math.max(answerWithinMs ?? 0, sourceTimeoutMs) / 1000) + 15;
}

export function startHttpServer(app: App, options: { host: string; port: number; answerWithinMs?: number }): HttpServer {
  const idleSeconds = idleSecondsFor(options.answerWithinMs);
  const server: Server<undefined> = Bun.serve({
    hostname: options.host,
    port: options.port,
    maxRequestBodySize: maxRequestBodyBytes,
    fetch: (request, listener) => {
      listener.timeout(request, idleSeconds);
      requestMeta(request).keepAlive = () => listener.timeout(request, 0);
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
