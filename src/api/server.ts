import type { Server } from 'bun';
import type { App } from './app';

export interface HttpServer {
  url: string;
  /** Stops accepting connections and resolves once in-flight requests have finished. */
  stop(): Promise<void>;
}

/** Generous enough for the push endpoint's documented maximum; each route enforces its own limit. */
const maxRequestBodyBytes = 128 * 1024 * 1024;

export function startHttpServer(app: App, options: { host: string; port: number }): HttpServer {
  const server: Server<undefined> = Bun.serve({
    hostname: options.host,
    port: options.port,
    maxRequestBodySize: maxRequestBodyBytes,
    fetch: (request) => app.handle(request),
  });
  return {
    url: server.url.href.replace(/\/$/, ''),
    stop: () => server.stop(false),
  };
}
