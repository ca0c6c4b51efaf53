/** Parameters of every prune query: what ended before `cutoff` can no longer matter. */
export type PruneParams = { now: string; cutoff: string; cutoff_ms: number };

/** How long ended rows stay before the hourly sweep removes them. */
export const pruneGraceMs = 24 * 3_600_000;
