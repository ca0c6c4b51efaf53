import { Elysia } from 'elysia';
import type { Services } from '../runtime/services';
import { httpBasics } from './plugins/http-basics';
import { keepableParameters } from './plugins/keepable-parameters';
import { cors } from './plugins/cors';
import { compression } from './plugins/compression';
import { requestBodies } from './plugins/request-bodies';
import { routeMethods } from './route-methods';
import { openapiDocs } from './openapi/docs-routes';
import { openapiDocument } from './openapi/document';
import { createdLocations, type LocatableRoute } from './openapi/created-location';
import { healthRoutes, probeRoutes } from './health';
import { metricsRoutes } from './metrics';
import { authRoutes } from './auth';
import { workspaceRoutes } from './workspaces';
import { largePushBytes, pushRoutePath, pushRoutes } from './lake/push-routes';
import { tableRoutes } from './lake/table-routes';
import { queryRoutes } from './query';
import { jobRoutes } from './jobs';
import { queryHistoryRoutes } from './query-history';
import { connectionsApi } from './connections';
import { transformRoutes } from './transforms';
import { savedQueryRoutes } from './saved-queries';
import { chartRoutes } from './charts';
import { pageRoutes } from './pages';
import { publicRoutes } from './public';
import { consoleRoutes } from './console';
import { usageRoutes } from './usage';
import { billingRoutes, webhookRoutePath } from './billing';
import { oauthRoutes } from './oauth';

export const apiPrefix = '/api/v1';

/**
 * The body limit of every route but push: room for a query of the longest SQL the interface takes
 * (1,000,000 characters), however its JSON escapes it.
 */
export const standardMaxBodyBytes = 8 * 1024 * 1024;

/** Billing providers' events are a few kilobytes; Stripe's largest stay well under this. */
const webhookMaxBodyBytes = 1024 * 1024;

const info = {
  title: 'Oxbow',
  version: '1.0.0',
  description:
    'Multi-tenant analytical SQL over lakehouse tables: push and sync data, query it with Postgres-flavoured SQL, run durable jobs and transforms, publish charts.',
};

export interface AppOptions {
  /** The Temporal worker's own metrics, appended to /metrics (absent where this process runs no worker). */
  workerMetrics?: () => Promise<string>;
}

/** Builds the HTTP application; never listens (server.ts does), so tests drive it with app.handle(). */
export function createApp(services: Services, options: AppOptions = {}) {
  const allowedMethods = routeMethods((): readonly { method: string; path: string }[] => app.routes);
  const metricsOnOwnListener = services.config.metrics.port !== undefined;
  const { corsOrigins, compressionMinBytes } = services.config.http;
  const app = new Elysia()
    .use(httpBasics(services.logger, { allowedMethods, metrics: services.metrics }))
    // Answers that carry credentials (tokens, keys) stay uncompressed: their length tells nothing then (BREACH).
    .use(compression({ minBytes: compressionMinBytes, exclude: (path) => path.startsWith(`${apiPrefix}/auth/`) }))
    .use(cors({ origins: corsOrigins, allowedMethods }))
    .use(
      requestBodies({
        standard: { maxBytes: standardMaxBodyBytes, advice: 'Send a smaller body.' },
        routes: {
          [`${apiPrefix}${pushRoutePath}`]: { maxBytes: services.config.push.maxBodyBytes, advice: 'Split the records over several pushes.' },
          [`${apiPrefix}${webhookRoutePath}`]: { maxBytes: webhookMaxBodyBytes, advice: 'A billing event is far smaller.' },
        },
        raw: [`${apiPrefix}${webhookRoutePath}`],
        uploads: {
          routes: [`${apiPrefix}${pushRoutePath}`],
          limit: { maxBytes: services.config.push.maxUploadBytes, advice: 'Split the file over several pushes.' },
        },
        jsonText: { routes: [`${apiPrefix}${pushRoutePath}`], largeBytes: largePushBytes },
        // Among replicas, a request may be forwarded to its workspace's owner as it came.
        keep: !services.cluster.ownership.solo,
      }),
    )
    .use(keepableParameters())
    .use(createdLocations((): readonly LocatableRoute[] => app.routes))
    .use(healthRoutes(services.healthProbes, 'getServiceHealth'))
    .use(probeRoutes(services.readiness))
    .use(metricsOnOwnListener ? new Elysia() : metricsRoutes(services.metrics, options.workerMetrics, { token: services.config.metrics.token }))
    .use(publicRoutes(services))
    .use(consoleRoutes(services.config.console.dir))
    .group(apiPrefix, (api) =>
      api
        .use(healthRoutes(services.healthProbes, 'getHealth'))
        .use(
          authRoutes(services.auth, {
            trustProxy: services.config.http.trustProxy,
            consoleOrigins: [services.config.http.publicBaseUrl, services.config.http.frontendUrl],
          }),
        )
        .use(workspaceRoutes(services.auth.authenticator, services.workspaces))
        .use(pushRoutes(services))
        .use(tableRoutes(services))
        .use(queryRoutes(services))
        .use(jobRoutes(services))
        .use(queryHistoryRoutes(services))
        .use(connectionsApi(services))
        .use(transformRoutes(services))
        .use(savedQueryRoutes(services))
        .use(chartRoutes(services))
        .use(pageRoutes(services))
        .use(usageRoutes(services))
        .use(billingRoutes(services))
        .use(oauthRoutes(services)),
    );
  return app.use(openapiDocs(info, () => openapiDocument(app.routes, { ...info, publicBaseUrl: services.config.http.publicBaseUrl })));
}

export type App = ReturnType<typeof createApp>;
