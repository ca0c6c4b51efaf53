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
  /** How long the same statement took last time: its end is looked for closely around then. */
  expectedMs?: number;
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
 * Around the time a statement took last time, from this long before to `closeAfterMs` after, it is
 * looked at every `closeLookMs`: the runtime's timers wake no more often than every millisecond,
 * which noticed the end of a 30 ms query half a millisecond late on average.
 */
const closeBeforeMs = 1;
const closeAfterMs = 2;
const closeLookMs = 0.1;
/** What a close look waits on: nothing ever wakes it, so it sleeps its time out without using the CPU. */
const closeLookClock = new Int32Array(new SharedArrayBuffer(4));

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

/** How to wait before looking at a running statement again. */
export type NextLook = { kind: 'next-turn' } | { kind: 'sleep'; ms: number } | { kind: 'close' };

/**
 * No pause while a statement is young (most end within a tenth of a millisecond), then pauses that
 * grow as it ages: past the timer's floor of a millisecond, a pause is at most a two-hundredth of
 * the time the statement has run, so noticing its end late adds half a percent to it at most (a
 * fortieth cost an analytical query of 50 to 200 ms about 1 %), and a look costs microseconds.
 * Near the end a statement of known duration is expected, the looks are close together (see
 * closeLookMs), for three milliseconds at most; a pause before never sleeps past their start.
 */
export function nextLook(elapsedMs: number, expectedMs?: number): NextLook {
  if (elapsedMs < youngMs) return { kind: 'next-turn' };
  const timed = Math.min(maxPauseMs, Math.max(1, elapsedMs / 200));
  if (expectedMs === undefined || elapsedMs >= expectedMs + closeAfterMs) return { kind: 'sleep', ms: timed };
  const untilClose = expectedMs - closeBeforeMs - elapsedMs;
  if (untilClose > 0) return { kind: 'sleep', ms: Math.min(timed, Math.max(1, untilClose)) };
  return { kind: 'close' };
}

function pause(look: NextLook): Promise<void> {
  switch (look.kind) {
    case 'next-turn':
      return nextTurn();
    case 'sleep':
      return Bun.sleep(look.ms);
    case 'close':
      return closeLook();
    default:
      return look satisfies never;
  }
}

let pendingCloseLook: Promise<void> | undefined;

/**
 * A tenth of a millisecond slept by the event loop's thread outside the loop, at most once per turn
 * of the loop however many statements are near their end: other work goes on between two looks.
 */
function closeLook(): Promise<void> {
  pendingCloseLook ??= new Promise((resolve) =>
    setImmediate(() => {
      Atomics.wait(closeLookClock, 0, 0, closeLookMs);
      pendingCloseLook = undefined;
      resolve();
    }),
  );
  return pendingCloseLook;
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
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
    await pause(nextLook(now - startedAt, watch.expectedMs));
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
