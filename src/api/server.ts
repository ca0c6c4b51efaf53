import type { Server } from 'bun';
import { sourceTimeoutMs } from '../connectors/source-timeout';
import type { App } from './app';

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

/**
 * Bun closes a connection that stays idle for 10 s, and a request whose handler waits that long on a
 * request of its own (a connection's source, asked by test, streams or preview) counts as idle: the
 * client got an empty reply while the log said 200. Those routes answer within the connectors'
 * timeout, whatever the source does; their connection stays open that long and a margin more.
 */
const sourceProbe = /^\/api\/v1\/workspaces\/[^/]+\/connections\/[^/]+\/(test|streams|preview)\/?$/;
const sourceProbeIdleSeconds = Math.ceil(sourceTimeoutMs / 1000) + 15;

export function startHttpServer(app: App, options: { host: string; port: number }): HttpServer {
  const server: Server<undefined> = Bun.serve({
    hostname: options.host,
    port: options.port,
    maxRequestBodySize: maxRequestBodyBytes,
    fetch: (request, listener) => {
      if (sourceProbe.test(new URL(request.url).pathname)) listener.timeout(request, sourceProbeIdleSeconds);
      return app.handle(request);
    },
  });
  return {
    url: server.url.href.replace(/\/$/, ''),
    stop: () => server.stop(false),
  };
}
