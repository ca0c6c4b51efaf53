import { Elysia } from 'elysia';
import type { Services } from '../runtime/services';
import { httpBasics } from './plugins/http-basics';
import { openapiDocs } from './openapi';
import { healthRoutes } from './health';
import { authRoutes } from './auth';
import { workspaceRoutes } from './workspaces';
import { pushRoutes } from './lake/push-routes';
import { tableRoutes } from './lake/table-routes';
import { queryRoutes } from './query';
import { jobRoutes } from './jobs';

export const apiPrefix = '/api/v1';

/** Builds the HTTP application; never listens (server.ts does), so tests drive it with app.handle(). */
export function createApp(services: Services) {
  return new Elysia()
    .use(httpBasics(services.logger))
    .use(openapiDocs())
    .use(healthRoutes(services.healthProbes))
    .group(apiPrefix, (api) =>
      api
        .use(healthRoutes(services.healthProbes))
        .use(authRoutes(services.auth, { trustProxy: services.config.http.trustProxy }))
        .use(workspaceRoutes(services.auth.authenticator, services.workspaces))
        .use(pushRoutes(services))
        .use(tableRoutes(services))
        .use(queryRoutes(services))
        .use(jobRoutes(services)),
    );
}

export type App = ReturnType<typeof createApp>;
