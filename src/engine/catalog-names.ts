/** The name every workspace instance attaches its DuckLake catalog under. */
export const lakeAlias = 'lake';

/** The read connections' default catalog: the instance's own empty in-memory database. */
export const readDefaultCatalog = 'memory';
