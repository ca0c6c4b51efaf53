import type { Batch } from '../connectors/connector';
import type { StreamTotals } from './sync-commit';

/** How often a long batch's progress is looked at. */
const pollMs = 500;

/**
 * While one batch is written by a single long statement (a whole table read by one scan), tells how
 * far it got: DuckDB's progress of the statement times the rows the batch is expected to hold, added
 * to what the stream committed before. Estimates only move forward; the batch's commit then gives the
 * exact counts. A batch whose size is unknown, or a statement DuckDB cannot measure, tells nothing.
 */
export function watchBatchProgress(
  lake: { readonly progressPercentage: number },
  batch: Batch,
  before: StreamTotals,
  report: (totals: StreamTotals) => void,
): { stop(): void } {
  if (batch.kind !== 'relation' || !batch.expectedRows) return { stop: () => {} };
  const expected = batch.expectedRows;
  const perRow = batch.bytesPerRow ?? 0;
  let shown = 0;
  const timer = setInterval(() => {
    const percentage = lake.progressPercentage;
    if (!(percentage > 0)) return;
    const rows = Math.min(expected, Math.floor((percentage / 100) * expected));
    if (rows <= shown) return;
    shown = rows;
    report({ read: before.read + rows, rows: before.rows + rows, deleted: before.deleted ?? 0, bytes: before.bytes + Math.round(rows * perRow) });
  }, pollMs);
  return { stop: () => clearInterval(timer) };
}
