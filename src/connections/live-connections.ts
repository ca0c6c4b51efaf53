import type { Logger } from '../logging/logger';
import type { Store } from '../store/store';
import { connectorOf } from '../connectors/registry';
import { specOnlyCredentials } from '../connectors/credentials';
import type { CheckedAddress, SourceAddressPolicy } from '../connectors/source-address';
import { SourceError } from '../connectors/source-error';
import type { LiveSource, LiveSourceProvider } from '../engine/live/live-sources';
import type { ConnectionSecrets } from './connection-secrets';
import { listLiveConnections } from './queries';
import { addressesOf } from './source-sessions';

/**
 * The workspace's connections in live query mode, as its query instance attaches them: each source's
 * address checked (and pinned) again every time an instance opens. A source whose host does not
 * resolve is still listed (the instance reports it unreachable); one the policy refuses is left out.
 */
export class LiveConnections implements LiveSourceProvider {
  constructor(
    private readonly store: Store,
    private readonly secrets: ConnectionSecrets,
    private readonly policy: SourceAddressPolicy,
    private readonly logger: Logger,
  ) {}

  async sourcesOf(workspaceId: string): Promise<{ sources: LiveSource[]; fingerprint: string }> {
    const rows = await this.store.all(listLiveConnections, { workspace_id: workspaceId });
    const sources: LiveSource[] = [];
    for (const row of rows) {
      const connector = connectorOf(row.connector_type);
      if (!connector?.live) continue;
      const spec = this.secrets.open(row);
      const checked: CheckedAddress[] = [];
      try {
        for (const address of addressesOf(connector, spec)) checked.push(await this.policy.check(address).catch(unresolved));
      } catch (error) {
        this.logger.warn('a live connection is not attached: its address is not allowed', { connection_id: row.id, error });
        continue;
      }
      const attachment = connector.live({
        spec,
        checked,
        credentials: specOnlyCredentials,
        allow: (address) => this.policy.check(address),
        egress: () => Promise.reject(new Error('a live attachment sends no HTTP of its own')),
        engine: () => Promise.reject(new Error('a live attachment opens no engine of its own')),
      });
      sources.push({ ...attachment, name: row.name, alias: `live_${row.id.replaceAll('-', '')}` });
    }
    return { sources, fingerprint: rows.map((row) => `${row.id}@${row.updated_at}`).join(',') };
  }
}

/** A host that does not resolve now is attached unpinned: the attach fails and the instance says the source is unreachable. */
function unresolved(error: unknown): CheckedAddress {
  if (!(error instanceof SourceError)) throw error;
  return { host: '', port: 0, address: '' };
}
