import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backends, createTestBackend, type TestBackend } from '../support/backends';
import { openStore } from '../../src/store/open-store';
import { migrate, readMigrations } from '../../src/store/migrations';
import { namedQuery } from '../../src/store/named-query';
import type { Store } from '../../src/store/store';

type Item = { id: string; name: string; size: number; created_at: string; note: string | null };
const insertItem = namedQuery<{ id: string; name: string; size: number; created_at: string }>(
  'test.insert_item',
  'INSERT INTO test_items (id, name, size, created_at) VALUES (:id, :name, :size, :created_at)',
);
const itemsSince = namedQuery<{ since: string }, Item>('test.items_since', 'SELECT * FROM test_items WHERE created_at >= :since ORDER BY created_at');
const itemById = namedQuery<{ id: string }, Item>('test.item_by_id', 'SELECT * FROM test_items WHERE id = :id');
const bumpCounter = namedQuery<{ value: number }>('test.set_counter', 'UPDATE test_counter SET value = :value');
const readCounter = namedQuery<Record<never, never>, { value: number }>('test.read_counter', 'SELECT value FROM test_counter');

function migrationsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'oxbow-migrations-'));
  for (const [name, sql] of Object.entries(files)) writeFileSync(join(dir, name), sql);
  return dir;
}

const testSchema = {
  '0001_items.sql': `-- items for the store tests
CREATE TABLE test_items (id TEXT PRIMARY KEY, name TEXT NOT NULL, size BIGINT NOT NULL, created_at TIMESTAMPTZ NOT NULL, note TEXT);
CREATE INDEX test_items_created ON test_items (created_at);`,
  '0002_counter.sql': `-- a single counter row
CREATE TABLE test_counter (value BIGINT NOT NULL);
INSERT INTO test_counter (value) VALUES (0);`,
};

async function withFreshStore(backend: (typeof backends)[number], work: (store: Store, env: TestBackend) => Promise<void>): Promise<void> {
  const env = await createTestBackend(backend);
  const store = openStore(env.config.metadata);
  try {
    await work(store, env);
  } finally {
    await store.close();
    await env.cleanup();
  }
}

for (const backend of backends) {
  describe(`metadata store on ${backend}`, () => {
    let env: TestBackend;
    let store: Store;
    const testMigrations = readMigrations(migrationsDir(testSchema));

    beforeAll(async () => {
      env = await createTestBackend(backend);
      store = openStore(env.config.metadata);
      await migrate(store, testMigrations);
    });
    afterAll(async () => {
      await store.close();
      await env.cleanup();
    });

    test('the project migrations apply, are recorded, and a second run applies nothing', async () => {
      await withFreshStore(backend, async (fresh) => {
        const all = readMigrations();
        expect(all.length).toBeGreaterThan(0);
        expect((await migrate(fresh, all)).map((m) => m.version)).toEqual(all.map((m) => m.version));
        expect(await migrate(fresh, all)).toEqual([]);
      });
    });

    test('concurrent migration runs queue on the lock and apply each file once', async () => {
      await withFreshStore(backend, async (first, own) => {
        const second = openStore(own.config.metadata);
        const [a, b] = await Promise.all([migrate(first, testMigrations), migrate(second, testMigrations)]);
        await second.close();
        expect([...a, ...b].map((m) => m.version).sort()).toEqual([1, 2]);
      });
    });

    test('an applied migration that was edited afterwards stops the start', async () => {
      const edited = readMigrations(migrationsDir({ ...testSchema, '0001_items.sql': `${testSchema['0001_items.sql']}\n-- edited` }));
      expect(migrate(store, edited)).rejects.toThrow('migration 1_items was changed after it was applied');
    });

    test('rows round-trip with the same shapes on both drivers', async () => {
      const createdAt = '2026-11-21T10:00:00.123Z';
      await store.run(insertItem, { id: 'shape', name: "O'Brien; DROP TABLE test_items", size: 2 ** 40, created_at: createdAt });
      expect(await store.first(itemById, { id: 'shape' })).toEqual({
        id: 'shape',
        name: "O'Brien; DROP TABLE test_items",
        size: 2 ** 40,
        created_at: createdAt,
        note: null,
      });
      expect(await store.first(itemById, { id: 'missing' })).toBeUndefined();
    });

    test('timestamps compare as times', async () => {
      await store.run(insertItem, { id: 'past', name: 'past', size: 1, created_at: '2001-01-01T00:00:00.000Z' });
      await store.run(insertItem, { id: 'far-future', name: 'future', size: 1, created_at: '2099-12-31T23:59:59.999Z' });
      const rows = await store.all(itemsSince, { since: '2099-01-01T00:00:00.000Z' });
      expect(rows.map((row) => row.id)).toEqual(['far-future']);
    });

    test('a failed transaction leaves nothing behind', async () => {
      const attempt = store.transaction(async (tx) => {
        await tx.run(insertItem, { id: 'tx-1', name: 'x', size: 1, created_at: new Date().toISOString() });
        throw new Error('boom');
      });
      expect(attempt).rejects.toThrow('boom');
      await attempt.catch(() => {});
      expect(await store.first(itemById, { id: 'tx-1' })).toBeUndefined();
    });

    test('concurrent read-modify-write transactions under one lock key lose no update', async () => {
      const before = (await store.first(readCounter, {}))!.value;
      const increments = 20;
      await Promise.all(
        Array.from({ length: increments }, () =>
          store.transaction(async (tx) => {
            await tx.lock('test:counter');
            const { value } = (await tx.first(readCounter, {}))!;
            await Bun.sleep(1);
            await tx.run(bumpCounter, { value: value + 1 });
          }),
        ),
      );
      expect((await store.first(readCounter, {}))!.value).toBe(before + increments);
    });

    test('a statement outside a transaction never sees its uncommitted writes', async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const transaction = store.transaction(async (tx) => {
        await tx.run(insertItem, { id: 'pending', name: 'p', size: 1, created_at: new Date().toISOString() });
        await held;
      });
      await Bun.sleep(20);
      const outside = store.first(itemById, { id: 'pending' });
      const seenEarly = await Promise.race([outside, Bun.sleep(50).then(() => 'waiting' as const)]);
      expect(seenEarly === undefined || seenEarly === 'waiting').toBe(true);
      release();
      await transaction;
      expect(await store.first(itemById, { id: 'pending' })).toBeDefined();
    });

    test('ping answers', async () => {
      await store.ping();
    });
  });
}
