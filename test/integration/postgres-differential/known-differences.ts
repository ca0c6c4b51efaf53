import type { Difference } from './compare';

/**
 * The suite's queries whose answers differ from Postgres', each with how and why; the dialect's
 * README lists the same differences. A query here must differ exactly so.
 */
export const knownDifferences: Readonly<Record<string, { differs: readonly Difference[]; reason: string }>> = {};
