import { Elysia } from 'elysia';
import type { Services } from '../runtime/services';
import { httpBasics } from './plugins/http-basics';
import { requestBodies } from './plugins/request-bodies';
import { openapiDocs } from './openapi';
import { healthRoutes } from './health';
import { authRoutes } from './auth';
import { workspaceRoutes } from './workspaces';
import { pushRoutePath, pushRoutes } from './lake/push-routes';
import { tableRoutes } from './lake/table-routes';
import { queryRoutes } from './query';
import { jobRoutes } from './jobs';

export const apiPrefix = '/api/v1';

/**
 * The body limit of every route but push: room for a query of the longest SQL the interface takes
 * (1,000,000 characters), however its JSON escapes it.
 */
export const standardMaxBodyBytes = 8 * 1024 * 1024;

/** Builds the HTTP application; never listens (server.ts does), so tests drive it with app.handle(). */
export function createApp(services: Services) {
  return new Elysia()
    .use(httpBasics(services.logger))
    .use(
      requestBodies({
        standard: { maxBytes: standardMaxBodyBytes, advice: 'Send a smaller body.' },
        routes: { [`${apiPrefix}${pushRoutePath}`]: { maxBytes: services.config.push.maxBodyBytes, advice: 'Split the records over several pushes.' } },
      }),
    )
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
