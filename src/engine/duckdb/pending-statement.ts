import duckdb from '@duckdb/node-bindings';
import type { DuckDBConnection, DuckDBPendingResult } from '@duckdb/node-api';

/**
 * Why statements are driven this way: Bun runs every asynchronous N-API call (DuckDB's `run`,
 * `execute_pending`, chunk fetches) and `Bun.password` hashing on one work pool with as many threads
 * as cores, and a DuckDB call holds its thread until the statement ends. Two long statements took
 * every thread, and sign-up, login and every other tenant's query waited for them. A pending result
 * is executed by DuckDB's own threads; this loop only asks DuckDB how far it is (a short synchronous
 * call that does no work) and sleeps in between, so no thread of the shared pool is held while a
 * statement runs, however long it runs.
 */

/** What the wait for a statement watches besides the statement itself. */
export interface StatementWatch {
  /** `performance.now()` time at which the statement is interrupted. */
  deadline?: number;
  /** Aborting interrupts the statement (a cancelled job). */
  signal?: AbortSignal;
}

/** How long an interrupted statement may take to stop before its caller stops waiting for it. */
export const abandonAfterMs = 500;
/** Interrupts repeat this often: one that lands between two steps of DuckDB's executor is forgotten. */
const interruptEveryMs = 100;
/** The longest pause between two looks at a running statement; also the most its end is noticed late. */
const maxPauseMs = 5;
/**
 * How long a new statement is looked at on every turn of the event loop before the pauses begin. A
 * `SELECT 1` or an indexed catalog read ends within a tenth of a millisecond while DuckDB's threads
 * are awake (after a pause they take about a millisecond to start, and the first pause's look finds
 * it done); looking on every turn keeps the event loop's thread busy, which takes a core from DuckDB's
 * threads (niceness 10) while a longer statement has just started: a millisecond of it cost each
 * TPC-H query a millisecond of CPU.
 */
const youngMs = 0.25;
/** An abandoned statement is looked at this often until it has stopped. */
const drainPauseMs = 100;

/**
 * The statement outlived its interrupt (a single call DuckDB cannot break off, such as a function
 * building a gigabyte string): its caller has stopped waiting. `stopped` resolves once DuckDB has
 * finished with it; until then its connection must not run anything else.
 */
export class StatementAbandoned extends Error {
  constructor(readonly stopped: Promise<void>) {
    super('The statement did not stop when interrupted and was abandoned');
    this.name = 'StatementAbandoned';
  }
}

/** A statement DuckDB refused or failed, with DuckDB's own message. */
export class DuckDBStatementError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DuckDBStatementError';
  }
}

type PendingState = 'running' | 'finished' | { error: string };

/** node-api keeps the C handle in a field it declares private; the wait needs it to ask for the state. */
function handleOf(pending: DuckDBPendingResult): duckdb.PendingResult {
  return (pending as unknown as { pending_result: duckdb.PendingResult }).pending_result;
}

function stateOf(pending: DuckDBPendingResult): PendingState {
  const handle = handleOf(pending);
  switch (duckdb.pending_execute_check_state(handle)) {
    case duckdb.PendingState.RESULT_READY:
      return 'finished';
    case duckdb.PendingState.RESULT_NOT_READY:
    case duckdb.PendingState.NO_TASKS_AVAILABLE:
      return 'running';
    default: {
      // The C API reports an execution that has finished as an error without a message.
      const message = duckdb.pending_error(handle);
      return message ? { error: message } : 'finished';
    }
  }
}

/**
 * No pause while a statement is young (most end within a tenth of a millisecond), then pauses that
 * grow as it ages: past the timer's floor of a millisecond, a pause is at most a two-hundredth of
 * the time the statement has run, so noticing its end late adds half a percent to it at most (a
 * fortieth cost an analytical query of 50 to 200 ms about 1 %), and a look costs microseconds.
 */
function pause(elapsedMs: number): Promise<void> {
  if (elapsedMs < youngMs) return new Promise((resolve) => setImmediate(resolve));
  return Bun.sleep(Math.min(maxPauseMs, Math.max(1, elapsedMs / 200)));
}

/**
 * Waits until DuckDB has executed the pending statement, interrupting it at the deadline or on abort.
 * Throws DuckDB's error, or StatementAbandoned when an interrupted statement does not stop in time.
 */
export async function awaitPending(connection: DuckDBConnection, pending: DuckDBPendingResult, watch: StatementWatch = {}): Promise<void> {
  const startedAt = performance.now();
  let firstInterruptAt: number | undefined;
  let lastInterruptAt = 0;
  for (;;) {
    const state = stateOf(pending);
    if (state === 'finished') return;
    if (state !== 'running') throw new DuckDBStatementError(state.error);
    const now = performance.now();
    if (shouldStop(watch, now)) {
      if (firstInterruptAt !== undefined && now - firstInterruptAt >= abandonAfterMs) {
        throw new StatementAbandoned(drain(connection, pending));
      }
      if (now - lastInterruptAt >= interruptEveryMs) {
        connection.interrupt();
        lastInterruptAt = now;
        firstInterruptAt ??= now;
      }
    }
    await pause(now - startedAt);
  }
}

function shouldStop(watch: StatementWatch, now: number): boolean {
  return (watch.deadline !== undefined && now >= watch.deadline) || watch.signal?.aborted === true;
}

/** Keeps interrupting an abandoned statement until DuckDB lets go of it. */
async function drain(connection: DuckDBConnection, pending: DuckDBPendingResult): Promise<void> {
  while (stateOf(pending) === 'running') {
    connection.interrupt();
    await Bun.sleep(drainPauseMs);
  }
}
