// Run as its own process by the crash test: pushes many records into one table through the real
// engine and is killed with SIGKILL somewhere along the way. With `group` as its fourth argument the
// records are many pushes upserted together in one commit, as queued pushes are.
import { loadConfig } from '../../src/config';
import { catalogStoreFor } from '../../src/engine/catalog-attachment';
import { CatalogReaders } from '../../src/engine/catalog-reader';
import { WorkspaceEngine } from '../../src/engine/workspace-engine';
import { writeRecords } from '../../src/engine/write/write-records';
import { recordsSource } from '../../src/engine/write/records-source';
import { StatementScheduler } from '../../src/engine/admission/statement-scheduler';
import { groupSource } from '../../src/engine/write/push-group';

const [workspaceId, table, rowCount, grouped] = [process.argv[2]!, process.argv[3]!, Number(process.argv[4]), process.argv[5] === 'group'];
const config = loadConfig(process.env);
const engine = await WorkspaceEngine.open({
  location: { workspaceId, catalog: catalogStoreFor(config.metadata, config.dataDir), lake: config.lake },
  extensionDir: config.duckdb.extensionDir,
  memoryLimit: config.duckdb.memoryLimit,
  threads: config.duckdb.threads,
  threadNice: config.duckdb.threadNice,
  readConnections: 1,
  tempRoot: `${config.duckdb.tempDir}-crash-${process.pid}`,
  profileRoot: config.duckdb.profileDir,
  catalogReaders: new CatalogReaders(catalogStoreFor(config.metadata, config.dataDir)),
  scheduler: new StatementScheduler(config.duckdb.statements),
});
const [schema, name] = table.split('.') as [string, string];
const records = Array.from({ length: rowCount }, (_, id) => ({ id: 1_000_000 + id, payload: `row ${id} ${'x'.repeat(40)}`, value: id * 0.5 }));
console.log('pushing');
const target = { schema, table: name };
const memberSize = 2_000;
const group = grouped
  ? groupSource(
      Array.from({ length: Math.ceil(rowCount / memberSize) }, (_, index) => ({ records: records.slice(index * memberSize, (index + 1) * memberSize) })),
    )
  : undefined;
await engine.writeTable(table, async (connection) =>
  writeRecords(connection, engine.stagingDir, {
    source: 'push',
    table: target,
    input: group?.source ?? recordsSource(records),
    mode: 'append',
    keyOf: () => Promise.resolve(grouped ? ['id'] : []),
    commitInfo: group ? () => ({ group: group.memberRows().map((rows) => ({ records_written: rows })) }) : {},
    ...(group ? { note: `(${Math.ceil(rowCount / memberSize)} pushes)` } : {}),
  }),
);
console.log('done');
await engine.close();
