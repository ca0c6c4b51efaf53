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
