import type { Connector } from '../connector';

/**
 * What every CRM connector is: authorized through OAuth 2.0, read over the provider's HTTP API (no
 * DuckDB extension, no live mode), in every sync mode, its records' modification stamps as cursors. Its API's address comes with the token, so
 * there is none to check up front: every request is checked as it is made.
 */
export const crmConnectorTraits = {
  auth: 'oauth',
  engineExtensions: [],
  supportedSyncModes: ['full_refresh_overwrite', 'full_refresh_append', 'incremental_append', 'incremental_append_deduped'],
  supportsLive: false,
  ownCursors: true,
  addresses: () => [],
} as const satisfies Partial<Connector<unknown>>;
