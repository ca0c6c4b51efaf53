// npm test: alone, it compares the CPU time a statement took with its wall-clock time, which waiting for a busy core inflates.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { DuckDBInstance } from '@duckdb/node-api';
import { createTestBackend, type TestBackend } from '../../support/backends';
import { createDuckDBInstance, threadsOf } from '../../../src/engine/duckdb/create-instance';
import { EngineConnection } from '../../../src/engine/duckdb/engine-connection';
import { InstanceCpuTime } from '../../../src/engine/duckdb/instance-cpu-time';
import { threadCpuNanos } from '../../../src/engine/duckdb/engine-threads';

// A statement that keeps both of the instance's threads busy for a while.
const busy = 'SELECT sum(hash(x)) FROM range(60000000) t(x)';

describe('CPU time of statements, counted from their instance’s threads', () => {
  let env: TestBackend;
  let instance: DuckDBInstance;
  let first: EngineConnection;
  let second: EngineConnection;

  beforeAll(async () => {
    env = await createTestBackend('local');
    instance = await createDuckDBInstance({ extensionDir: env.config.duckdb.extensionDir, threads: 2 });
    const cpu = InstanceCpuTime.of(threadsOf(instance));
    first = new EngineConnection(await instance.connect(), cpu);
    second = new EngineConnection(await instance.connect(), cpu);
  });
  afterAll(async () => {
    first.closeSync();
    second.closeSync();
    instance.closeSync();
    await env.cleanup();
  });

  test('an instance knows the worker threads it started, as many as its threads setting', () => {
    expect(threadsOf(instance)).toHaveLength(2);
  });

  test('a statement that ran alone is credited what the threads ran: at least its share of the wall time, at most all of it', async () => {
    const startedAt = performance.now();
    await first.run(busy);
    const wallMs = performance.now() - startedAt;
    expect(first.lastCpuMs).toBeGreaterThan(wallMs * 0.3);
    expect(first.lastCpuMs).toBeLessThanOrEqual(wallMs * 2 + 5);
  });

  test('statements running at the same time share the threads’ time, and an idle stretch counts for nobody', async () => {
    const startedAt = performance.now();
    await Promise.all([first.run(busy), second.run(busy)]);
    const wallMs = performance.now() - startedAt;
    const total = first.lastCpuMs! + second.lastCpuMs!;
    expect(total).toBeGreaterThan(wallMs * 0.6);
    expect(total).toBeLessThanOrEqual(wallMs * 2 + 5);
    await Bun.sleep(200);
    await first.run('SELECT 1');
    expect(first.lastCpuMs).toBeLessThan(20);
  });

  test('a statement that fails is counted too, and leaves nothing behind for the next', async () => {
    const failure = await first.run('SELECT error(x::VARCHAR) FROM range(10) t(x)').then(
      () => 'no failure',
      (error: unknown) => String(error),
    );
    expect(failure).toMatch(/0/);
    expect(first.lastCpuMs).toBeGreaterThanOrEqual(0);
    // Alone again, the next statement is credited all the threads ran, not a share with the failed one.
    const threadsRan = () => threadsOf(instance).reduce((sum, tid) => sum + threadCpuNanos(tid), 0) / 1e6;
    const before = threadsRan();
    await first.run(busy);
    const ran = threadsRan() - before;
    expect(first.lastCpuMs).toBeGreaterThan(ran * 0.9);
    expect(first.lastCpuMs).toBeLessThanOrEqual(ran + 1);
  });
});
