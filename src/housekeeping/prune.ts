/** Parameters of every prune query: what ended before `cutoff` can no longer matter (or what is older than its own retention, counted back from `now_ms`). */
export type PruneParams = { now: string; now_ms: number; cutoff: string; cutoff_ms: number };

/** How long ended rows stay before the hourly sweep removes them. */
export const pruneGraceMs = 24 * 3_600_000;
