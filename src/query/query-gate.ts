import { AppError } from '../errors/app-error';
import type { Store, Transaction } from '../store/store';
import type { PlanRow } from '../plans/plan-queries';
import { workspacePlan } from '../plans/workspace-plan';
import { costOf } from '../plans/query-cost';
import type { Compiled, FileRunOptions, QueryColumn, QueryParameters, QueryRunner, RunOutcome } from '../engine/sql/query-runner';
import type { ResultSink } from '../engine/sql/result-sink';
import type { LakeTableRef } from '../engine/sql/check-query';
import { rateLimitHeaders, type RateLimiter, type RateLimitState } from './rate-limiter';
import type { UsageEntry, UsageRecorder, UsageSource } from './usage-recorder';
import type { UsageBatches } from './usage-batches';

/** Who runs a query, and under which kind its usage is recorded. */
export interface QueryCaller {
  userId: string | null;
  apiKeyId: string | null;
  kind: UsageSource;
}

export interface GatedQuery {
  workspaceId: string;
  sql: string;
  /** Run even when the estimate exceeds the plan's per-query scan limit (it is billed). */
  force: boolean;
  /** Values bound to the statement's `$name` markers (a saved query's parameters). */
  parameters?: QueryParameters;
}

export interface QueryLimits {
  timeoutMs: number;
  maxResultRows: number;
  maxResultBytes: number;
}

/** Tighter result caps for one kind of run (a chart's data is held in memory and drawn). */
export type ResultCaps = Pick<QueryLimits, 'maxResultRows' | 'maxResultBytes'>;

export interface MeteredOutcome {
  outcome: RunOutcome;
  costEur: number;
  plan: PlanRow;
}

/** How a metered query ended: what the caller records with its usage record, in one transaction. */
export type Settlement = ({ ok: true } & MeteredOutcome) | { ok: false; error: AppError; durationMs: number };

/**
 * Every guardrail around user SQL, for every path that runs it (queries, jobs, saved queries, charts,
 * transforms): the workspace's plan, its per-minute rate limit, the per-query scan limit unless
 * forced, the number of statements at once, the time limit, the result caps, the cost, and exactly one
 * usage record per counted query, whatever its outcome.
 */
export class QueryGate {
  constructor(
    private readonly store: Store,
    private readonly runner: QueryRunner,
    private readonly limiter: RateLimiter,
    private readonly usage: UsageRecorder,
    /** The records of queries answered now, written off the request path. */
    private readonly answered: UsageBatches,
    private readonly limits: QueryLimits,
    private readonly observe: (kind: UsageSource, outcome: string, bytesScanned: number) => void = () => {},
  ) {}

  plan(workspaceId: string): Promise<PlanRow> {
    return workspacePlan(this.store, workspaceId);
  }

  /**
   * A query answered now: counted, run into the sink under the plan's limits, its usage recorded
   * (right after the answer, see UsageBatches).
   */
  async run(caller: QueryCaller, query: GatedQuery, sink: ResultSink, options: { plan?: PlanRow; caps?: ResultCaps } = {}): Promise<MeteredOutcome & { rate: RateLimitState }> {
    const planRow = options.plan ?? (await this.plan(query.workspaceId));
    const rate = await this.limiter.consume(query.workspaceId, planRow);
    const startedAt = performance.now();
    const caps = options.caps ?? this.limits;
    let outcome: RunOutcome;
    try {
      outcome = await this.runner.run(query.workspaceId, query.sql, sink, {
        timeoutMs: this.limits.timeoutMs,
        maxRows: Math.min(caps.maxResultRows, this.limits.maxResultRows),
        maxBytes: Math.min(caps.maxResultBytes, this.limits.maxResultBytes),
        scanLimitBytes: query.force ? undefined : planRow.max_scan_bytes,
        concurrency: planRow.max_concurrent_queries,
        parameters: query.parameters,
      });
    } catch (error) {
      this.answered.add(failedUsage(caller, query, error, performance.now() - startedAt));
      this.observe(caller.kind, error instanceof AppError ? error.code : 'INTERNAL_ERROR', 0);
      if (error instanceof AppError) Object.assign(error.headers, rateLimitHeaders(rate));
      throw error;
    }
    const costEur = costOf(outcome.bytesScanned, planRow);
    this.answered.add(succeededUsage(caller, query, outcome, costEur));
    this.observe(caller.kind, 'succeeded', outcome.bytesScanned);
    return { outcome, costEur, plan: planRow, rate };
  }

  /**
   * What a query would scan and cost, without running it. An estimate compiles the query as a run
   * does (translation, parse, catalog statistics), so it takes a slot of the same per-minute limit;
   * it is neither run nor billed.
   */
  async estimate(query: GatedQuery, plan?: PlanRow): Promise<{ compiled: Compiled; costEur: number; plan: PlanRow; rate: RateLimitState }> {
    const planRow = plan ?? (await this.plan(query.workspaceId));
    const rate = await this.limiter.consume(query.workspaceId, planRow);
    try {
      const compiled = await this.runner.estimate(query.workspaceId, query.sql, { timeoutMs: this.limits.timeoutMs, concurrency: planRow.max_concurrent_queries });
      return { compiled, costEur: costOf(compiled.estimate.bytes, planRow), plan: planRow, rate };
    } catch (error) {
      if (error instanceof AppError) Object.assign(error.headers, rateLimitHeaders(rate));
      throw error;
    }
  }

  /**
   * The columns a query's result will have, checked and planned as a run would be (under the plan's
   * statements at once and the time limit) but not run: saving a chart or a saved query plans it.
   * Nothing runs and nothing is billed, so it takes no slot of the per-minute limit.
   */
  async describe(workspaceId: string, sql: string, parameters: Iterable<string> = []): Promise<QueryColumn[]> {
    const plan = await this.plan(workspaceId);
    const { columns } = await this.runner.describe(workspaceId, sql, { timeoutMs: this.limits.timeoutMs, concurrency: plan.max_concurrent_queries, parameters });
    return columns;
  }

  /** The workspace catalog's current snapshot (a new one after every write to its lake). */
  snapshot(workspaceId: string): Promise<number> {
    return this.runner.snapshot(workspaceId);
  }

  /** The newest snapshot, up to the given one, that changed one of the tables (what a result read). */
  tablesVersion(workspaceId: string, tables: readonly LakeTableRef[], snapshot: number): Promise<number> {
    return this.runner.tablesVersion(workspaceId, tables, snapshot);
  }

  /** The per-minute limit and how much of it the last minute used. */
  rateLimit(workspaceId: string): Promise<RateLimitState> {
    return this.limiter.peek(workspaceId);
  }

  /** Counts a query that runs later (a job) against the per-minute limit, in the caller's transaction. */
  admitWithin(tx: Transaction, workspaceId: string, plan: PlanRow): Promise<RateLimitState> {
    return this.limiter.consumeWithin(tx, workspaceId, plan);
  }

  /**
   * A query counted earlier, run now into a file under the plan's limits and the given time limit.
   * `settle` writes the caller's record of the outcome; the usage record lands in the same
   * transaction, so a process dying between the two cannot lose or double it. Errors of the query
   * itself are settled and returned; anything else (the service's own failures) is thrown to retry.
   */
  async runToFile(
    caller: QueryCaller & { jobId: string },
    query: GatedQuery,
    resultPath: string,
    options: Omit<FileRunOptions, 'scanLimitBytes'>,
    settle: (tx: Transaction, settlement: Settlement) => Promise<void>,
  ): Promise<Settlement> {
    const startedAt = performance.now();
    let settlement: Settlement;
    try {
      const plan = await this.plan(query.workspaceId);
      const outcome = await this.runner.runToFile(query.workspaceId, query.sql, resultPath, { ...options, scanLimitBytes: query.force ? undefined : plan.max_scan_bytes });
      settlement = { ok: true, outcome, costEur: costOf(outcome.bytesScanned, plan), plan };
    } catch (error) {
      // A cancellation reaches here as an interrupted query: it is the caller's to handle.
      if (options.signal?.aborted) {
        this.observe(caller.kind, 'cancelled', 0);
        throw options.signal.reason;
      }
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      settlement = { ok: false, error, durationMs: performance.now() - startedAt };
    }
    const entry = settlement.ok ? succeededUsage(caller, query, settlement.outcome, settlement.costEur) : failedUsage(caller, query, settlement.error, settlement.durationMs);
    await this.store.transaction(async (tx) => {
      await settle(tx, settlement);
      await this.usage.record({ ...entry, jobId: caller.jobId }, tx);
    });
    this.observe(caller.kind, settlement.ok ? 'succeeded' : settlement.error.code, settlement.ok ? settlement.outcome.bytesScanned : 0);
    return settlement;
  }
}

function usageOf(caller: QueryCaller, query: GatedQuery): Pick<UsageEntry, 'workspaceId' | 'userId' | 'apiKeyId' | 'source' | 'sql'> {
  return { workspaceId: query.workspaceId, userId: caller.userId, apiKeyId: caller.apiKeyId, source: caller.kind, sql: query.sql };
}

function succeededUsage(caller: QueryCaller, query: GatedQuery, outcome: RunOutcome, costEur: number): UsageEntry {
  return {
    ...usageOf(caller, query),
    status: 'succeeded',
    errorCode: null,
    bytesScanned: outcome.bytesScanned,
    cpuMs: outcome.cpuMs,
    rowsReturned: outcome.rowCount,
    durationMs: outcome.elapsedMs,
    costEur,
  };
}

function failedUsage(caller: QueryCaller, query: GatedQuery, error: unknown, durationMs: number): UsageEntry {
  return {
    ...usageOf(caller, query),
    status: 'failed',
    errorCode: error instanceof AppError ? error.code : 'INTERNAL_ERROR',
    bytesScanned: 0,
    cpuMs: 0,
    rowsReturned: 0,
    durationMs,
    costEur: 0,
  };
}
