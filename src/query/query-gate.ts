import { AppError, isTenantError } from '../errors/app-error';
import type { Store, Transaction } from '../store/store';
import type { PlanRow } from '../plans/plan-queries';
import { workspacePlan } from '../plans/workspace-plan';
import { costOf } from '../plans/query-cost';
import type { Compiled, FileRunOptions, QueryColumn, QueryParameters, QueryRunner, RunOutcome } from '../engine/sql/query-runner';
import type { ResultSink } from '../engine/sql/result-sink';
import type { LakeTableRef } from '../engine/sql/check-query';
import { rateLimitHeaders, type RateLimiter, type RateLimitState } from './rate-limiter';
import type { UsageRecorder } from './usage-recorder';
import type { UsageEntry, UsageSource } from './usage-entry';
import type { UsageBatches } from './usage-batches';
import { beforeDeadline } from '../util/deadline';
import { queryTimeout } from '../engine/sql/map-duckdb-error';
import { QueryCancelled, type RanSoFar } from '../engine/sql/query-cancelled';
import type { Materialized, MaterializeRequest, QueryMaterializer } from '../engine/write/materialize-query';

/** Who runs a query, and under which kind its usage is recorded. */
export interface QueryCaller {
  userId: string | null;
  apiKeyId: string | null;
  kind: UsageSource;
  /** A public link's viewer or the service's own work (a schedule), rather than the user or key above. */
  type?: 'public' | 'system';
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

/**
 * How a metered query ended: what the caller records with its usage record, in one transaction. A
 * cancelled one is billed for what it ran.
 */
export type Settlement =
  | ({ status: 'succeeded' } & MeteredOutcome)
  | { status: 'failed'; error: AppError; durationMs: number }
  | { status: 'cancelled'; ran: RanSoFar; costEur: number };

/** How a materialisation (a transform's write) ended, recorded with its usage in one transaction. */
export type WriteSettlement = { status: 'succeeded'; written: Materialized; costEur: number } | { status: 'failed'; error: AppError; durationMs: number };

/** How a sync job ended, as its usage record counts it: what it read from its source and wrote to the lake. */
export interface SyncSettlement {
  workspaceId: string;
  connectionId: string;
  status: 'succeeded' | 'failed';
  errorCode: string | null;
  bytesRead: number;
  recordsWritten: number;
  engineMs: number;
  durationMs: number;
}

export interface FileRun extends Omit<FileRunOptions, 'scanLimitBytes'> {
  /**
   * Asked when the signal stopped the query: true when the run will be attempted again (its worker is
   * shutting down), so it is thrown unbilled; otherwise it is settled as cancelled.
   */
  retryOnAbort?: () => boolean;
}

/**
 * Every guardrail around user SQL, for every path that runs it (queries, jobs, saved queries, charts,
 * transforms): the workspace's plan, its per-minute rate limit, the per-query scan limit unless
 * forced, the number of statements at once, the time limit, the result caps, the cost, and exactly one
 * usage record per counted query, whatever its outcome. A sync, which runs only SQL the service
 * writes, is counted here too.
 */
export class QueryGate {
  constructor(
    private readonly store: Store,
    private readonly runner: QueryRunner,
    private readonly materializer: QueryMaterializer,
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
  async run(
    caller: QueryCaller,
    query: GatedQuery,
    sink: ResultSink,
    options: { plan?: PlanRow; caps?: ResultCaps; startedAt?: number } = {},
  ): Promise<MeteredOutcome & { rate: RateLimitState }> {
    // The time limit counts from the request's arrival.
    const startedAt = options.startedAt ?? performance.now();
    const { planRow, rate } = await this.admit(query.workspaceId, options.plan, startedAt + this.limits.timeoutMs);
    const caps = options.caps ?? this.limits;
    let outcome: RunOutcome;
    try {
      outcome = await this.runner.run(query.workspaceId, query.sql, sink, {
        timeoutMs: this.limits.timeoutMs,
        startedAt,
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
  async estimate(
    query: GatedQuery,
    plan?: PlanRow,
    startedAt: number = performance.now(),
  ): Promise<{ compiled: Compiled; costEur: number; plan: PlanRow; rate: RateLimitState }> {
    const { planRow, rate } = await this.admit(query.workspaceId, plan, startedAt + this.limits.timeoutMs);
    try {
      const compiled = await this.runner.estimate(query.workspaceId, query.sql, {
        timeoutMs: this.limits.timeoutMs,
        startedAt,
        concurrency: planRow.max_concurrent_queries,
      });
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
    const { columns } = await this.runner.describe(workspaceId, sql, {
      timeoutMs: this.limits.timeoutMs,
      concurrency: plan.max_concurrent_queries,
      parameters,
    });
    return columns;
  }

  /**
   * The tables SQL that a transform will materialise reads, checked as its runs will check it (see
   * QueryMaterializer.check) on the plan's statements at once, waiting for a turn no longer than the
   * time limit. Saving a transform plans it as saving a chart does: nothing runs and nothing is
   * billed, so it takes no slot of the per-minute limit.
   */
  async checkMaterialization(workspaceId: string, sql: string, pending: ReadonlySet<string>): Promise<string[]> {
    const plan = await this.plan(workspaceId);
    return this.materializer.check(workspaceId, sql, pending, { limit: plan.max_concurrent_queries, deadline: performance.now() + this.limits.timeoutMs });
  }

  /** The plan and a slot of its per-minute limit, within the query's deadline (a store slow under load spends it too). */
  private admit(workspaceId: string, plan: PlanRow | undefined, deadline: number): Promise<{ planRow: PlanRow; rate: RateLimitState }> {
    const admitted = (async () => {
      const planRow = plan ?? (await this.plan(workspaceId));
      return { planRow, rate: await this.limiter.consume(workspaceId, planRow) };
    })();
    return beforeDeadline(admitted, deadline, queryTimeout);
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
    caller: QueryCaller & { jobId: string; startedAt?: Date },
    query: GatedQuery,
    resultPath: string,
    options: FileRun,
    settle: (tx: Transaction, settlement: Settlement) => Promise<void>,
  ): Promise<Settlement> {
    const startedAt = performance.now();
    const plan = await this.plan(query.workspaceId);
    let settlement: Settlement;
    try {
      const outcome = await this.runner.runToFile(query.workspaceId, query.sql, resultPath, {
        ...options,
        scanLimitBytes: query.force ? undefined : plan.max_scan_bytes,
      });
      settlement = { status: 'succeeded', outcome, costEur: costOf(outcome.bytesScanned, plan), plan };
    } catch (error) {
      if (error instanceof QueryCancelled && !options.retryOnAbort?.()) {
        settlement = { status: 'cancelled', ran: error.ran, costEur: costOf(error.ran.bytesScanned, plan) };
      } else {
        if (options.signal?.aborted) throw options.signal.reason;
        settlement = tenantFailure(error, startedAt);
      }
    }
    return this.settled(caller, usageOfSettlement(caller, query, settlement), settlement, settle);
  }

  /**
   * A tenant's SQL materialised into a lake table (a transform's run): on the plan's statements at
   * once, its cost from what it could read, its usage recorded with the caller's record of the run in
   * one transaction. It runs on a schedule or after a sync as often as on a request, with nobody to
   * resend it, so it takes no slot of the per-minute limit and no per-query scan limit. The tenant's
   * own errors are settled; anything else is thrown, for the caller to retry.
   */
  async materialize(
    caller: QueryCaller & { jobId: string; startedAt?: Date },
    query: Pick<GatedQuery, 'workspaceId' | 'sql'>,
    request: Omit<MaterializeRequest, 'sql' | 'admission'>,
    settle: (tx: Transaction, settlement: WriteSettlement) => Promise<void>,
  ): Promise<WriteSettlement> {
    const startedAt = performance.now();
    const plan = await this.plan(query.workspaceId);
    let settlement: WriteSettlement;
    try {
      const admission = { limit: plan.max_concurrent_queries, deadline: startedAt + request.timeoutMs };
      const written = await this.materializer.materialize(query.workspaceId, { ...request, sql: query.sql, admission });
      settlement = { status: 'succeeded', written, costEur: costOf(written.bytesScanned, plan) };
    } catch (error) {
      if (request.signal?.aborted) throw error;
      settlement = tenantFailure(error, startedAt);
    }
    const entry =
      settlement.status === 'succeeded'
        ? {
            ...usageOf(caller, { ...query, force: false }),
            ...engineWork(settlement.written),
            status: 'succeeded' as const,
            errorCode: null,
            costEur: settlement.costEur,
          }
        : failedUsage(caller, { ...query, force: false }, settlement.error, settlement.durationMs);
    return this.settled(caller, entry, settlement, settle);
  }

  /**
   * A sync job's usage. A sync runs no tenant SQL (it reads its source into the lake with statements
   * the service writes, on the sync worker's own engines, after its storage check), so nothing is
   * checked or billed here; it is counted as every statement is. Its usage record lands in the
   * transaction that records how the job ended, when `settle` says it ended now: a retry that finds
   * the job ended records nothing.
   */
  async settleSync(caller: QueryCaller & { jobId: string }, sync: SyncSettlement, settle: (tx: Transaction) => Promise<boolean>): Promise<void> {
    const entry: UsageEntry = {
      ...usageOf(caller, { workspaceId: sync.workspaceId, sql: `sync ${sync.connectionId}`, force: false }),
      status: sync.status,
      errorCode: sync.errorCode,
      bytesScanned: sync.bytesRead,
      cpuMs: sync.engineMs,
      rowsReturned: sync.recordsWritten,
      durationMs: sync.durationMs,
      costEur: 0,
      jobId: caller.jobId,
    };
    const recorded = await this.store.transaction(async (tx) => {
      if (!(await settle(tx))) return false;
      await this.usage.record(entry, tx);
      return true;
    });
    if (recorded) this.observe(caller.kind, sync.errorCode ?? sync.status, sync.bytesRead);
  }

  /** The caller's record of how a statement ended and its usage record, in one transaction. */
  private async settled<S extends Settlement | WriteSettlement>(
    caller: QueryCaller & { jobId: string; startedAt?: Date },
    entry: UsageEntry,
    settlement: S,
    settle: (tx: Transaction, settlement: S) => Promise<void>,
  ): Promise<S> {
    await this.store.transaction(async (tx) => {
      await settle(tx, settlement);
      await this.usage.record({ ...entry, jobId: caller.jobId, startedAt: caller.startedAt }, tx);
    });
    this.observe(caller.kind, settlement.status === 'failed' ? settlement.error.code : settlement.status, entry.bytesScanned);
    return settlement;
  }
}

/** A tenant's own error (its SQL, its limits) is settled as the statement's failure; the service's own failures are thrown, to retry. */
function tenantFailure(error: unknown, startedAt: number): { status: 'failed'; error: AppError; durationMs: number } {
  if (!isTenantError(error)) throw error;
  return { status: 'failed', error, durationMs: performance.now() - startedAt };
}

/** A write's usage: it returns no rows, and its engine time is its duration (it runs on the workspace's background instance). */
function engineWork(written: Materialized): Pick<UsageEntry, 'bytesScanned' | 'cpuMs' | 'rowsReturned' | 'durationMs' | 'translatedSql' | 'estimatedBytes'> {
  return {
    bytesScanned: written.bytesScanned,
    cpuMs: Math.round(written.elapsedMs),
    rowsReturned: 0,
    durationMs: written.elapsedMs,
    translatedSql: written.translatedSql,
    estimatedBytes: written.bytesScanned,
  };
}

function usageOfSettlement(caller: QueryCaller, query: GatedQuery, settlement: Settlement): UsageEntry {
  switch (settlement.status) {
    case 'succeeded':
      return succeededUsage(caller, query, settlement.outcome, settlement.costEur);
    case 'failed':
      return failedUsage(caller, query, settlement.error, settlement.durationMs);
    case 'cancelled': {
      const { ran } = settlement;
      return {
        ...usageOf(caller, query),
        status: 'cancelled',
        errorCode: null,
        bytesScanned: ran.bytesScanned,
        cpuMs: ran.cpuMs,
        rowsReturned: 0,
        durationMs: ran.elapsedMs,
        costEur: settlement.costEur,
        translatedSql: ran.translatedSql,
        estimatedBytes: ran.estimatedBytes,
      };
    }
    default:
      return settlement satisfies never;
  }
}

function usageOf(caller: QueryCaller, query: GatedQuery): Pick<UsageEntry, 'workspaceId' | 'userId' | 'apiKeyId' | 'source' | 'sql' | 'callerType'> {
  return { workspaceId: query.workspaceId, userId: caller.userId, apiKeyId: caller.apiKeyId, source: caller.kind, sql: query.sql, callerType: caller.type };
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
    translatedSql: outcome.translatedSql,
    estimatedBytes: outcome.estimate.bytes,
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
