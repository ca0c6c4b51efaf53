import type { MetadataConfig } from '../config';
import { PostgresStore } from './postgres-store';
import { SqliteStore } from './sqlite-store';
import type { Store } from './store';

export function openStore(config: MetadataConfig): Store {
  return config.kind === 'postgres' ? new PostgresStore(config.url, { maxConnections: config.maxConnections }) : new SqliteStore(config.path);
}
