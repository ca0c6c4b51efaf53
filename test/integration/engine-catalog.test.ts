import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { DuckDBInstance } from '@duckdb/node-api';
import { backends, createTestBackend, type TestBackend } from '../support/backends';
import { createDuckDBInstance } from '../../src/engine/duckdb/create-instance';
import { attachCatalog } from '../../src/engine/attach-catalog';
import { catalogStoreFor, workspaceDataPrefix, type CatalogLocation } from '../../src/engine/catalog-attachment';
import { openLakeStorage } from '../../src/lake-storage/open-lake-storage';
import { EngineConnection } from '../../src/engine/duckdb/engine-connection';

const toolchain = (await Bun.file(new URL('../../toolchain.json', import.meta.url)).json()) as { duckdb: string };

for (const backend of backends) {
  describe(`DuckLake catalog on ${backend}`, () => {
    let env: TestBackend;
    let location: CatalogLocation;
    const instances: DuckDBInstance[] = [];

    const openEngine = async () => {
      const instance = await createDuckDBInstance({ extensionDir: env.config.duckdb.extensionDir });
      instances.push(instance);
      const connection = new EngineConnection(await instance.connect());
      await attachCatalog(connection, location, 'lake');
      return connection;
    };

    beforeAll(async () => {
      env = await createTestBackend(backend);
      location = { workspaceId: Bun.randomUUIDv7(), catalog: catalogStoreFor(env.config.metadata, env.config.dataDir), lake: env.config.lake };
    });
    afterAll(async () => {
      for (const instance of instances) instance.closeSync();
      await env.cleanup();
    });

    test('instances opening a new catalog at the same moment all attach it, whichever creates its tables', async () => {
      const fresh = { ...location, workspaceId: Bun.randomUUIDv7() };
      const opened = await Promise.all(
        Array.from({ length: 4 }, async () => {
          const instance = await createDuckDBInstance({ extensionDir: env.config.duckdb.extensionDir });
          instances.push(instance);
          const connection = new EngineConnection(await instance.connect());
          await attachCatalog(connection, fresh, 'lake');
          return connection;
        }),
      );
      for (const connection of opened) {
        expect((await connection.read("SELECT count(*) FROM duckdb_databases() WHERE database_name = 'lake'")).scalar()).toBe(1n);
      }
    });

    test('the engine runs the pinned DuckDB with the extensions from the tools folder, autoload off', async () => {
      const instance = await createDuckDBInstance({ extensionDir: env.config.duckdb.extensionDir });
      instances.push(instance);
      const connection = new EngineConnection(await instance.connect());
      const version = (await connection.read('SELECT library_version FROM pragma_version()')).getRows()[0]?.[0];
      expect(version).toBe(`v${toolchain.duckdb}`);
      const settings = await connection.read(
        "SELECT name, value FROM duckdb_settings() WHERE name IN ('autoinstall_known_extensions', 'autoload_known_extensions') ORDER BY name",
      );
      expect(settings.getRows()).toEqual([
        ['autoinstall_known_extensions', 'false'],
        ['autoload_known_extensions', 'false'],
      ]);
      const loaded = await connection.read("SELECT extension_name FROM duckdb_extensions() WHERE loaded AND install_mode <> 'STATICALLY_LINKED' ORDER BY 1");
      expect(loaded.getRows().flat()).toEqual(['ducklake', 'httpfs', 'postgres_scanner', 'sqlite_scanner']);
    });

    test('a table written through one attachment is read back through another; its files are under the workspace prefix', async () => {
      const writer = await openEngine();
      await writer.run('CREATE SCHEMA IF NOT EXISTS lake.raw');
      await writer.run("CREATE TABLE lake.raw.events AS SELECT range AS id, 'event ' || range AS label FROM range(1000)");
      await writer.run("INSERT INTO lake.raw.events VALUES (1000, 'late')");
      writer.closeSync();

      const reader = await openEngine();
      const rows = (await reader.read('SELECT count(*)::INTEGER, max(id)::INTEGER, max(label) FROM lake.raw.events')).getRows();
      expect(rows).toEqual([[1001, 1000, 'late']]);
      reader.closeSync();

      // The data files land under the workspace's own prefix of the lake storage.
      const storage = openLakeStorage(env.config.lake);
      const files = await storage.list(workspaceDataPrefix(location.workspaceId));
      storage.close();
      expect(files.some((file) => file.startsWith(workspaceDataPrefix(location.workspaceId)) && file.endsWith('.parquet'))).toBe(true);
    });
  });
}
