import type { QueryGate } from '../../query/query-gate';
import type { QueryService } from '../../query/query-service';
import { deleteWorkspaceCharts } from '../../sharing/chart-queries';
import { ChartResults } from '../../sharing/chart-results';
import { ChartsService } from '../../sharing/charts-service';
import { deleteWorkspacePages } from '../../sharing/page-queries';
import { PagesService } from '../../sharing/pages-service';
import { deleteWorkspacePublications } from '../../sharing/publication-queries';
import { MemoryViewLimits, prunePublicViewCounts, StoreViewLimits } from '../../sharing/public-throttle';
import { PublicViews } from '../../sharing/public-views';
import { Publisher } from '../../sharing/publishing';
import { deleteWorkspaceSavedQueries } from '../../sharing/saved-query-queries';
import { SavedQueriesService } from '../../sharing/saved-queries-service';
import { SharedReads } from '../../sharing/shared-reads';
import type { FeatureWiring } from '../feature';
import type { FeatureDeps } from './deps';

export interface SharingServices {
  savedQueries: SavedQueriesService;
  charts: ChartsService;
  pages: PagesService;
  publicViews: PublicViews;
}

/**
 * Saved queries, charts, pages and their public links, with the per-snapshot cache public views read.
 * `replicated`: other API replicas serve public links too, so their view limits are counted in the store.
 */
export function sharingFeature({ config, infra, logger, clock }: FeatureDeps, gate: QueryGate, queries: QueryService, replicated: boolean) {
  const log = logger.child({ component: 'sharing' });
  const { store } = infra;
  const publisher = new Publisher(store, clock, config.http.publicBaseUrl);
  const savedQueries = new SavedQueriesService(store, gate, queries, clock);
  const charts = new ChartsService(store, gate, savedQueries, publisher, clock);
  const pages = new PagesService(store, publisher, clock);
  const results = new ChartResults(gate, new SharedReads((workspaceId) => gate.snapshot(workspaceId)), clock, config.sharing.publicCacheEntries, log);
  const perMinute = { address: config.sharing.publicViewsPerAddress, link: config.sharing.publicViewsPerLink };
  const limits = replicated ? new StoreViewLimits(store, perMinute, clock) : new MemoryViewLimits(perMinute, clock);
  const sharing: SharingServices = {
    savedQueries,
    charts,
    pages,
    publicViews: new PublicViews(store, publisher, charts, results, limits, log, config.sharing.publicCacheEntries),
  };
  const wiring = {
    workspacePurge: { rows: [deleteWorkspacePublications, deleteWorkspacePages, deleteWorkspaceCharts, deleteWorkspaceSavedQueries] },
    prune: [prunePublicViewCounts],
  } satisfies FeatureWiring;
  return { sharing, wiring };
}
