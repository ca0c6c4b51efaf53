/**
 * DuckDB reports every error as text that starts with its exception type ("Binder Error: …"); the
 * Node bindings pass on that text and nothing else. This is the one place that reads the type from
 * it, so the rest of the engine decides by the type, never by matching messages.
 */
const exceptionTypes = [
  'Binder',
  'Catalog',
  'Constraint',
  'Conversion',
  'Dependency',
  'FATAL',
  'HTTP',
  'INTERNAL',
  'INTERRUPT',
  'IO',
  'Invalid',
  'Invalid Input',
  'Not implemented',
  'Out of Memory',
  'Out of Range',
  'Parser',
  'Permission',
  'TransactionContext',
] as const;

export type DuckDBErrorType = (typeof exceptionTypes)[number] | 'Other';

export interface DuckDBErrorInfo {
  type: DuckDBErrorType;
  /** The message without its type prefix. */
  detail: string;
  /** DuckDB's whole message. */
  message: string;
}

const knownTypes = new Set<string>(exceptionTypes);
const prefix = /^([A-Za-z][A-Za-z ]*?) Error: /;

/** DuckDB's error type and message, or undefined for anything that is not an error DuckDB raised. */
export function duckdbErrorOf(error: unknown): DuckDBErrorInfo | undefined {
  if (!(error instanceof Error)) return undefined;
  const match = prefix.exec(error.message);
  if (!match) return undefined;
  const type = knownTypes.has(match[1]!) ? (match[1] as DuckDBErrorType) : 'Other';
  return { type, detail: error.message.slice(match[0].length), message: error.message };
}

/**
 * Another writer committed to the catalog first: DuckLake's own conflict check, or, on an embedded
 * SQLite catalog, the database's lock. Either way the write can be tried again from a fresh read.
 */
export function isCommitConflict(error: unknown): boolean {
  const info = duckdbErrorOf(error);
  return info?.type === 'TransactionContext' && /conflict|database is locked/i.test(info.detail);
}

/**
 * A write to the catalog outside a commit (DuckLake's `set_option`) found an embedded SQLite catalog
 * locked by another writer's commit: it can be tried again a moment later.
 */
export function isCatalogLocked(error: unknown): boolean {
  const info = duckdbErrorOf(error);
  return isCommitConflict(error) || (info?.type === 'Invalid' && /database is locked/i.test(info.detail));
}

/**
 * Attaching a catalog that did not exist yet failed while DuckLake was creating its tables: another
 * instance (the workspace's other lane, another process) was creating them at the same moment. The
 * attach finds them made when it is tried again.
 */
export function isCatalogInitializationRace(error: unknown): boolean {
  const info = duckdbErrorOf(error);
  return info?.type === 'Invalid' && /^Failed to initialize DuckLake/i.test(info.detail);
}

/** DuckDB's own failure (an internal error): the instance is no longer to be trusted and is replaced. */
export function isEngineFailure(error: unknown): boolean {
  const type = duckdbErrorOf(error)?.type;
  return type === 'INTERNAL' || type === 'FATAL';
}

/** A ROLLBACK with nothing to roll back: a failed or interrupted statement had ended the transaction. */
export function isNoActiveTransaction(error: unknown): boolean {
  const info = duckdbErrorOf(error);
  return info?.type === 'TransactionContext' && /no transaction is active/i.test(info.detail);
}
