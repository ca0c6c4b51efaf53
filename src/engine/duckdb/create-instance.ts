import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { EngineConnection } from './engine-connection';

/** The extensions every engine instance loads; they come from the tools folder, never from the network. */
export const engineExtensions = ['ducklake', 'httpfs', 'sqlite_scanner', 'postgres_scanner'] as const;

export interface InstanceOptions {
  extensionDir: string;
  memoryLimit?: string;
  threads?: number;
  /** Spill directory; DuckDB silently adds it to allowed_directories, so each tenant needs its own. */
  tempDirectory?: string;
  extensions?: readonly string[];
}

/** An in-memory DuckDB with autoinstall and autoload off and the pinned extensions loaded. */
export async function createDuckDBInstance(options: InstanceOptions): Promise<DuckDBInstance> {
  const settings: Record<string, string> = {
    extension_directory: options.extensionDir,
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    // Statements are executed by DuckDB's own threads only (see pending-statement.ts), which by default
    // run a task until its pipeline ends: one long query would keep every other statement of the
    // instance from starting. Partial tasks are rescheduled, so the statements take turns.
    scheduler_process_partial: 'true',
  };
  if (options.memoryLimit) settings.memory_limit = options.memoryLimit;
  if (options.threads) settings.threads = String(options.threads);
  if (options.tempDirectory) settings.temp_directory = options.tempDirectory;

  const instance = await DuckDBInstance.create(':memory:', settings);
  const connection = new EngineConnection(await instance.connect());
  try {
    const version = (await connection.read('SELECT library_version FROM pragma_version()')).scalar();
    for (const name of options.extensions ?? engineExtensions) {
      const file = join(options.extensionDir, String(version), platformDir(), `${name}.duckdb_extension`);
      if (!existsSync(file)) {
        throw new Error(`DuckDB extension ${name} for ${version} is missing (${file}); run npm start or npm test once to install the toolchain`);
      }
      await connection.run(`LOAD ${name}`);
    }
  } catch (error) {
    connection.closeSync();
    instance.closeSync();
    throw error;
  }
  connection.closeSync();
  return instance;
}

function platformDir(): string {
  return process.arch === 'arm64' ? 'linux_arm64' : 'linux_amd64';
}
