import { connectorOf } from '../connectors/registry';
import type { AnyConnector, ConnectorContext } from '../connectors/connector';
import { specOnlyCredentials, type ConnectorCredentials, type OAuthTokenSource } from '../connectors/credentials';
import type { EgressProxy, EgressRoute } from '../connectors/egress-proxy';
import type { CheckedAddress, SourceAddress, SourceAddressPolicy } from '../connectors/source-address';
import { SourceError } from '../connectors/source-error';
import { SpecValueError } from '../connectors/spec-values';
import type { EngineConnection } from '../engine/duckdb/engine-connection';
import type { SyncInstance, SyncInstances } from '../engine/sync/sync-instance';
import type { SyncLake } from '../engine/sync/sync-lake';
import type { ConnectionSecrets } from './connection-secrets';
import type { ConnectionRow } from './queries';

/** A connection's source, open: its connector, the context it reads with, and the instance behind it. */
export interface SourceSession {
  connector: AnyConnector;
  context: ConnectorContext<Record<string, unknown>>;
  /** The workspace's lake, attached to the session's instance: a sync's one way to write it (a sync session only). */
  lake(): Promise<SyncLake>;
  /** Stops what the session's engine runs now (a deadline passed). */
  interrupt(): void;
  /** Why the egress proxy refused a connection of the session's engine, if it did: what a failure of it really was. */
  refusal(): Promise<Error | undefined>;
  close(): Promise<void>;
}

export interface SourceSessionDeps {
  secrets: ConnectionSecrets;
  policy: SourceAddressPolicy;
  egress: EgressProxy;
  syncs: SyncInstances;
  /** Tokens of OAuth connector types, kept by the module that authorizes them. */
  oauth?: OAuthTokenSource;
}

/**
 * Opens a connection's source for one piece of work (a test, a discovery, a preview, a stream's
 * sync): the spec with its secrets, every address it names checked against the policy first, the
 * credentials its type uses, a sync instance opened on first use and an egress route for it, both
 * closed with the session.
 */
export class SourceSessions {
  constructor(private readonly deps: SourceSessionDeps) {}

  async open(row: ConnectionRow, options: { withLake?: boolean; signal?: AbortSignal } = {}): Promise<SourceSession> {
    const connector = connectorOf(row.connector_type);
    if (!connector) throw new Error(`connection ${row.id} has the unknown connector type ${row.connector_type}`);
    const spec = this.deps.secrets.open(row);
    const checked: CheckedAddress[] = [];
    for (const address of addressesOf(connector, spec)) checked.push(await this.deps.policy.check(address));
    let instance: Promise<SyncInstance> | undefined;
    let routing: Promise<EgressRoute> | undefined;
    let route: EgressRoute | undefined;
    const opened = () =>
      (instance ??= this.deps.syncs.open({ sourceExtensions: connector.engineExtensions, workspaceId: options.withLake ? row.workspace_id : undefined }));
    const context: ConnectorContext<Record<string, unknown>> = {
      spec,
      credentials: this.credentialsOf(row, connector),
      checked,
      allow: (address) => this.deps.policy.check(address),
      egress: () => (routing ??= this.deps.egress.route().then((opened) => (route = opened))),
      engine: async (): Promise<EngineConnection> => {
        options.signal?.throwIfAborted();
        return (await opened()).connection;
      },
      signal: options.signal,
    };
    return {
      connector,
      context,
      lake: async () => {
        const { lake } = await opened();
        if (!lake) throw new Error('the session was opened without the lake');
        return lake;
      },
      interrupt: () => void instance?.then((open) => open.connection.interrupt()).catch(() => undefined),
      refusal: async () => route?.refusal(),
      close: async () => {
        const open = instance && (await instance.catch(() => undefined));
        await open?.close();
        route?.close();
      },
    };
  }

  /**
   * Opens the source for `work` (no lake) and closes it when the work has ended, however it ended.
   * With a deadline the answer comes by then: what still runs is stopped (requests aborted, the
   * engine interrupted) and closes in the background, and the answer says the source took too long.
   */
  async use<T>(row: ConnectionRow, work: (session: SourceSession) => Promise<T>, options: { deadlineMs?: number } = {}): Promise<T> {
    const stop = new AbortController();
    let session: SourceSession | undefined;
    const running = (async () => {
      session = await this.open(row, { signal: stop.signal });
      try {
        stop.signal.throwIfAborted();
        return await work(session);
      } catch (error) {
        throw (await session.refusal()) ?? error;
      } finally {
        await session.close();
      }
    })();
    if (options.deadlineMs === undefined) return running;
    const { deadlineMs } = options;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new SourceError('unreachable', `The source did not answer within ${deadlineMs / 1000} s`);
        stop.abort(error);
        session?.interrupt();
        reject(error);
      }, deadlineMs);
    });
    running.catch(() => undefined);
    try {
      return await Promise.race([running, late]);
    } finally {
      clearTimeout(timer);
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

/** The addresses of a stored spec; one its connector cannot use fails as the source's problem, not the service's. */
export function addressesOf(connector: AnyConnector, spec: Record<string, unknown>): SourceAddress[] {
  try {
    return connector.addresses(spec);
  } catch (error) {
    if (error instanceof SpecValueError) throw new SourceError('invalid', `The connection’s ${error.issue.path.join('.')} cannot be used: ${error.issue.msg}`);
    throw error;
  }
}
