/** What a statement stopped by its caller had done by then: the usage it is billed for. */
export interface RanSoFar {
  elapsedMs: number;
  cpuMs: number;
  /** The estimate's share that the statement's progress says it read. */
  bytesScanned: number;
  estimatedBytes: number;
  translatedSql: string | null;
}

/**
 * A statement interrupted because its caller aborted it (a cancelled job), not because it failed:
 * it carries what ran, so the caller records the usage of that much.
 */
export class QueryCancelled extends Error {
  constructor(readonly ran: RanSoFar) {
    super('The query was cancelled');
    this.name = 'QueryCancelled';
  }
}

/** A statement its caller stopped, before the time and the estimate it ran with are known (see QueryRunner). */
export class StatementCancelled extends Error {
  constructor(
    readonly cpuMs: number,
    /** The share of its work its progress said it had done. */
    readonly fraction: number,
  ) {
    super('cancelled');
    this.name = 'StatementCancelled';
  }

  measured(elapsedMs: number, estimatedBytes: number, translatedSql: string | null): QueryCancelled {
    return new QueryCancelled({ elapsedMs, cpuMs: this.cpuMs, bytesScanned: Math.round(estimatedBytes * this.fraction), estimatedBytes, translatedSql });
  }
}
