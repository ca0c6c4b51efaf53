// npm test: alone, a wait for an instance is held to its deadline within 700 ms.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { EngineManager } from '../../../src/engine/engine-manager';
import { catalogStoreFor } from '../../../src/engine/catalog-attachment';
import { AppError } from '../../../src/errors/app-error';
import { createLogger } from '../../../src/logging/logger';
import { createTestBackend, type TestBackend } from '../../support/backends';

/**
 * DUCKDB_MAX_INSTANCES is a bound, not a wish: an instance more waits for one to close (the least
 * recently used idle one closes to make room), within the deadline of whoever needs it; instances
 * left unused close after the idle time.
 */
describe('a bounded number of workspace instances', () => {
  let env: TestBackend;
  const lines: string[] = [];
  const manager = (maxInstances: number, idleCloseMs = 600_000) => {
    const { config } = env;
    return new EngineManager({
      catalog: catalogStoreFor(config.metadata, config.dataDir),
      lake: config.lake,
      extensionDir: config.duckdb.extensionDir,
      maxInstances,
      idleCloseMs,
      memoryLimit: '256MB',
      threads: 1,
      threadNice: 0,
      readConnections: 1,
      catalogConnections: 1,
      tempRoot: `${config.dataDir}/tmp`,
      profileRoot: `${config.dataDir}/profiles`,
      statements: { running: 4, queued: 16, queuedPerWorkspace: 4 },
      logger: createLogger({ level: 'info', sink: (line) => lines.push(line) }),
    });
  };
  const workspace = () => crypto.randomUUID();
  const held = (engines: EngineManager) => engines.openByLane().interactive + engines.openByLane().background;
  /** Work on a workspace's instance that holds it until released (resolves once it runs). */
  const holding = async (engines: EngineManager) => {
    let release!: () => void;
    let running!: () => void;
    const started = new Promise<void>((resolve) => (running = resolve));
    const done = engines.with(workspace(), () => {
      running();
      return new Promise<void>((resolve) => (release = resolve));
    });
    await started;
    return { release, done };
  };

  beforeAll(async () => {
    env = await createTestBackend('local');
  });
  afterAll(() => env.cleanup());

  test('an instance more waits while every instance is in use, and gets the room of the first one freed', async () => {
    const engines = manager(1);
    try {
      const busy = await holding(engines);
      const second = workspace();
      let ran = false;
      const waiting = engines.with(second, async () => void (ran = true));
      await Bun.sleep(300);
      expect(ran).toBe(false);
      expect(held(engines)).toBe(1);
      busy.release();
      await busy.done;
      await waiting;
      expect(ran).toBe(true);
      expect(held(engines)).toBe(1);
      expect(lines.some((line) => line.includes('room for another workspace'))).toBe(true);
    } finally {
      await engines.close();
    }
  }, 60_000);

  test('the wait and the open count against the deadline: QUERY_TIMEOUT at the deadline, and the instance opens for the next caller', async () => {
    const engines = manager(1);
    try {
      const busy = await holding(engines);
      const late = workspace();
      const startedAt = performance.now();
      const refused = await engines.with(late, async () => 'ran', 'interactive', startedAt + 300).catch((error: unknown) => error);
      const waited = performance.now() - startedAt;
      expect(refused).toBeInstanceOf(AppError);
      expect((refused as AppError).code).toBe('QUERY_TIMEOUT');
      expect(waited).toBeGreaterThanOrEqual(290);
      expect(waited).toBeLessThan(1_000);
      busy.release();
      await busy.done;
      expect(await engines.with(late, async () => 'ran')).toBe('ran');
    } finally {
      await engines.close();
    }
  }, 60_000);

  test('instances unused for the idle time close on their own', async () => {
    const engines = manager(4, 1_000);
    try {
      await engines.with(workspace(), async () => {});
      await engines.with(workspace(), async () => {});
      expect(held(engines)).toBe(2);
      for (const deadline = performance.now() + 5_000; held(engines) > 0 && performance.now() < deadline;) await Bun.sleep(100);
      expect(held(engines)).toBe(0);
      expect(lines.filter((line) => line.includes('"reason":"idle"')).length).toBeGreaterThanOrEqual(2);
    } finally {
      await engines.close();
    }
  }, 60_000);
});
