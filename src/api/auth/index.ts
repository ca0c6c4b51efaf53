import { Elysia } from 'elysia';
import type { AuthServices } from '../../auth/auth-services';
import { accountRoutes } from './account-routes';
import { apiKeyRoutes } from './api-key-routes';
import { cliLoginRoutes } from './cli-login-routes';
import { consoleSessionRoutes } from './console-session-routes';
import { registrationRoutes } from './registration-routes';
import { sessionRoutes } from './session-routes';

/** Every row of the spec's account and authentication table, under /auth, and the console's cookie sessions. */
export function authRoutes(auth: AuthServices, options: { trustProxy: boolean; consoleOrigins: string[] }) {
  return new Elysia({ prefix: '/auth' })
    .use(registrationRoutes(auth))
    .use(sessionRoutes(auth, options.trustProxy))
    .use(accountRoutes(auth))
    .use(apiKeyRoutes(auth))
    .use(cliLoginRoutes(auth, options.trustProxy))
    .use(consoleSessionRoutes(auth, { origins: options.consoleOrigins, trustProxy: options.trustProxy }));
}
