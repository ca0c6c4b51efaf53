import { isCatalogLocked } from './duckdb/duckdb-error';

/**
 * Runs a catalog commit again, from a fresh transaction, when another commit to the same catalog got
 * in the way (a DuckLake conflict, or an embedded catalog's lock; or whatever else `retryable` names),
 * backing off a little more each time; any other failure, or the last attempt's, is thrown.
 */
export async function retriedWhileCatalogLocked<T>(
  step: () => Promise<T>,
  attempts: number,
  retryable: (error: unknown) => boolean = isCatalogLocked,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (!retryable(error) || attempt === attempts) throw error;
      await Bun.sleep(50 * 2 ** attempt + Math.random() * 100);
    }
  }
}
