import { threadCpuNanos } from './engine-threads';

/**
 * The CPU time of the statements of one DuckDB instance, from its own threads' run time as the kernel
 * counts it: what a statement's profile would report, without the profiler's cost (timing every
 * operator on every chunk: about 5 % of a TPC-H query). Between two starts or ends of statements, the
 * instance's threads ran the statements running then, so each is credited an equal share of that
 * stretch; a statement that ran alone is credited exactly what the threads ran.
 */
export class InstanceCpuTime {
  private readonly credited = new Map<symbol, number>();
  private lastTotal: number;

  private constructor(private readonly threads: readonly number[]) {
    this.lastTotal = this.total();
  }

  /** Undefined where the instance's threads are not known (outside Linux): statements are profiled then. */
  static of(threads: readonly number[]): InstanceCpuTime | undefined {
    return threads.length > 0 ? new InstanceCpuTime(threads) : undefined;
  }

  /** Starts counting a statement; the returned function ends it and gives its CPU time in milliseconds. */
  start(): () => number {
    this.share();
    const statement = Symbol('statement');
    this.credited.set(statement, 0);
    return () => {
      this.share();
      const nanos = this.credited.get(statement) ?? 0;
      this.credited.delete(statement);
      return Math.round(nanos / 1e6);
    };
  }

  private share(): void {
    const total = this.total();
    // Never negative, even if a thread has ended since the last look.
    const ran = Math.max(0, total - this.lastTotal);
    this.lastTotal = total;
    if (this.credited.size === 0) return;
    const each = ran / this.credited.size;
    for (const [statement, nanos] of this.credited) this.credited.set(statement, nanos + each);
  }

  private total(): number {
    let nanos = 0;
    for (const tid of this.threads) nanos += threadCpuNanos(tid);
    return nanos;
  }
}
