import { Elysia, t } from 'elysia';
import { checkHealth, type HealthProbe } from './service';

const dependencyHealth = t.Object({
  status: t.Union([t.Literal('ok'), t.Literal('down')]),
  latency_ms: t.Number(),
  error: t.Optional(t.String()),
});
const healthReport = t.Object({ status: t.Union([t.Literal('ok'), t.Literal('degraded')]), checks: t.Record(t.String(), dependencyHealth) });

/** `GET /health`: 200 when the metadata store, lake storage and Temporal all answer, 503 otherwise. */
export function healthRoutes(probes: Record<string, HealthProbe>) {
  return new Elysia().get(
    '/health',
    async ({ set }) => {
      const report = await checkHealth(probes);
      if (report.status !== 'ok') set.status = 503;
      return report;
    },
    {
      response: { 200: healthReport, 503: healthReport },
      detail: { tags: ['Health'], summary: 'Reachability of the metadata store, lake storage and Temporal' },
    },
  );
}
