import { Elysia } from 'elysia';
import { operation } from '../openapi/operation';
import { healthModels as m } from './model';
import { checkHealth, type HealthProbe } from './service';

/**
 * `GET /health`: 200 when the metadata store, lake storage and Temporal all answer, 503 otherwise.
 * Mounted at the root and under /api/v1, each with its own operation id.
 */
export function healthRoutes(probes: Record<string, HealthProbe>, operationId: string) {
  return new Elysia().get(
    '/health',
    async ({ set }) => {
      const report = await checkHealth(probes);
      if (report.status !== 'ok') set.status = 503;
      return report;
    },
    {
      response: { 200: m.HealthReport, 503: m.HealthReport },
      detail: operation({ id: operationId, tags: ['Health'], summary: 'Reachability of the metadata store, lake storage and Temporal' }),
    },
  );
}
