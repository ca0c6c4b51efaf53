import type { Level } from './level';
import type { LevelRewrite } from './pass';

/**
 * A FROM list of a function beside other items, such as a date spine per customer (`FROM customers c
 * CROSS JOIN generate_series(c.signup, …) g(day)`, which Postgres makes LATERAL), then joined LEFT,
 * RIGHT or FULL to another item: DuckDB refuses to join a list it takes for correlated (with a lake
 * table in it, even when the function reads no other item) outside an inner join.
 * The items up to the function become one derived table offering their columns and, as struct
 * columns named after the items, each item's row, so `c.id` and `g.day` read the same after it.
 */

interface FromItem {
  start: number;
  end: number;
  alias: string;
  /** Set for a function call: where its argument group is. */
  call?: number;
}

const clauseEnd = new Set(['WHERE', 'GROUP', 'HAVING', 'WINDOW', 'QUALIFY', 'ORDER', 'LIMIT', 'OFFSET', 'FETCH', 'UNION', 'INTERSECT', 'EXCEPT']);
const notAliases = new Set(['CROSS', 'JOIN', 'LEFT', 'RIGHT', 'FULL', 'INNER', 'NATURAL', 'ON', 'USING', 'WITH', 'TABLESAMPLE', 'AT', ...clauseEnd]);

/** The item starting at `k`: a table (`s.t`), a call or a subquery, with its alias and column list. */
function itemAt(level: Level, k: number): FromItem | null {
  let end = k;
  let name: string | null = null;
  let call: number | undefined;
  if (level.is(end, 'LATERAL')) end += 1;
  if (level.group(end)) {
    // A subquery.
  } else if (level.word(end) !== null) {
    while (level.punct(end + 1, '.') && level.word(end + 2) !== null) end += 2;
    name = level.word(end)!.toLowerCase();
    if (level.group(end + 1)) {
      call = end + 1;
      end += 1;
    }
  } else {
    return null;
  }
  const explicit = level.is(end + 1, 'AS');
  const word = level.word(explicit ? end + 2 : end + 1);
  if (word !== null && !notAliases.has(word)) {
    end += explicit ? 2 : 1;
    name = word.toLowerCase();
    if (level.group(end + 1)) end += 1;
  }
  return name === null ? null : { start: k, end, alias: name, ...(call === undefined ? {} : { call }) };
}

function wrapCorrelatedList(level: Level, from: number, log: Parameters<LevelRewrite>[1]): void {
  const items: FromItem[] = [];
  let k = from + 1;
  for (;;) {
    const item = itemAt(level, k);
    if (!item) return;
    items.push(item);
    k = item.end + 1;
    if (level.punct(k, ',')) k += 1;
    else if (level.is(k, 'CROSS') && level.is(k + 1, 'JOIN')) k += 2;
    else break;
  }
  const outer = level.is(k, 'LEFT', 'RIGHT', 'FULL') ? k : -1;
  if (outer === -1 || items.length < 2) return;
  // With a table of the lake beside it, DuckDB takes any function of the list for a correlated one.
  const last = items.at(-1)!.end;
  if (!items.some((item) => item.call !== undefined) || !level.canReplace(from + 1, last)) return;
  const rows = items.map((item) => `"${item.alias}"`).join(', ');
  if (level.replace(from + 1, last, `(SELECT *, ${rows} FROM ${level.text(from + 1, last)}) AS __lateral`))
    log.add('correlated FROM list before an outer join → derived table');
}

export const translateLateralJoins: LevelRewrite = (level, log) => {
  for (let k = 0; k < level.size; k += 1) {
    if (level.is(k, 'FROM') && !level.is(k - 1, 'DISTINCT')) wrapCorrelatedList(level, k, log);
  }
};
