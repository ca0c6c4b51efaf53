import type { Config } from '../config';
import type { Logger } from '../logging/logger';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import { catalogStoreFor } from './catalog-attachment';
import { EngineManager } from './engine-manager';
import { LakeWriter } from './write/lake-writer';
import { QueryMaterializer } from './write/materialize-query';
import { DirectScans } from './sql/direct-scans';
import { QueryAnalyzer, type SqlTranslator } from './sql/query-analyzer';
import { QueryRunner } from './sql/query-runner';
import { SqlParser } from './sql/sql-parser';
import { SyncInstances } from './sync/sync-instance';
import type { LiveSourceProvider } from './live/live-sources';
import { instanceBudget } from './memory-budget';
import { parseByteSize } from '../util/byte-size';

export interface EngineServices {
  engines: EngineManager;
  parser: SqlParser;
  writer: LakeWriter;
  queries: QueryRunner;
  /** Short-lived, unlocked instances that read connections' sources (never tenant SQL). */
  syncs: SyncInstances;
  materializer: QueryMaterializer;
}

export function createEngineServices(deps: {
  config: Config;
  store: Store;
  clock: Clock;
  logger: Logger;
  translate: SqlTranslator;
  liveSources?: LiveSourceProvider;
  onCatalogWritten?: (workspaceId: string) => void;
}): EngineServices {
  const { config } = deps;
  const catalog = catalogStoreFor(config.metadata, config.dataDir);
  const budget = instanceBudget({
    maxInstances: config.duckdb.maxInstances,
    memoryLimit: config.duckdb.memoryLimit,
    budget: config.duckdb.memoryBudget,
    // The sync instances a worker runs at once have their own memory limit.
    reservedBytes: config.syncs.workerConcurrency * (parseByteSize(config.syncs.memoryLimit) ?? 0),
  });
  if (budget.limitedByMemory) {
    deps.logger.warn('fewer engine instances than DUCKDB_MAX_INSTANCES: their memory limits would exceed the budget', {
      instances: budget.instances,
      max_instances: config.duckdb.maxInstances,
      memory_limit: config.duckdb.memoryLimit,
      budget_bytes: budget.budgetBytes,
    });
  }
  const engines = new EngineManager({
    catalog,
    lake: config.lake,
    extensionDir: config.duckdb.extensionDir,
    maxInstances: budget.instances,
    idleCloseMs: config.duckdb.idleCloseMs,
    catalogConnections: config.duckdb.catalogConnections,
    memoryLimit: config.duckdb.memoryLimit,
    threads: config.duckdb.threads,
    threadNice: config.duckdb.threadNice,
    readConnections: config.duckdb.readConnections,
    tempRoot: config.duckdb.tempDir,
    profileRoot: config.duckdb.profileDir,
    statements: config.duckdb.statements,
    liveSources: deps.liveSources,
    onCatalogWritten: deps.onCatalogWritten,
    logger: deps.logger,
  });
  const parser = new SqlParser({ threadNice: config.duckdb.threadNice });
  const analyzer = new QueryAnalyzer(parser, deps.translate);
  // One per process: the plans and file sizes it keeps per snapshot serve queries and materialisations alike.
  const directScans = new DirectScans(parser);
  const writer = new LakeWriter(engines, deps.store, deps.clock);
  return {
    engines,
    parser,
    writer,
    syncs: new SyncInstances(
      {
        extensionDir: config.duckdb.extensionDir,
        memoryLimit: config.syncs.memoryLimit,
        threads: config.duckdb.threads,
        threadNice: config.duckdb.threadNice,
        tempRoot: config.duckdb.tempDir,
        catalog,
        lake: config.lake,
      },
      { writer, store: deps.store, clock: deps.clock },
    ),
    queries: new QueryRunner(engines, analyzer, directScans),
    materializer: new QueryMaterializer(engines, analyzer, parser, deps.store, deps.clock, directScans),
  };
}
