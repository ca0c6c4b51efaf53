import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { EngineConnection } from './engine-connection';
import { withInstanceThreads } from './engine-threads';

/** Every extension an engine instance may load; they come from the tools folder, never from the network. */
export const engineExtensions = ['ducklake', 'httpfs', 'sqlite_scanner', 'postgres_scanner'] as const;

export interface InstanceOptions {
  extensionDir: string;
  memoryLimit?: string;
  threads?: number;
  /** Spill directory; DuckDB silently adds it to allowed_directories, so each tenant needs its own. */
  tempDirectory?: string;
  /** Niceness of DuckDB's worker threads (see engine-threads.ts); 0 leaves them at the service's priority. */
  threadNice?: number;
  extensions?: readonly string[];
}

/** An in-memory DuckDB with autoinstall and autoload off and the pinned extensions loaded. */
export async function createDuckDBInstance(options: InstanceOptions): Promise<DuckDBInstance> {
  const extensions = options.extensions ?? engineExtensions;
  await verifyExtensionsOnce(options.extensionDir, extensions);
  const settings: Record<string, string> = {
    extension_directory: options.extensionDir,
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    // Hashing a 40 MB extension to check its signature costs 100 to 300 ms, for every instance. The
    // files were checked once in this process (verifyExtensionsOnce) and nothing run on an instance
    // can load an extension (LOAD is refused, autoload is off, the configuration is locked).
    allow_unsigned_extensions: 'true',
    // Statements are executed by DuckDB's own threads only (see pending-statement.ts), which by default
    // run a task until its pipeline ends: one long query would keep every other statement of the
    // instance from starting. Partial tasks are rescheduled, so the statements take turns.
    scheduler_process_partial: 'true',
    // No caller thread ever executes tasks (see pending-statement.ts): all `threads` are DuckDB's own.
    external_threads: '0',
  };
  if (options.memoryLimit) settings.memory_limit = options.memoryLimit;
  if (options.threads) settings.threads = String(options.threads);
  if (options.tempDirectory) settings.temp_directory = options.tempDirectory;

  const { created: instance, threads } = await withInstanceThreads(() => DuckDBInstance.create(':memory:', settings), options.threadNice ?? 0);
  startedThreads.set(instance, threads);
  const connection = new EngineConnection(await instance.connect());
  try {
    // Timestamps without an offset mean UTC, whatever the host's time zone; connections opened later inherit it.
    // A lake file is never rewritten in place (a new version is a new file), so its Parquet footer is
    // read and decoded once per instance: every statement over a file binds it again when it starts
    // (DuckDB keeps no plan of a file scan), which read the footer anew each time, 0.4 of the 0.8 ms
    // a reference to TPC-H's lineitem took to start.
    await connection.configure(
      ["SET GLOBAL TimeZone = 'UTC'", 'SET GLOBAL parquet_metadata_cache = true', ...extensions.map((name) => `LOAD ${name}`)].join('; '),
    );
  } catch (error) {
    connection.closeSync();
    instance.closeSync();
    throw error;
  }
  connection.closeSync();
  return instance;
}

const startedThreads = new WeakMap<DuckDBInstance, readonly number[]>();

/** The worker threads an instance made by createDuckDBInstance started (none known outside Linux). */
export function threadsOf(instance: DuckDBInstance): readonly number[] {
  return startedThreads.get(instance) ?? [];
}

const verified = new Map<string, Promise<void>>();

/**
 * Loads each extension file once per process with DuckDB's signature check on, before any instance
 * loads it without: a missing, tampered or mismatched file stops the engine here.
 */
function verifyExtensionsOnce(extensionDir: string, extensions: readonly string[]): Promise<void> {
  const key = `${extensionDir}\n${[...extensions].sort().join(',')}`;
  let check = verified.get(key);
  if (!check) {
    check = verifyExtensions(extensionDir, extensions);
    verified.set(key, check);
    check.catch(() => verified.delete(key));
  }
  return check;
}

async function verifyExtensions(extensionDir: string, extensions: readonly string[]): Promise<void> {
  const instance = await DuckDBInstance.create(':memory:', {
    extension_directory: extensionDir,
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    threads: '1',
  });
  const connection = await instance.connect();
  try {
    const version = (await connection.runAndReadAll('SELECT library_version FROM pragma_version()')).getRows()[0]?.[0];
    for (const name of extensions) {
      const file = join(extensionDir, String(version), platformDir(), `${name}.duckdb_extension`);
      if (!existsSync(file)) {
        throw new Error(`DuckDB extension ${name} for ${version} is missing (${file}); run npm start or npm test once to install the toolchain`);
      }
      await connection.run(`LOAD ${name}`);
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

function platformDir(): string {
  return process.arch === 'arm64' ? 'linux_arm64' : 'linux_amd64';
}
