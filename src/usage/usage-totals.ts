import type { DailyUsageRow } from './usage-queries';
import { isQueryKind } from './usage-kinds';

/** One kind's share of a period's usage. */
export interface KindUsage {
  kind: string;
  count: number;
  failed_count: number;
  bytes_scanned: number;
  cpu_ms: number;
  rows_returned: number;
  cost_eur: number;
}

/** What a period's usage adds up to: queries (every kind but engine work), and the engine's totals over every kind. */
export interface UsageTotals {
  query_count: number;
  failed_query_count: number;
  total_bytes_scanned: number;
  total_bytes_scanned_gb: number;
  total_cpu_ms: number;
  total_rows_returned: number;
  total_cost_eur: number;
  by_kind: KindUsage[];
}

const bytesPerGb = 1e9;

/** Money to the millionth of a euro: sums of doubles otherwise end in …0000000004. */
export function euros(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

export function totalsOf(rows: Omit<DailyUsageRow, 'day'>[]): UsageTotals {
  const byKind = new Map<string, KindUsage>();
  for (const row of rows) {
    const kind = byKind.get(row.source) ?? { kind: row.source, count: 0, failed_count: 0, bytes_scanned: 0, cpu_ms: 0, rows_returned: 0, cost_eur: 0 };
    kind.count += Number(row.query_count);
    kind.failed_count += Number(row.failed_count);
    kind.bytes_scanned += Number(row.bytes_scanned);
    kind.cpu_ms += Number(row.cpu_ms);
    kind.rows_returned += Number(row.rows_returned);
    kind.cost_eur += Number(row.cost_eur);
    byKind.set(row.source, kind);
  }
  const kinds = [...byKind.values()].sort((a, b) => a.kind.localeCompare(b.kind)).map((kind) => ({ ...kind, cost_eur: euros(kind.cost_eur) }));
  const queries = kinds.filter((kind) => isQueryKind(kind.kind));
  const sum = (list: KindUsage[], field: keyof Omit<KindUsage, 'kind'>) => list.reduce((total, kind) => total + kind[field], 0);
  const bytes = sum(kinds, 'bytes_scanned');
  return {
    query_count: sum(queries, 'count'),
    failed_query_count: sum(queries, 'failed_count'),
    total_bytes_scanned: bytes,
    total_bytes_scanned_gb: bytes / bytesPerGb,
    total_cpu_ms: sum(kinds, 'cpu_ms'),
    total_rows_returned: sum(kinds, 'rows_returned'),
    total_cost_eur: euros(sum(kinds, 'cost_eur')),
    by_kind: kinds,
  };
}
