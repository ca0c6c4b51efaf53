import { Elysia } from 'elysia';
import type { Logger } from '../logging/logger';
import { httpBasics } from './plugins/http-basics';
import { openapiDocs } from './openapi';
import { healthRoutes } from './health';
import type { HealthProbe } from './health/service';

export const apiPrefix = '/api/v1';

export interface AppDeps {
  logger: Logger;
  healthProbes: Record<string, HealthProbe>;
}

/** Builds the HTTP application; never listens (server.ts does), so tests drive it with app.handle(). */
export function createApp(deps: AppDeps) {
  return new Elysia()
    .use(httpBasics(deps.logger))
    .use(openapiDocs())
    .use(healthRoutes(deps.healthProbes))
    .group(apiPrefix, (api) => api.use(healthRoutes(deps.healthProbes)));
}

export type App = ReturnType<typeof createApp>;
