/**
 * The object storage under the lakehouse (a local directory or an S3 bucket), for what DuckDB does not
 * do itself: reachability checks, listing and purging a workspace's files.
 */
export interface LakeStorage {
  /** `file:///…/` or `s3://bucket/prefix/`, always ending in a slash; DuckLake's DATA_PATH for a key prefix is `${root}${prefix}`. */
  readonly rootUrl: string;
  ping(): Promise<void>;
  /** Keys (relative to the root) of every object under a prefix. */
  list(prefix: string): Promise<string[]>;
  /** Removes every object under a prefix; returns how many. */
  deletePrefix(prefix: string): Promise<number>;
  /** Removes one object, if it exists. */
  delete(key: string): Promise<void>;
  /** How DuckDB names the object: a path for a local lake, an s3:// URL otherwise. */
  locationOf(key: string): string;
  /** Makes sure DuckDB can create the object (a local folder must exist; S3 needs nothing). */
  prepareFor(key: string): Promise<void>;
  close(): void;
}

/** Workspace prefixes and similar keys: no empty segments, no `.`/`..`, no leading slash. */
export function assertSafePrefix(prefix: string): void {
  const segments = prefix.replace(/\/$/, '').split('/');
  if (prefix.startsWith('/') || segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    throw new Error(`unsafe lake storage prefix "${prefix}"`);
  }
}
