import type { Level } from './level';

/**
 * Where the operands of a binary operator begin and end at one bracket level. This is not a parser:
 * it knows primaries (names, literals, calls, brackets, CASE … END, typed literals) with their
 * postfixes (`::type`, `[i]`, `.field`) and the precedence of arithmetic over the "other" operators
 * such as `||`, `->` or `~`, which is all the JSON and regex rewrites need. When it cannot tell,
 * it reports no operand and the rewrite leaves the text alone.
 */

/** Words that never start an operand, even when a bracket follows (`IN (…)`, `OVER (…)`). */
const notOperandWords = new Set([
  'ALL',
  'AND',
  'ANY',
  'AS',
  'ASC',
  'BETWEEN',
  'BY',
  'CROSS',
  'CURRENT',
  'DESC',
  'DISTINCT',
  'ELSE',
  'END',
  'ESCAPE',
  'EXCEPT',
  'FETCH',
  'FILTER',
  'FIRST',
  'FOLLOWING',
  'FOR',
  'FROM',
  'FULL',
  'GROUP',
  'GROUPS',
  'HAVING',
  'ILIKE',
  'IN',
  'INNER',
  'INTERSECT',
  'IS',
  'ISNULL',
  'JOIN',
  'LAST',
  'LATERAL',
  'LIKE',
  'LIMIT',
  'NATURAL',
  'NOT',
  'NOTNULL',
  'NULLS',
  'OF',
  'OFFSET',
  'ON',
  'ONLY',
  'OR',
  'ORDER',
  'OUTER',
  'OVER',
  'PARTITION',
  'PRECEDING',
  'QUALIFY',
  'RANGE',
  'RECURSIVE',
  'RETURNING',
  'ROWS',
  'SELECT',
  'SIMILAR',
  'SOME',
  'TABLESAMPLE',
  'THEN',
  'UNBOUNDED',
  'UNION',
  'USING',
  'VALUES',
  'WHEN',
  'WHERE',
  'WINDOW',
  'WITH',
  'WITHIN',
]);

/** Type names that make `name 'text'` a typed literal. */
export const typedLiteralTypes = new Set([
  'BIGINT',
  'BOOL',
  'BOOLEAN',
  'BYTEA',
  'CHAR',
  'CHARACTER',
  'DATE',
  'DECIMAL',
  'DOUBLE',
  'FLOAT',
  'INT',
  'INTEGER',
  'INTERVAL',
  'JSON',
  'JSONB',
  'NUMERIC',
  'REAL',
  'SMALLINT',
  'TEXT',
  'TIME',
  'TIMESTAMP',
  'TIMESTAMPTZ',
  'UUID',
  'VARCHAR',
]);

const intervalUnits = new Set([
  'CENTURY',
  'DAY',
  'DAYS',
  'DECADE',
  'HOUR',
  'HOURS',
  'MICROSECOND',
  'MICROSECONDS',
  'MILLENNIUM',
  'MILLISECOND',
  'MILLISECONDS',
  'MINUTE',
  'MINUTES',
  'MONTH',
  'MONTHS',
  'QUARTER',
  'SECOND',
  'SECONDS',
  'WEEK',
  'WEEKS',
  'YEAR',
  'YEARS',
]);

const arithmetic = new Set(['^', '*', '/', '%', '+', '-']);
const comparison = new Set(['=', '<', '>', '<=', '>=', '<>', '!=', '==']);
// Casts are postfixes and `=>`, `:=` name arguments: none of them joins two operands.
const notChaining = new Set(['::', '=>', ':=']);

/** The last position of the primary starting at `k`, postfixes included, or -1 when none starts there. */
export function operandEnd(level: Level, k: number): number {
  const end = primaryEnd(level, k);
  return end === -1 ? -1 : postfixEnd(level, end);
}

function primaryEnd(level: Level, k: number): number {
  const node = level.node(k);
  if (!node) return -1;
  // A bracket that starts an operand is a parenthesised expression or a DuckDB list literal.
  if (node.type === 'group') return k;
  const { kind } = node.token;
  if (kind === 'string' || kind === 'number' || kind === 'param') return k;
  if (kind === 'quoted-ident') return level.group(k + 1) ? k + 1 : k;
  if (kind !== 'word') return -1;
  const word = level.word(k)!;
  if (notOperandWords.has(word)) return -1;
  if (word === 'CASE') return caseEnd(level, k);
  if (word === 'ARRAY' && (level.group(k + 1, '[') || level.group(k + 1))) return k + 1;
  if (typedLiteralTypes.has(word) && level.token(k + 1, 'string')) {
    return word === 'INTERVAL' ? intervalEnd(level, k + 1) : k + 1;
  }
  if (level.group(k + 1)) return callEnd(level, k + 1);
  return k;
}

/** The last position of a call whose argument group is at `k`: it may carry `WITHIN GROUP (…)`, `FILTER (…)` and `OVER (…)` or `OVER name`. */
export function callEnd(level: Level, k: number): number {
  let end = k;
  if (level.is(end + 1, 'WITHIN') && level.is(end + 2, 'GROUP') && level.group(end + 3)) end += 3;
  if (level.is(end + 1, 'FILTER') && level.group(end + 2)) end += 2;
  if (level.is(end + 1, 'OVER')) {
    if (level.group(end + 2)) end += 2;
    else if (level.word(end + 2) !== null) end += 2;
  }
  return end;
}

/** The END that closes the CASE at `k`, or -1. */
function caseEnd(level: Level, k: number): number {
  return level.memoized(caseEnds, matchCaseEnds).get(k) ?? -1;
}

const caseEnds = {};

/** Each CASE's matching END in one pass (a scan from every CASE would be quadratic in unclosed ones). */
function matchCaseEnds(level: Level): Map<number, number> {
  const ends = new Map<number, number>();
  const open: number[] = [];
  for (let j = 0; j < level.size; j += 1) {
    if (level.is(j, 'CASE')) open.push(j);
    else if (level.is(j, 'END') && open.length > 0) ends.set(open.pop()!, j);
  }
  return ends;
}

/** `interval '1' day` and `interval '1-2' year to month`. */
function intervalEnd(level: Level, k: number): number {
  const unit = level.word(k + 1);
  if (unit === null || !intervalUnits.has(unit)) return k;
  if (level.is(k + 2, 'TO') && intervalUnits.has(level.word(k + 3) ?? '')) return k + 3;
  return k + 1;
}

function postfixEnd(level: Level, end: number): number {
  let k = end;
  for (;;) {
    if (level.group(k + 1, '[')) k += 1;
    else if (level.punct(k + 1, '.') && (level.word(k + 2) !== null || level.token(k + 2, 'quoted-ident') || level.op(k + 2, '*'))) {
      k = level.group(k + 3) ? k + 3 : k + 2;
    } else if (level.op(k + 1, '::')) {
      const type = typeEnd(level, k + 2);
      if (type === -1) return k;
      k = type;
    } else if (level.is(k + 1, 'COLLATE') && (level.word(k + 2) !== null || level.token(k + 2, 'quoted-ident'))) {
      k += 2;
    } else {
      return k;
    }
  }
}

/** The last position of a type name starting at `k`: `int`, `numeric(10,2)`, `text[]`, `double precision`… */
export function typeEnd(level: Level, k: number): number {
  const word = level.word(k);
  if (word === null) return -1;
  let end = k;
  if ((word === 'DOUBLE' && level.is(k + 1, 'PRECISION')) || (['CHARACTER', 'BIT'].includes(word) && level.is(k + 1, 'VARYING'))) end += 1;
  if (level.group(end + 1)) end += 1;
  if ((word === 'TIMESTAMP' || word === 'TIME') && level.is(end + 1, 'WITH', 'WITHOUT') && level.is(end + 2, 'TIME') && level.is(end + 3, 'ZONE')) end += 3;
  while (level.group(end + 1, '[')) end += 1;
  return end;
}

/** The casts among the postfixes of the operand starting at `start`: each `::` and its type's last position. */
export function castsOf(level: Level, start: number): { at: number; typeLast: number }[] {
  const casts: { at: number; typeLast: number }[] = [];
  const primary = primaryEnd(level, start);
  if (primary === -1) return casts;
  const end = postfixEnd(level, primary);
  for (let k = primary + 1; k < end; k += 1) {
    if (!level.op(k, '::')) continue;
    const typeLast = typeEnd(level, k + 1);
    casts.push({ at: k, typeLast });
    k = typeLast;
  }
  return casts;
}

/** An argument of a macro call: DuckDB would read `j -> 'k'` there as a lambda, so an arrow goes in parentheses. */
export function macroArgument(text: string): string {
  return /->/.test(text) && !/^\((?:[^()]|\([^()]*\))*\)$/.test(text) ? `(${text})` : text;
}

const operandIndex = {};

/** The level's operands, found the first time a rewrite needs them: levels without an operator of interest never pay for it. */
export function operandsOf(level: Level): Operands {
  return level.memoized(operandIndex, (of) => new Operands(of));
}

/**
 * Primaries by their last position, so an operator can find the operand just before it. Chains are
 * followed once: each operand remembers where the chain through it starts and ends, so a level full
 * of operators costs linear time.
 */
export class Operands {
  private readonly startByEnd = new Map<number, number>();
  private readonly endByStart = new Map<number, number>();
  private readonly otherEnds = new Map<number, number>();
  private readonly chainStarts = new Map<number, number>();
  private readonly arithmeticEnds = new Map<number, number>();

  constructor(private readonly level: Level) {
    let k = 0;
    while (k < level.size) {
      const end = operandEnd(level, k);
      if (end === -1) {
        k += 1;
      } else {
        this.startByEnd.set(end, k);
        this.endByStart.set(k, end);
        // A CASE is one operand, and its conditions and results, at the same level, hold operands of their own.
        k = level.is(k, 'CASE') ? k + 1 : end + 1;
      }
    }
  }

  /** Where each operand starts, left to right (those inside a CASE too). */
  starts(): IterableIterator<number> {
    return this.endByStart.keys();
  }

  /** The start of the primary ending at `k`, or -1. */
  startOf(k: number): number {
    return this.startByEnd.get(k) ?? -1;
  }

  /** The end of the primary starting at `k`, allowing a leading sign (`->> -1`), or -1. */
  endOf(k: number): number {
    const start = this.level.op(k, '-', '+') ? k + 1 : k;
    const known = start === k ? this.endByStart.get(k) : undefined;
    if (known !== undefined) return known;
    let end = this.otherEnds.get(start);
    if (end === undefined) {
      end = operandEnd(this.level, start);
      this.otherEnds.set(start, end);
    }
    return end;
  }

  /**
   * The start of the left operand of an operator at `k` with the precedence of Postgres' "other"
   * operators: it takes arithmetic and other operators to its left (`a || b ~ c` is `(a || b) ~ c`),
   * never comparisons or keywords.
   */
  leftOf(k: number): number {
    const first = this.startOf(k - 1);
    if (first === -1) return -1;
    const chain: number[] = [];
    let start = first;
    for (;;) {
      const known = this.chainStarts.get(start);
      if (known !== undefined) {
        start = known;
        break;
      }
      chain.push(start);
      const previous = start >= 2 && this.isChainOperator(start - 1) ? this.startOf(start - 2) : -1;
      if (previous === -1) break;
      start = previous;
    }
    for (const member of chain) this.chainStarts.set(member, start);
    return start;
  }

  /** The end of the right operand of an "other" operator at `k`: arithmetic binds tighter, the rest does not. */
  rightOf(k: number): number {
    const first = this.endOf(k + 1);
    if (first === -1) return -1;
    const chain: number[] = [];
    let end = first;
    for (;;) {
      const known = this.arithmeticEnds.get(end);
      if (known !== undefined) {
        end = known;
        break;
      }
      chain.push(end);
      const next = this.level.op(end + 1, ...arithmetic) ? this.endOf(end + 2) : -1;
      if (next === -1) break;
      end = next;
    }
    for (const member of chain) this.arithmeticEnds.set(member, end);
    return end;
  }

  private isChainOperator(k: number): boolean {
    const node = this.level.node(k);
    if (node?.type !== 'token' || node.token.kind !== 'op') return false;
    return !comparison.has(node.token.text) && !notChaining.has(node.token.text);
  }
}
