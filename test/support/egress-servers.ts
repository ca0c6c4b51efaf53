import type { Server } from 'bun';

/**
 * The configurations connection attacks are tried in: the default one (private networks allowed),
 * production (refused), and production with them allowed (as operators may).
 */
export const attackConfigurations = [
  ['the default configuration', { NODE_ENV: 'development' }],
  ['production', { NODE_ENV: 'production' }],
  ['production with private networks allowed', { NODE_ENV: 'production', CONNECTOR_PRIVATE_NETWORKS: 'allow' }],
] as const;

/** Whether a configuration of attackConfigurations lets connections reach private networks. */
export function privateNetworksAllowed(env: (typeof attackConfigurations)[number][1]): boolean {
  return env.NODE_ENV === 'development' || 'CONNECTOR_PRIVATE_NETWORKS' in env;
}

/** Runs the tasks, `width` at a time. */
export async function inParallel<T>(items: T[], width: number, task: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await task(item);
    }),
  );
}

/** A request a test server saw. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
}

/**
 * A source a tenant controls, on a free port of 127.0.0.1: it answers JSON records and records every
 * request it gets (headers included). `/to?url=<u>` redirects there (302), `/link?url=<u>` answers a
 * page whose `Link` header names it as the next one, `/slow?ms=<n>` answers after that long, `/hang`
 * never answers, and every other path answers `[{"id": 1}]`. With `redirectAllTo` set, every request
 * is redirected (307) to that origin, its path kept: an S3 endpoint that sends its clients elsewhere.
 */
export class TenantSource {
  readonly seen: SeenRequest[] = [];
  redirectAllTo: string | undefined;
  private readonly server: Server<undefined>;

  constructor() {
    this.server = Bun.serve({ hostname: '127.0.0.1', port: 0, idleTimeout: 0, fetch: (request) => this.answer(request) });
  }

  get origin(): string {
    return `http://127.0.0.1:${this.server.port}`;
  }

  /** A URL of this source that redirects to `target`. */
  redirectTo(target: string): string {
    return `${this.origin}/to?url=${encodeURIComponent(target)}`;
  }

  /** A URL of this source whose answer links to `target` as the next page. */
  linkTo(target: string): string {
    return `${this.origin}/link?url=${encodeURIComponent(target)}`;
  }

  stop(): void {
    void this.server.stop(true);
  }

  private async answer(request: Request): Promise<Response> {
    const url = new URL(request.url);
    this.seen.push({ method: request.method, url: request.url, headers: Object.fromEntries(request.headers) });
    if (this.redirectAllTo) return new Response(null, { status: 307, headers: { location: `${this.redirectAllTo}${url.pathname}${url.search}` } });
    const target = url.searchParams.get('url') ?? '';
    switch (url.pathname) {
      case '/to':
        return new Response(null, { status: 302, headers: { location: target } });
      case '/link':
        return Response.json([{ id: 1 }], { headers: { link: `<${target}>; rel="next"` } });
      case '/slow':
        await Bun.sleep(Number(url.searchParams.get('ms') ?? 0));
        return Response.json([{ id: 1, slow: true }]);
      case '/hang':
        return new Promise<Response>(() => {});
      default:
        return Response.json([{ id: 1 }]);
    }
  }
}

/** A listener that stands in for one of the service's own (an S3 console): it counts what reaches it. */
export class StandIn {
  hits = 0;
  private readonly server: Server<undefined>;

  constructor() {
    this.server = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: () => {
        this.hits += 1;
        return Response.json([{ secret: 'the service’s own' }]);
      },
    });
  }

  get port(): number {
    return this.server.port!;
  }

  stop(): void {
    void this.server.stop(true);
  }
}
