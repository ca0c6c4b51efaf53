import type { EngineConnection } from '../duckdb/engine-connection';

/** How often a running job's progress is read; its activity's heartbeats carry the latest. */
const sampleEveryMs = 500;
/** A statement still running has not finished: 1 is for the end. */
const runningCeiling = 0.99;

/**
 * A running statement's progress, 0 to 1, read while it runs. DuckDB's own estimate where it has one
 * (the background lane tracks it: scans of lake tables report the rows they have read of their
 * total); where it has none (table functions such as `range` or `generate_series`), the share of the
 * statement's time limit used so far, so a long query still shows it is moving. Never goes back.
 */
export class ProgressSampler {
  private reported = 0;
  private readonly timer: Timer;
  private readonly startedAt = performance.now();

  constructor(
    private readonly connection: EngineConnection,
    private readonly timeoutMs: number,
    onProgress: (fraction: number) => void,
  ) {
    this.timer = setInterval(() => onProgress(this.sample()), sampleEveryMs);
  }

  /** The last fraction reported. */
  get fraction(): number {
    return this.reported;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private sample(): number {
    const percentage = this.connection.progressPercentage;
    const estimate = percentage >= 0 ? percentage / 100 : (performance.now() - this.startedAt) / this.timeoutMs;
    this.reported = Math.max(this.reported, Math.min(runningCeiling, estimate));
    return this.reported;
  }
}
