import { join } from 'node:path';
import type { Config } from '../config';
import type { Logger } from '../logging/logger';
import { openStore } from '../store/open-store';
import { migrate } from '../store/migrations';
import type { Store } from '../store/store';
import { openLakeStorage } from '../lake-storage/open-lake-storage';
import type { LakeStorage } from '../lake-storage/lake-storage';
import { TemporalDevServer } from '../temporal/dev-server';
import { createTemporalClient, type TemporalClient } from '../temporal/client';
import { PostgresSession } from '../cluster/postgres-session';
import { LocalNotices, PostgresNotices, type ChangeNotices } from '../cluster/change-notices';
import { Membership, type MemberRole } from '../cluster/membership';

/** The long-lived connections every mode shares, built once from the config and closed in reverse order. */
export interface Infrastructure {
  store: Store;
  lake: LakeStorage;
  temporal: TemporalClient;
  temporalAddress: string;
  devServer: TemporalDevServer | undefined;
  /** Changes every process holding state about them hears of (Postgres' NOTIFY; in process on SQLite). */
  notices: ChangeNotices;
  /** This process's membership among the processes sharing Postgres (the api and worker modes); it joins once it serves. */
  membership: Membership | undefined;
  close(): Promise<void>;
}

export interface InfrastructureOptions {
  superviseTemporal: boolean;
  /** What this process is among the replicas sharing Postgres; absent: it serves everything alone (`serve`, tests). */
  role?: MemberRole;
}

export async function openInfrastructure(config: Config, logger: Logger, options: InfrastructureOptions): Promise<Infrastructure> {
  const devServer = config.temporal.address === undefined && options.superviseTemporal ? await startDevServer(config, logger) : undefined;
  const temporalAddress = config.temporal.address ?? devServer?.address;
  if (!temporalAddress) throw new Error('TEMPORAL_ADDRESS is required in the api and worker modes (serve starts a local Temporal dev server instead)');

  const store = openStore(config.metadata);
  const applied = await migrate(store);
  if (applied.length > 0) logger.info('applied migrations', { migrations: applied.map((m) => `${m.version}_${m.name}`) });

  const lake = openLakeStorage(config.lake);
  const cluster = await openCluster(config, logger, options.role);
  // Replicas spread the workspaces' durable work over shards of each task queue; a process alone does not.
  const shards = cluster.membership ? config.temporal.workspaceShards : 1;
  const temporal = createTemporalClient({ address: temporalAddress, namespace: config.temporal.namespace, taskQueue: config.temporal.taskQueue, shards });
  return {
    store,
    lake,
    temporal,
    temporalAddress,
    devServer,
    notices: cluster.notices,
    membership: cluster.membership,
    async close() {
      await cluster.membership?.leave();
      await cluster.session?.close();
      await temporal.close();
      lake.close();
      await store.close();
      await devServer?.stop();
    },
  };
}

/**
 * On Postgres, one session of the process's own carries its change notices and, for the api and
 * worker modes, its membership (src/cluster/README.md); on SQLite the process is alone.
 */
async function openCluster(config: Config, logger: Logger, role: MemberRole | undefined) {
  if (config.metadata.kind !== 'postgres') return { notices: new LocalNotices(logger), membership: undefined, session: undefined };
  const log = logger.child({ component: 'cluster' });
  const session = new PostgresSession(config.metadata.url, 'oxbow-cluster');
  const notices = new PostgresNotices(session, log);
  await notices.start();
  const membership = role ? new Membership(session, { id: Bun.randomUUIDv7(), role }, log) : undefined;
  return { notices, membership, session };
}

async function startDevServer(config: Config, logger: Logger): Promise<TemporalDevServer> {
  const { devServer } = config.temporal;
  logger.info('starting the local Temporal dev server', { port: devServer.port, ui_port: devServer.uiPort, db_file: devServer.dbFile });
  return TemporalDevServer.start({
    cliPath: devServer.cliPath,
    host: '127.0.0.1',
    port: devServer.port,
    uiPort: devServer.uiPort,
    namespace: config.temporal.namespace,
    dbFile: devServer.dbFile,
    logFile: join(config.dataDir, 'logs', 'temporal.log'),
    pidFile: join(config.dataDir, 'temporal.pid'),
    logger: logger.child({ component: 'temporal-dev-server' }),
  });
}
