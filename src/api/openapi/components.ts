import type { OpenAPIV3_1 } from 'openapi-types';
import { authModels } from '../auth/model';
import { healthModels } from '../health/model';
import { jobModels } from '../jobs/model';
import { lakeModels } from '../lake/model';
import { queryModels } from '../query/model';
import { transformModels } from '../transforms/model';
import { workspaceModels } from '../workspaces/model';
import { connectionModels } from '../connections/model';
import { savedQueryModels } from '../saved-queries/model';
import { chartModels } from '../charts/model';
import { pageModels } from '../pages/model';
import { publicModels } from '../public/model';
import { usageModels } from '../usage/model';
import { billingModels } from '../billing/model';
import { errorModels } from './error-models';

/**
 * Every named model of the interface, by its component name: the document refers to these wherever a
 * route's schema holds one (the same object), instead of copying it inline.
 */
export const namedModels: Record<string, object> = {
  ...errorModels,
  ...healthModels,
  ...authModels,
  ...workspaceModels,
  ...lakeModels,
  ...queryModels,
  ...jobModels,
  ...connectionModels,
  ...transformModels,
  ...savedQueryModels,
  ...chartModels,
  ...pageModels,
  ...publicModels,
  ...usageModels,
  ...billingModels,
};

export type HeaderName =
  | 'X-Request-Id'
  | 'X-Total-Count'
  | 'X-RateLimit-Limit'
  | 'X-RateLimit-Remaining'
  | 'X-RateLimit-Reset'
  | 'Retry-After'
  | 'Content-Disposition'
  | 'Location'
  | 'Content-Security-Policy'
  | 'Referrer-Policy'
  | 'X-Content-Type-Options'
  | 'Cache-Control'
  | 'Set-Cookie';

const integerHeader = (description: string): OpenAPIV3_1.HeaderObject => ({ description, schema: { type: 'integer', minimum: 0 } });

export const headerComponents: Record<HeaderName, OpenAPIV3_1.HeaderObject> = {
  'X-Request-Id': { description: 'The request’s id (a sane incoming one is kept); the log holds the request under it', schema: { type: 'string' } },
  'X-Total-Count': integerHeader('How many items the list has in all, beyond this page'),
  'X-RateLimit-Limit': integerHeader('Queries the workspace’s plan allows per minute'),
  'X-RateLimit-Remaining': integerHeader('Queries left in the current 60-second window'),
  'X-RateLimit-Reset': integerHeader('When a query slot frees, in seconds since the epoch'),
  'Retry-After': integerHeader('Seconds to wait before trying again'),
  'Content-Disposition': {
    description:
      'A download’s file name: `attachment; filename="query-….csv"` for a CSV result, `attachment; filename="usage-<first day>-<last day>.<format>"` for a usage export',
    schema: { type: 'string' },
  },
  Location: { description: 'Where the redirect goes, or where what the request created lives', schema: { type: 'string', format: 'uri-reference' } },
  'Content-Security-Policy': {
    description: "What a public page may load and run: `default-src 'none'` and the service's own script, style and images only",
    schema: { type: 'string' },
  },
  'Referrer-Policy': { description: '`no-referrer`: a public link never leaks through the Referer header', schema: { type: 'string' } },
  'X-Content-Type-Options': { description: '`nosniff`', schema: { type: 'string' } },
  'Cache-Control': { description: 'How long the answer may be kept', schema: { type: 'string' } },
  'Set-Cookie': {
    description:
      'The console’s refresh-token cookie (`oxbow_console_refresh`: HttpOnly, SameSite=Strict, Path=/api/v1/auth/console, Secure over HTTPS), set or cleared',
    schema: { type: 'string' },
  },
};

export const securitySchemes: Record<string, OpenAPIV3_1.SecuritySchemeObject> = {
  bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token from login, refresh, session-token or exchange-code' },
  apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key, `oxb_…`' },
  apiKeyBearer: { type: 'http', scheme: 'bearer', bearerFormat: 'oxb_ API key', description: 'An API key as `Authorization: Bearer oxb_…`' },
  consoleRefresh: {
    type: 'apiKey',
    in: 'cookie',
    name: 'oxbow_console_refresh',
    description: 'The web console’s refresh token, in the HttpOnly cookie that logInToConsole sets (console endpoints only)',
  },
  metricsToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'METRICS_TOKEN, when the operator set one (required in production unless the metrics have a listener of their own)',
  },
};

export const tagDescriptions: OpenAPIV3_1.TagObject[] = [
  { name: 'Health', description: 'Liveness, readiness and reachability of the service’s dependencies' },
  { name: 'Operations', description: 'What the operators of the service read: its metrics' },
  { name: 'Authentication', description: 'Sign-up, login, sessions and the CLI login' },
  { name: 'Console session', description: 'Extension: the web console’s cookie-held sessions' },
  { name: 'Account', description: 'The signed-in account' },
  { name: 'API keys', description: 'Keys for /execute and the CLI' },
  { name: 'Workspaces', description: 'Workspaces and their members' },
  { name: 'Push', description: 'Records into lake tables' },
  { name: 'Tables', description: 'The lake tables of a workspace' },
  { name: 'Query', description: 'Synchronous queries, and the history of every statement a workspace ran' },
  { name: 'Query jobs', description: 'Queries run as durable jobs' },
  { name: 'Connections', description: 'Sources synced into lake tables, or read live' },
  { name: 'Transforms', description: 'SQL transforms materialised into lake tables, run in dependency order' },
  { name: 'Saved queries', description: 'Queries with typed parameters, run by name' },
  { name: 'Charts', description: 'Charts over SQL or a saved query, and their public links' },
  { name: 'Pages', description: 'Dashboards of charts and markdown, and their public links' },
  { name: 'Public', description: 'Public charts and pages: no credentials, no version prefix' },
  { name: 'Usage', description: 'What a workspace used: queries, bytes, CPU time, storage, connectors' },
  { name: 'Billing', description: 'Plans, the billing provider’s customer, portal and events' },
];
