import { connectorOf } from '../connectors/registry';
import type { AnyConnector, ConnectorContext } from '../connectors/connector';
import { specOnlyCredentials, type ConnectorCredentials, type OAuthTokenSource } from '../connectors/credentials';
import type { SourceAddressPolicy } from '../connectors/source-address';
import type { EngineConnection } from '../engine/duckdb/engine-connection';
import type { SyncInstance, SyncInstances } from '../engine/sync/sync-instance';
import type { ConnectionSecrets } from './connection-secrets';
import type { ConnectionRow } from './queries';

/** A connection's source, open: its connector, the context it reads with, and the instance behind it. */
export interface SourceSession {
  connector: AnyConnector;
  context: ConnectorContext<Record<string, unknown>>;
  /** The session's instance with the workspace's lake attached (a sync session only). */
  lake(): Promise<SyncInstance>;
  close(): Promise<void>;
}

export interface SourceSessionDeps {
  secrets: ConnectionSecrets;
  policy: SourceAddressPolicy;
  syncs: SyncInstances;
  /** Tokens of OAuth connector types, kept by the module that authorizes them. */
  oauth?: OAuthTokenSource;
}

/**
 * Opens a connection's source for one piece of work (a test, a discovery, a preview, a stream's
 * sync): the spec with its secrets, every address it names checked against the policy first, the
 * credentials its type uses, and a sync instance opened on first use and closed with the session.
 */
export class SourceSessions {
  constructor(private readonly deps: SourceSessionDeps) {}

  async open(row: ConnectionRow, options: { withLake?: boolean; signal?: AbortSignal } = {}): Promise<SourceSession> {
    const connector = connectorOf(row.connector_type);
    if (!connector) throw new Error(`connection ${row.id} has the unknown connector type ${row.connector_type}`);
    const spec = this.deps.secrets.open(row);
    const checked = [];
    for (const address of connector.addresses(spec)) checked.push(await this.deps.policy.check(address));
    let instance: Promise<SyncInstance> | undefined;
    const opened = () =>
      (instance ??= this.deps.syncs.open({ sourceExtensions: connector.engineExtensions, workspaceId: options.withLake ? row.workspace_id : undefined }));
    const context: ConnectorContext<Record<string, unknown>> = {
      spec,
      credentials: this.credentialsOf(row, connector),
      checked,
      allow: (address) => this.deps.policy.check(address),
      engine: async (): Promise<EngineConnection> => (await opened()).connection,
      signal: options.signal,
    };
    return {
      connector,
      context,
      lake: opened,
      close: async () => {
        const open = instance && (await instance.catch(() => undefined));
        await open?.close();
      },
    };
  }

  /** Opens the source for `work` (no lake) and closes it when the work has ended, however it ended. */
  async use<T>(row: ConnectionRow, work: (session: SourceSession) => Promise<T>): Promise<T> {
    const session = await this.open(row);
    try {
      return await work(session);
    } finally {
      await session.close();
    }
  }

  private credentialsOf(row: ConnectionRow, connector: AnyConnector): ConnectorCredentials {
    if (connector.auth !== 'oauth') return specOnlyCredentials;
    const { oauth } = this.deps;
    const connection = { id: row.id, workspaceId: row.workspace_id, connectorType: row.connector_type };
    return {
      accessToken: () => (oauth ? oauth.accessToken(connection) : Promise.reject(new Error('no OAuth token source is configured'))),
      oauthSession: (rejected) => (oauth?.session ? oauth.session(connection, rejected) : Promise.reject(new Error('no OAuth token source is configured'))),
    };
  }
}
