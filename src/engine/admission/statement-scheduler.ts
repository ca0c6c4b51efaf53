import { AppError } from '../../errors/app-error';

/** What one statement asks of the scheduler. */
export interface Admission {
  /** Statements of the workspace that may run at once (its plan's). */
  limit: number;
  /** `performance.now()` time after which a statement still waiting is refused as timed out. */
  deadline?: number;
}

export interface SchedulerLimits {
  /** Statements running at once in this process, over every workspace. */
  running: number;
  /** Statements waiting in this process, over every workspace. */
  queued: number;
  /** Statements one workspace may have waiting. */
  queuedPerWorkspace: number;
}

/** A granted slot; released when the statement's connection is free again (an abandoned one, later). */
export interface Ticket {
  release(): void;
}

interface Waiter {
  limit: number;
  grant: (ticket: Ticket) => void;
  refuse: (error: AppError) => void;
  timer: Timer | undefined;
}

interface WorkspaceLine {
  running: number;
  waiting: Waiter[];
}

export interface SchedulerLoad {
  running: number;
  queued: number;
}

/**
 * Admission of engine statements in one process: a bounded number run at once, each workspace at most
 * its plan's number, and waiting statements are served across workspaces in turn (round robin), so a
 * workspace with a hundred queued statements delays another workspace's next one by at most one
 * statement. Queues are bounded: past them the answer is an error at once, never an unbounded pile.
 */
export class StatementScheduler {
  private running = 0;
  private queued = 0;
  private readonly lines = new Map<string, WorkspaceLine>();
  /** Workspaces with waiting statements, in the order they are next served. */
  private readonly turns: string[] = [];

  constructor(private readonly limits: SchedulerLimits) {}

  admit(workspaceId: string, admission: Admission): Promise<Ticket> {
    const line = this.lineOf(workspaceId);
    if (line.waiting.length === 0 && line.running < admission.limit && this.running < this.limits.running) {
      return Promise.resolve(this.grant(workspaceId, line));
    }
    if (line.waiting.length >= this.limits.queuedPerWorkspace) {
      this.forgetIfIdle(workspaceId, line);
      return Promise.reject(busyWorkspace(admission.limit, line.waiting.length));
    }
    if (this.queued >= this.limits.queued) {
      this.forgetIfIdle(workspaceId, line);
      return Promise.reject(busyProcess());
    }
    return new Promise<Ticket>((resolve, reject) => {
      const waiter: Waiter = { limit: admission.limit, grant: resolve, refuse: reject, timer: undefined };
      if (admission.deadline !== undefined) {
        waiter.timer = setTimeout(() => this.expire(workspaceId, waiter), Math.max(0, admission.deadline - performance.now()));
      }
      line.waiting.push(waiter);
      this.queued += 1;
      if (!this.turns.includes(workspaceId)) this.turns.push(workspaceId);
    });
  }

  /** The workspace's plan changed: its waiting statements take the new limit (and start now if it is higher). */
  limitChanged(workspaceId: string, limit: number): void {
    const line = this.lines.get(workspaceId);
    if (!line) return;
    for (const waiter of line.waiting) waiter.limit = limit;
    this.dispatch();
  }

  get load(): SchedulerLoad {
    return { running: this.running, queued: this.queued };
  }

  private grant(workspaceId: string, line: WorkspaceLine): Ticket {
    line.running += 1;
    this.running += 1;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        line.running -= 1;
        this.running -= 1;
        this.forgetIfIdle(workspaceId, line);
        this.dispatch();
      },
    };
  }

  /** Hands free slots to waiting statements, one workspace's turn at a time. */
  private dispatch(): void {
    let index = 0;
    while (this.running < this.limits.running && index < this.turns.length) {
      const workspaceId = this.turns[index]!;
      const line = this.lines.get(workspaceId)!;
      const next = line.waiting[0];
      if (!next || line.running >= next.limit) {
        index += 1;
        continue;
      }
      line.waiting.shift();
      this.queued -= 1;
      clearTimeout(next.timer);
      // Served: to the back of the turns if it still waits for more, so every other workspace goes first.
      this.turns.splice(index, 1);
      if (line.waiting.length > 0) this.turns.push(workspaceId);
      next.grant(this.grant(workspaceId, line));
    }
  }

  private expire(workspaceId: string, waiter: Waiter): void {
    const line = this.lines.get(workspaceId);
    const position = line?.waiting.indexOf(waiter) ?? -1;
    if (!line || position < 0) return;
    line.waiting.splice(position, 1);
    this.queued -= 1;
    if (line.waiting.length === 0) this.turns.splice(this.turns.indexOf(workspaceId), 1);
    this.forgetIfIdle(workspaceId, line);
    waiter.refuse(
      new AppError('QUERY_TIMEOUT', 'The query waited for a free slot until its time limit and was not started', {
        hint: 'The workspace runs as many statements at once as its plan allows. Wait for running queries to finish, or run long ones as jobs.',
        advice: 'run-as-job',
      }),
    );
  }

  private lineOf(workspaceId: string): WorkspaceLine {
    let line = this.lines.get(workspaceId);
    if (!line) {
      line = { running: 0, waiting: [] };
      this.lines.set(workspaceId, line);
    }
    return line;
  }

  private forgetIfIdle(workspaceId: string, line: WorkspaceLine): void {
    if (line.running === 0 && line.waiting.length === 0) this.lines.delete(workspaceId);
  }
}

function busyWorkspace(limit: number, waiting: number): AppError {
  return new AppError('CONCURRENCY_LIMITED', `The workspace already runs ${limit} statements at once and has ${waiting} waiting`, {
    hint: 'Retry when a running query has finished, or run long queries as jobs. Higher plans run more at once.',
    advice: 'run-as-job',
    headers: { 'retry-after': '1' },
  });
}

function busyProcess(): AppError {
  return new AppError('ENGINE_BUSY', 'The query engine is at capacity', { hint: 'Retry in a moment.', headers: { 'retry-after': '1' } });
}
