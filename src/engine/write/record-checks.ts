import { maxReportedIssues, RecordsRejected, type RecordIssue } from './write-errors';

/** Records are objects, and at least one of them has a field. */
export function checkRecords(records: unknown[]): Record<string, unknown>[] {
  const issues: RecordIssue[] = [];
  records.forEach((record, index) => {
    if (record === null || typeof record !== 'object' || Array.isArray(record))
      issues.push({ record: index, message: 'Each record must be a JSON object', type: 'dict_type' });
  });
  if (issues.length > 0) throw new RecordsRejected(issues.slice(0, maxReportedIssues));
  const objects = records as Record<string, unknown>[];
  if (objects.every((record) => Object.keys(record).length === 0)) throw new RecordsRejected([{ message: 'The records have no fields', type: 'value_error' }]);
  return objects;
}

/** Every record carries every key column, with a scalar (keys identify rows; JSON does not compare). */
export function checkKeyPresence(records: Record<string, unknown>[], primaryKey: string[]): void {
  const issues: RecordIssue[] = [];
  for (const [index, record] of records.entries()) {
    for (const key of primaryKey) {
      // Own fields only: a key named `constructor` must not find Object.prototype's.
      const value = Object.hasOwn(record, key) ? record[key] : undefined;
      if (value === undefined || value === null)
        issues.push({ record: index, field: key, message: `Primary key column "${key}" must be present and not null`, type: 'missing' });
      else if (typeof value === 'object')
        issues.push({ record: index, field: key, message: `Primary key column "${key}" must be a scalar`, type: 'value_error' });
    }
    if (issues.length >= maxReportedIssues) break;
  }
  if (issues.length > 0) throw new RecordsRejected(issues);
}

export function sameKey(a: string[], b: string[]): boolean {
  const fold = (key: string[]) =>
    [...key]
      .map((column) => column.toLowerCase())
      .sort()
      .join('\u0000');
  return fold(a) === fold(b);
}
