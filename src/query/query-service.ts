import { AppError } from '../errors/app-error';
import type { Store } from '../store/store';
import type { QueryRunner, RunOutcome } from '../engine/sql/query-runner';
import type { PlanRow } from '../plans/plan-queries';
import { workspacePlan } from '../plans/workspace-plan';
import { CsvResult } from './formats/csv-result';
import { JsonArraysResult, JsonObjectsResult, type EncodedResult, type ResultFormat } from './formats/encoded-result';
import { rateLimitHeaders, type RateLimiter } from './rate-limiter';
import type { UsageRecorder, UsageSource } from './usage-recorder';

export interface QueryCaller {
  userId: string;
  apiKeyId: string | null;
  source: UsageSource;
}

export interface QueryInput {
  workspaceId: string;
  sql: string;
  format: ResultFormat;
  estimateOnly: boolean;
  force: boolean;
}

export interface EstimateAnswer {
  estimate_only: true;
  bytes_scanned_estimate: number;
  cost_eur_estimate: number;
  accuracy: 'upper_bound';
  plan: string;
  plan_scan_limit_bytes: number;
  exceeds_limit: boolean;
  tables: string[];
}

export type QueryAnswer =
  | { kind: 'estimate'; body: EstimateAnswer }
  | { kind: 'result'; contentType: string; pieces: string[]; headers: Record<string, string> };

export interface QueryLimits {
  timeoutMs: number;
  maxResultRows: number;
  maxResultBytes: number;
}

const bytesPerTb = 1e12;

/**
 * Every guardrail of a synchronous query in one place: the plan's rate limit (checked and counted
 * atomically), the scan estimate against the plan's per-query limit, the timeout, the result caps,
 * and one usage record per counted query, whatever its outcome.
 */
export class QueryService {
  constructor(
    private readonly store: Store,
    private readonly runner: QueryRunner,
    private readonly limiter: RateLimiter,
    private readonly usage: UsageRecorder,
    private readonly limits: QueryLimits,
  ) {}

  async answer(caller: QueryCaller, input: QueryInput): Promise<QueryAnswer> {
    const plan = await workspacePlan(this.store, input.workspaceId);
    // An estimate compiles the query as a run does (translation, parse, catalog statistics), so it
    // takes a slot of the same per-minute limit; it is neither run nor billed.
    const rate = await this.limiter.consume(input.workspaceId, plan);
    if (input.estimateOnly) return { kind: 'estimate', body: await this.estimate(input, plan) };

    const headers = rateLimitHeaders(rate);
    const result = encoderFor(input.format);
    const startedAt = performance.now();
    let outcome: RunOutcome | undefined;
    try {
      outcome = await this.runner.run(input.workspaceId, input.sql, result, {
        timeoutMs: this.limits.timeoutMs,
        maxRows: this.limits.maxResultRows,
        maxBytes: this.limits.maxResultBytes,
        scanLimitBytes: input.force ? undefined : plan.max_scan_bytes,
      });
    } catch (error) {
      await this.recordUsage(caller, input, plan, undefined, performance.now() - startedAt, error);
      if (error instanceof AppError) Object.assign(error.headers, headers);
      throw error;
    }
    const costEur = costOf(outcome.bytesScanned, plan);
    await this.recordUsage(caller, input, plan, outcome, outcome.elapsedMs, undefined);
    const pieces = result.body({
      rowCount: outcome.rowCount,
      executionTimeMs: Math.round(outcome.elapsedMs * 100) / 100,
      bytesScanned: outcome.bytesScanned,
      costEur,
      cpuMs: outcome.cpuMs,
    });
    const download: Record<string, string> =
      input.format === 'csv' ? { 'content-disposition': `attachment; filename="query-${new Date().toISOString().replace(/[:.]/g, '-')}.csv"` } : {};
    return { kind: 'result', contentType: result.contentType, pieces, headers: { ...headers, ...download } };
  }

  rateLimit(workspaceId: string) {
    return this.limiter.peek(workspaceId);
  }

  private async estimate(input: QueryInput, plan: PlanRow): Promise<EstimateAnswer> {
    const compiled = await this.runner.estimate(input.workspaceId, input.sql);
    return {
      estimate_only: true,
      bytes_scanned_estimate: compiled.estimate.bytes,
      cost_eur_estimate: costOf(compiled.estimate.bytes, plan),
      accuracy: compiled.estimate.accuracy,
      plan: plan.id,
      plan_scan_limit_bytes: plan.max_scan_bytes,
      exceeds_limit: compiled.estimate.bytes > plan.max_scan_bytes,
      tables: [...new Set(compiled.tables.map((ref) => `${ref.schema}.${ref.table}`))],
    };
  }

  private async recordUsage(caller: QueryCaller, input: QueryInput, plan: PlanRow, outcome: RunOutcome | undefined, durationMs: number, error: unknown): Promise<void> {
    await this.usage.record({
      workspaceId: input.workspaceId,
      userId: caller.userId,
      apiKeyId: caller.apiKeyId,
      source: caller.source,
      sql: input.sql,
      status: outcome ? 'succeeded' : 'failed',
      errorCode: error instanceof AppError ? error.code : error ? 'INTERNAL_ERROR' : null,
      bytesScanned: outcome?.bytesScanned ?? 0,
      cpuMs: outcome?.cpuMs ?? 0,
      rowsReturned: outcome?.rowCount ?? 0,
      durationMs,
      costEur: outcome ? costOf(outcome.bytesScanned, plan) : 0,
    });
  }
}

export function costOf(bytes: number, plan: PlanRow): number {
  return Math.round((bytes / bytesPerTb) * plan.price_per_tb_scanned_eur * 1e8) / 1e8;
}

function encoderFor(format: ResultFormat): EncodedResult {
  switch (format) {
    case 'json':
      return new JsonArraysResult();
    case 'objects':
      return new JsonObjectsResult();
    case 'csv':
      return new CsvResult();
    default:
      return format satisfies never;
  }
}
