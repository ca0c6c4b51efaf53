import { ConnectorQuota, type ConnectorCount } from '../../usage/connector-quota';
import type { StorageQuota } from '../../usage/storage-quota';
import { UsageDashboards } from '../../usage/usage-dashboard';
import { UsageExport } from '../../usage/usage-export';
import { deleteWorkspaceDailyUsage } from '../../usage/usage-queries';
import { UsageReports } from '../../usage/usage-reports';
import type { FeatureWiring } from '../feature';
import type { FeatureDeps } from './deps';

export interface UsageFeatureDeps extends FeatureDeps {
  /** Writes the usage records of answered queries that wait to be written: provided by the queries feature. */
  usageRecorded: () => Promise<void>;
  storage: StorageQuota;
  /** How many connectors a workspace has: provided by the connections feature. */
  connectorCount: ConnectorCount;
}

export interface UsageServices {
  reports: UsageReports;
  dashboards: UsageDashboards;
  exports: UsageExport;
  /** The plan's storage limit: every feature that writes to the lake asks it first. */
  storage: StorageQuota;
  /** The plan's connector limit: the connections feature asks it before it creates one. */
  connectors: ConnectorQuota;
}

/** Usage reports from the daily roll-ups, the export of the records, and the plan limits on storage and connectors. */
export function usageFeature({ infra, clock, usageRecorded, storage, connectorCount }: UsageFeatureDeps) {
  const reports = new UsageReports(infra.store, clock, usageRecorded);
  const connectors = new ConnectorQuota(infra.store, connectorCount);
  const usage: UsageServices = {
    reports,
    dashboards: new UsageDashboards(infra.store, reports, storage, connectors),
    exports: new UsageExport(infra.store, () => reports.today(), usageRecorded),
    storage,
    connectors,
  };
  const wiring = { workspacePurge: { rows: [deleteWorkspaceDailyUsage] } } satisfies FeatureWiring;
  return { usage, wiring };
}
