import { Elysia } from 'elysia';
import { operation } from '../openapi/operation';
import { healthModels as m } from './model';
import type { Readiness } from './readiness';
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

/**
 * The probes of an orchestrator: `/livez` (the process runs; restart it when this fails) and `/readyz`
 * (send it requests; 503 while a dependency queries need is down or while it shuts down).
 */
export function probeRoutes(readiness: Readiness) {
  return new Elysia()
    .get('/livez', () => ({ status: 'ok' as const }), {
      response: { 200: m.Liveness },
      detail: operation({
        id: 'getLiveness',
        tags: ['Health'],
        summary: 'The process runs',
        description: 'Never looks at a dependency: a database outage must not restart every replica.',
      }),
    })
    .get(
      '/readyz',
      async ({ set }) => {
        const report = await readiness.report();
        if (!report.ready) set.status = 503;
        return report;
      },
      {
        response: { 200: m.ReadinessReport, 503: m.ReadinessReport },
        detail: operation({
          id: 'getReadiness',
          tags: ['Health'],
          summary: 'This process can serve queries',
          description:
            '200 while the metadata store and lake storage answer, also when an optional dependency is down (Temporal: then `status` is `degraded` and `degraded` names the features that wait for it); 503 when a required one is down, and from the moment a shutdown begins.',
        }),
      },
    );
}
