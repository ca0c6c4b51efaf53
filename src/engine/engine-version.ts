import { version } from '@duckdb/node-api';

/** The DuckDB library this process runs (`v1.5.5`), for the build information of the metrics. */
export function engineVersion(): string {
  return version();
}
