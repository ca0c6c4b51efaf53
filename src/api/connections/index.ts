import { Elysia } from 'elysia';
import type { Services } from '../../runtime/services';
import { connectionRoutes } from './connection-routes';
import { sourceRoutes } from './source-routes';
import { syncRoutes } from './sync-routes';

/** The Connections operations of the interface. */
export function connectionsApi(services: Pick<Services, 'auth' | 'workspaces' | 'connections' | 'syncJobs' | 'sourceProbes' | 'oauth' | 'cluster' | 'logger'>) {
  return new Elysia().use(syncRoutes(services)).use(connectionRoutes(services)).use(sourceRoutes(services));
}
