import { t } from 'elysia';

const DependencyHealth = t.Object({
  status: t.Union([t.Literal('ok'), t.Literal('down')]),
  latency_ms: t.Number(),
  error: t.Optional(t.String({ description: 'The first line of what went wrong' })),
});

const ReadinessCheck = t.Object({
  status: t.Union([t.Literal('ok'), t.Literal('down')]),
  latency_ms: t.Number(),
  error: t.Optional(t.String({ description: 'The first line of what went wrong' })),
  required: t.Boolean({ description: 'Queries need it: while it is down the process is not ready' }),
  serves: t.Array(t.String(), { description: 'What stops working while it is down' }),
});

export const healthModels = {
  DependencyHealth,
  HealthReport: t.Object({ status: t.Union([t.Literal('ok'), t.Literal('degraded')]), checks: t.Record(t.String(), DependencyHealth) }),
  Liveness: t.Object({ status: t.Literal('ok') }),
  ReadinessCheck,
  ReadinessReport: t.Object({
    status: t.Union([t.Literal('ready'), t.Literal('degraded'), t.Literal('not_ready'), t.Literal('draining')], {
      description: '`degraded`: queries are answered, the features in `degraded` are not; `draining`: the process is shutting down',
    }),
    ready: t.Boolean({ description: 'Whether this process should get requests: true when ready or degraded' }),
    checks: t.Record(t.String(), ReadinessCheck),
    degraded: t.Array(t.String(), { description: 'Features that do not work right now (their optional dependency is down)' }),
  }),
};
