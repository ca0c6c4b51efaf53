import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends, createTestBackend, type TestBackend } from '../support/backends';
import { eventually } from '../support/eventually';
import { TestClock } from '../support/test-clock';
import { createLogger } from '../../src/logging/logger';
import { openStore } from '../../src/store/open-store';
import { migrate, readMigrations } from '../../src/store/migrations';
import { namedQuery } from '../../src/store/named-query';
import type { Store } from '../../src/store/store';
import { UsageBatches, type UsageBatchOptions } from '../../src/query/usage-batches';
import { UsageRecorder } from '../../src/query/usage-recorder';
import type { UsageEntry } from '../../src/query/usage-entry';

const recordsOf = namedQuery<{ workspace_id: string }, { rows_returned: number; created_at: string }>(
  'test.batched_usage',
  'SELECT rows_returned, created_at FROM query_usage WHERE workspace_id = :workspace_id ORDER BY rows_returned',
);
const dailyCount = namedQuery<{ workspace_id: string }, { queries: number }>(
  'test.batched_daily',
  'SELECT CAST(coalesce(sum(query_count), 0) AS BIGINT) AS queries FROM usage_daily WHERE workspace_id = :workspace_id',
);
const moveUsageAway = namedQuery('test.move_usage_away', 'ALTER TABLE query_usage RENAME TO query_usage_away');
const moveUsageBack = namedQuery('test.move_usage_back', 'ALTER TABLE query_usage_away RENAME TO query_usage');

function entry(workspaceId: string, rows: number): UsageEntry {
  return {
    workspaceId,
    userId: 'user-1',
    apiKeyId: null,
    source: 'query',
    sql: `SELECT ${rows}`,
    status: 'succeeded',
    errorCode: null,
    bytesScanned: 10,
    cpuMs: 1,
    rowsReturned: rows,
    durationMs: 2,
    costEur: 0,
  };
}

for (const backend of backends) {
  describe(`usage records written in batches on ${backend}`, () => {
    let env: TestBackend;
    let store: Store;
    const clock = new TestClock();
    const errors: string[] = [];
    const logger = createLogger({ level: 'error', sink: (line) => errors.push(line) });
    const batches = (options: Partial<UsageBatchOptions> = {}) =>
      new UsageBatches(store, new UsageRecorder(store, clock), clock, logger, { delayMs: 20, retryMs: 60_000, maxWaiting: 1_000, ...options });
    const recorded = async (workspaceId: string) => ({
      records: await store.all(recordsOf, { workspace_id: workspaceId }),
      queries: Number((await store.first(dailyCount, { workspace_id: workspaceId }))?.queries ?? 0),
    });

    beforeAll(async () => {
      env = await createTestBackend(backend);
      store = openStore(env.config.metadata);
      await migrate(store, readMigrations());
    });
    afterAll(async () => {
      await store.close();
      await env.cleanup();
    });

    test('records wait a moment, are written together with the day’s roll-up, and keep the time they were answered', async () => {
      const workspaceId = crypto.randomUUID();
      const usage = batches({ delayMs: 60_000 });
      clock.set('2026-03-01T10:00:00.000Z');
      usage.add(entry(workspaceId, 1));
      clock.set('2026-03-01T10:00:00.250Z');
      usage.add(entry(workspaceId, 2));
      clock.set('2026-03-01T10:05:00.000Z');
      expect(await recorded(workspaceId)).toEqual({ records: [], queries: 0 });
      await usage.written();
      const { records, queries } = await recorded(workspaceId);
      expect(records.map((row) => [row.rows_returned, new Date(row.created_at).toISOString()])).toEqual([
        [1, '2026-03-01T10:00:00.000Z'],
        [2, '2026-03-01T10:00:00.250Z'],
      ]);
      expect(queries).toBe(2);
    });

    test('without anyone asking, the records are written once their delay is over', async () => {
      const workspaceId = crypto.randomUUID();
      const usage = batches({ delayMs: 20 });
      for (let rows = 1; rows <= 3; rows++) usage.add(entry(workspaceId, rows));
      const { queries } = await eventually(
        () => recorded(workspaceId),
        (state) => state.queries === 3,
      );
      expect(queries).toBe(3);
    });

    test('a write the store refuses keeps its records, which are written once the store takes them again', async () => {
      const workspaceId = crypto.randomUUID();
      const usage = batches({ delayMs: 60_000 });
      await store.run(moveUsageAway, {});
      try {
        usage.add(entry(workspaceId, 1));
        usage.add(entry(workspaceId, 2));
        await usage.written();
        expect(errors.at(-1)).toContain('usage records not written; trying again');
      } finally {
        await store.run(moveUsageBack, {});
      }
      usage.add(entry(workspaceId, 3));
      await usage.written();
      expect(await recorded(workspaceId)).toMatchObject({ queries: 3, records: [{ rows_returned: 1 }, { rows_returned: 2 }, { rows_returned: 3 }] });
    });

    test('batches of two processes over the same roll-ups, in opposite orders, never wait for each other in turn', async () => {
      const workspaces = Array.from({ length: 6 }, () => crypto.randomUUID());
      // Each "replica" answers the workspaces' queries in the opposite order: their batches held
      // roll-up rows the other wanted next, which Postgres found as deadlocks.
      const replicas = [batches({ delayMs: 60_000 }), batches({ delayMs: 60_000 })];
      const before = errors.length;
      for (let round = 0; round < 10; round++) {
        for (const workspaceId of workspaces) replicas[0]!.add(entry(workspaceId, round));
        for (const workspaceId of workspaces.toReversed()) replicas[1]!.add(entry(workspaceId, round));
        await Promise.all(replicas.map((usage) => usage.written()));
      }
      expect(errors.slice(before).filter((line) => line.includes('not written'))).toEqual([]);
      for (const workspaceId of workspaces) expect((await recorded(workspaceId)).queries).toBe(20);
    });

    test('past the most records kept waiting, the oldest are dropped and logged', async () => {
      const workspaceId = crypto.randomUUID();
      const usage = batches({ delayMs: 60_000, maxWaiting: 2 });
      for (let rows = 1; rows <= 3; rows++) usage.add(entry(workspaceId, rows));
      expect(errors.at(-1)).toContain('usage records dropped');
      await usage.written();
      expect(await recorded(workspaceId)).toMatchObject({ queries: 2, records: [{ rows_returned: 2 }, { rows_returned: 3 }] });
    });
  });
}
