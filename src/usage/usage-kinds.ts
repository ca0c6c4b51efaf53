/**
 * Usage kinds that are the engine time of the service's own durable work (a connection's sync, a
 * transform's run) rather than a query somebody sent. Every other kind, those of today (execute,
 * query, job, saved_query, chart) and any added later, is a query: it counts towards the plan's
 * included queries and its overage, whatever path ran it.
 */
const engineWorkKinds: ReadonlySet<string> = new Set(['sync', 'transform']);

export function isQueryKind(kind: string): boolean {
  return !engineWorkKinds.has(kind);
}

/** The SQL list of the engine-work kinds, for queries that count queries in the store. */
export const engineWorkKindList = [...engineWorkKinds].map((kind) => `'${kind}'`).join(', ');
