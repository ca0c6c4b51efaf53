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

/** The long-lived connections every mode shares, built once from the config and closed in reverse order. */
export interface Infrastructure {
  store: Store;
  lake: LakeStorage;
  temporal: TemporalClient;
  temporalAddress: string;
  devServer: TemporalDevServer | undefined;
  close(): Promise<void>;
}

export async function openInfrastructure(config: Config, logger: Logger, options: { superviseTemporal: boolean }): Promise<Infrastructure> {
  const devServer = config.temporal.address === undefined && options.superviseTemporal ? await startDevServer(config, logger) : undefined;
  const temporalAddress = config.temporal.address ?? devServer?.address;
  if (!temporalAddress) throw new Error('TEMPORAL_ADDRESS is required in the api and worker modes (serve starts a local Temporal dev server instead)');

  const store = openStore(config.metadata);
  const applied = await migrate(store);
  if (applied.length > 0) logger.info('applied migrations', { migrations: applied.map((m) => `${m.version}_${m.name}`) });

  const lake = openLakeStorage(config.lake);
  const temporal = createTemporalClient({ address: temporalAddress, namespace: config.temporal.namespace, taskQueue: config.temporal.taskQueue });
  return {
    store,
    lake,
    temporal,
    temporalAddress,
    devServer,
    async close() {
      await temporal.close();
      lake.close();
      await store.close();
      await devServer?.stop();
    },
  };
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
