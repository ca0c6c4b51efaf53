import type { Logger } from '../logging/logger';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { UsageRecorder } from './usage-recorder';
import type { UsageEntry } from './usage-entry';

export interface UsageBatchOptions {
  /** How long a record waits for the records of the queries after it, to be written together. */
  delayMs: number;
  /** After a failed write, the records are tried again this much later. */
  retryMs: number;
  /** The most records kept waiting (a metadata store down for long); past it the oldest are dropped, and logged. */
  maxWaiting: number;
}

export const defaultUsageBatchOptions: UsageBatchOptions = { delayMs: 20, retryMs: 1_000, maxWaiting: 100_000 };

/**
 * The usage records of answered queries, written off the request path. An answer does not wait for
 * its record (two to four round trips to the metadata store): the record is written a few
 * milliseconds later, in one transaction with the records of the queries answered meanwhile. Readers
 * of usage call written() first, so in this process a report counts every query answered before
 * it. A process that dies loses the records of its last milliseconds, as it loses the queries
 * running at that moment; a store that fails a write gets the same records again a second later.
 */
export class UsageBatches {
  private waiting: UsageEntry[] = [];
  private timer: Timer | undefined;
  /** The write under way; the next one starts after it. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly recorder: UsageRecorder,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: UsageBatchOptions = defaultUsageBatchOptions,
  ) {}

  /** Queues the record of an answered query, stamped with the time now. */
  add(entry: UsageEntry): void {
    this.waiting.push({ ...entry, recordedAt: entry.recordedAt ?? this.clock.now() });
    const excess = this.waiting.length - this.options.maxWaiting;
    if (excess > 0) {
      this.waiting.splice(0, excess);
      this.logger.error('usage records dropped: the metadata store has not taken them', { dropped: excess, waiting: this.waiting.length });
    }
    this.writeIn(this.options.delayMs);
  }

  /** Resolves once every record queued before the call has been written, or its write has failed and waits to be tried again. */
  written(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    return this.write();
  }

  private writeIn(ms: number): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.write();
    }, ms);
    // Records waiting never keep a process alive by themselves: shutting down writes them (written()).
    this.timer.unref();
  }

  private write(): Promise<void> {
    this.writing = this.writing.then(() => this.writeWaiting());
    return this.writing;
  }

  private async writeWaiting(): Promise<void> {
    const batch = this.waiting;
    if (batch.length === 0) return;
    this.waiting = [];
    try {
      await this.store.transaction((tx) => this.recorder.recordAll(batch, tx));
    } catch (error) {
      this.waiting = [...batch, ...this.waiting];
      this.logger.error('usage records not written; trying again', { records: batch.length, retry_ms: this.options.retryMs, error });
      this.writeIn(this.options.retryMs);
    }
  }
}
