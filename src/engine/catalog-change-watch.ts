import { statSync } from 'node:fs';

/**
 * How long after a file's last change its modification time is trusted to tell a later change apart.
 * The kernel stamps files from a coarse clock (one scheduler tick, 10 ms at most), so a write in the
 * same tick as the previous one can leave the time as it was; once the clock has moved past that tick
 * the next write necessarily gets a later time. Five ticks leave room for the coarse clock's lag.
 */
const settleMs = 50;
/** A signature is trusted this long at most before the catalog is read again whatever it says. */
const revalidateMs = 1_000;

/** What the catalog's files looked like at one moment, and whether that is enough to detect the next change. */
export interface CatalogObservation {
  signature: string;
  /** False while the files changed too recently for a later change to be sure to alter the signature. */
  settled: boolean;
  observedAt: number;
}

/**
 * Tells, without reading it, that an embedded (SQLite) catalog has not changed since an earlier look:
 * every commit writes the catalog's write-ahead log (or, without one, the file itself), which moves
 * the file's size or modification time, whichever process commits. Reading the current snapshot
 * through DuckDB's SQLite scanner costs a millisecond or more per query; a stat costs microseconds.
 * A Postgres catalog is read through its own driver, which is fast enough: it has no watch.
 */
export class CatalogChangeWatch {
  private readonly files: string[];

  constructor(catalogFile: string) {
    this.files = [catalogFile, `${catalogFile}-wal`, `${catalogFile}-journal`];
  }

  observe(now = Date.now()): CatalogObservation {
    let newest = 0;
    const parts: string[] = [];
    for (const file of this.files) {
      const stat = statSync(file, { bigint: true, throwIfNoEntry: false });
      if (!stat) {
        parts.push('-');
        continue;
      }
      parts.push(`${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`);
      newest = Math.max(newest, Number(stat.mtimeNs / 1_000_000n), Number(stat.ctimeNs / 1_000_000n));
    }
    return { signature: parts.join('|'), settled: now - newest >= settleMs, observedAt: now };
  }

  /**
   * Whether the catalog is unchanged since `earlier`, which was taken before the catalog was read:
   * only a settled observation, and a recent one, vouches for it.
   */
  static unchanged(earlier: CatalogObservation | undefined, now: CatalogObservation): boolean {
    return earlier !== undefined && earlier.settled && earlier.signature === now.signature && now.observedAt - earlier.observedAt < revalidateMs;
  }
}
