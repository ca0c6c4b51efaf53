import { timingSafeEqual } from 'node:crypto';
import { Elysia } from 'elysia';
import { AppError } from '../../errors/app-error';
import type { ServiceMetrics } from '../../metrics/service-metrics';
import { operation } from '../openapi/operation';

export interface MetricsAccess {
  /** A scraper sends it as `Authorization: Bearer <token>`; without one, anyone who reaches the listener may read. */
  token: string | undefined;
}

/**
 * `GET /metrics`: the service's metrics in the Prometheus text format, then the Temporal worker's own
 * (the SDK's exporter, read from this process's loopback listener).
 */
export function metricsRoutes(metrics: ServiceMetrics, workerMetrics: (() => Promise<string>) | undefined, access: MetricsAccess) {
  const expected = access.token === undefined ? undefined : Buffer.from(`Bearer ${access.token}`);
  return new Elysia().get(
    '/metrics',
    async ({ request }) => {
      if (expected) {
        const given = Buffer.from(request.headers.get('authorization') ?? '');
        // Compared in constant time: the token guards what the service tells about its tenants' load.
        if (given.length !== expected.length || !timingSafeEqual(given, expected))
          throw new AppError('NOT_AUTHENTICATED', 'The metrics need their bearer token');
      }
      const own = await metrics.registry.metrics();
      const worker = workerMetrics ? await workerMetrics().catch(() => '') : '';
      return new Response(`${own}\n${worker}`, { headers: { 'content-type': metrics.registry.contentType } });
    },
    {
      detail: {
        ...operation({
          id: 'getMetrics',
          tags: ['Operations'],
          summary: 'Service and worker metrics in the Prometheus text format',
          success: [{ status: 200, body: 'text' }],
        }),
        // Open to whoever reaches it unless METRICS_TOKEN is set: the document says which this service does.
        security: expected ? [{ metricsToken: [] }] : [],
      },
    },
  );
}
