import { t } from 'elysia';

const DependencyHealth = t.Object({
  status: t.Union([t.Literal('ok'), t.Literal('down')]),
  latency_ms: t.Number(),
  error: t.Optional(t.String({ description: 'The first line of what went wrong' })),
});

export const healthModels = {
  DependencyHealth,
  HealthReport: t.Object({ status: t.Union([t.Literal('ok'), t.Literal('degraded')]), checks: t.Record(t.String(), DependencyHealth) }),
};
