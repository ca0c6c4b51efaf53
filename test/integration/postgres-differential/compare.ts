import { compareResults, ordersRows } from '../postgres-corpus/compare';
import type { Outcome } from './engines';
import { orderKeyColumns, sortedWithinTies } from './sort-keys';

/**
 * How Oxbow's answer differs from Postgres', each aspect apart: `identical`; a result whose column
 * `names`, `values` or value `types` (as JSON shows them) differ; `answered` where Postgres raises
 * an error; `refused` where Postgres answers; `sqlstate` when both refuse with different codes.
 */
export type Difference = 'names' | 'values' | 'types' | 'answered' | 'refused' | 'sqlstate';

export function differences(sql: string, postgres: Outcome, oxbow: Outcome): { found: Difference[]; detail: string } {
  if (postgres.kind === 'error' || oxbow.kind === 'error') {
    if (postgres.kind === 'error' && oxbow.kind === 'error') {
      return postgres.sqlstate === oxbow.sqlstate
        ? { found: [], detail: '' }
        : { found: ['sqlstate'], detail: `postgres ${postgres.sqlstate} ${postgres.message}; oxbow ${oxbow.sqlstate ?? '-'} ${oxbow.message}` };
    }
    if (postgres.kind === 'error') return { found: ['answered'], detail: `postgres ${postgres.sqlstate} ${postgres.message}` };
    return { found: ['refused'], detail: `oxbow ${oxbow.kind === 'error' ? oxbow.message : ''}` };
  }
  const found: Difference[] = [];
  const details: string[] = [];
  if (postgres.names.join('\u0000') !== oxbow.names.join('\u0000')) {
    found.push('names');
    details.push(`names: postgres ${JSON.stringify(postgres.names)}, oxbow ${JSON.stringify(oxbow.names)}`);
  }
  // Rows that tie on every sort key come in an order no engine promises.
  const keys = orderKeyColumns(sql, postgres.names);
  const [expected, actual] = keys ? [sortedWithinTies(postgres.rows, keys), sortedWithinTies(oxbow.rows, keys)] : [postgres.rows, oxbow.rows];
  const values = compareResults(expected, actual, ordersRows(sql));
  if (values !== null) {
    found.push('values');
    details.push(values);
  } else if (postgres.kinds.some((kind, i) => kind !== oxbow.kinds[i] && postgres.rows.length > 0)) {
    found.push('types');
    details.push(`types: postgres ${postgres.kinds.join(',')}, oxbow ${oxbow.kinds.join(',')}`);
  }
  return { found, detail: details.join('\n') };
}
