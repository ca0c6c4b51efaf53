import type { QueryCaller, QueryGate } from './query-gate';
import { CsvResult } from './formats/csv-result';
import { JsonArraysResult, JsonObjectsResult, type EncodedResult, type ResultFormat, type ResultSummary } from './formats/encoded-result';
import { rateLimitHeaders } from './rate-limiter';
import type { QueryParameters } from '../engine/sql/query-runner';

export type { QueryCaller } from './query-gate';

export interface QueryInput {
  workspaceId: string;
  sql: string;
  format: ResultFormat;
  estimateOnly: boolean;
  force: boolean;
  /** Values of the statement's `$name` markers: a saved query's parameters, bound, never spliced in. */
  parameters?: QueryParameters;
  /** When the request arrived (a `performance.now()` time): the time limit counts from there. */
  startedAt?: number;
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
  | { kind: 'estimate'; body: EstimateAnswer; headers: Record<string, string> }
  | { kind: 'result'; contentType: string; pieces: string[]; headers: Record<string, string> };

/**
 * The synchronous query endpoints' answers: a query run through the gate (every guardrail and the
 * usage record) and encoded in the asked format, or an estimate of what it would scan and cost.
 */
export class QueryService {
  constructor(private readonly gate: QueryGate) {}

  async answer(caller: QueryCaller, input: QueryInput): Promise<QueryAnswer> {
    const query = { workspaceId: input.workspaceId, sql: input.sql, force: input.force, parameters: input.parameters };
    if (input.estimateOnly) return this.estimate(query, input.startedAt);

    const result = encoderFor(input.format);
    const { outcome, costEur, rate } = await this.gate.run(caller, query, result, { startedAt: input.startedAt });
    return encodedAnswer(
      input.format,
      result,
      { rowCount: outcome.rowCount, executionTimeMs: outcome.elapsedMs, bytesScanned: outcome.bytesScanned, costEur, cpuMs: outcome.cpuMs },
      rateLimitHeaders(rate),
    );
  }

  rateLimit(workspaceId: string) {
    return this.gate.rateLimit(workspaceId);
  }

  private async estimate(query: { workspaceId: string; sql: string; force: boolean }, startedAt: number | undefined): Promise<QueryAnswer> {
    const { compiled, costEur, plan, rate } = await this.gate.estimate(query, undefined, startedAt);
    const body: EstimateAnswer = {
      estimate_only: true,
      bytes_scanned_estimate: compiled.estimate.bytes,
      cost_eur_estimate: costEur,
      accuracy: compiled.estimate.accuracy,
      plan: plan.id,
      plan_scan_limit_bytes: plan.max_scan_bytes,
      exceeds_limit: compiled.estimate.bytes > plan.max_scan_bytes,
      tables: [...new Set(compiled.tables.map((ref) => `${ref.schema}.${ref.table}`))],
    };
    return { kind: 'estimate', body, headers: rateLimitHeaders(rate) };
  }
}

/** A result's answer once its rows are in the encoder: the body with its summary, and a CSV's download name. */
export function encodedAnswer(
  format: ResultFormat,
  result: EncodedResult,
  summary: ResultSummary,
  headers: Record<string, string>,
): QueryAnswer & { kind: 'result' } {
  const pieces = result.body({ ...summary, executionTimeMs: Math.round(summary.executionTimeMs * 100) / 100 });
  const download: Record<string, string> =
    format === 'csv' ? { 'content-disposition': `attachment; filename="query-${new Date().toISOString().replace(/[:.]/g, '-')}.csv"` } : {};
  return { kind: 'result', contentType: result.contentType, pieces, headers: { ...headers, ...download } };
}

export function encoderFor(format: ResultFormat): EncodedResult {
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
