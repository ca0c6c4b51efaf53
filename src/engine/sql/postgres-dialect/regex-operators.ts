import type { Level } from './level';
import { sqlString, stringValue } from './literals';
import { operandsOf } from './operands';
import type { LevelRewrite, RewriteLog } from './pass';
import { similarToRegex } from './regex-pattern';

const regexOperators: Readonly<Record<string, { negated: boolean; flags: string }>> = {
  '~': { negated: false, flags: '' },
  '~*': { negated: false, flags: ", 'i'" },
  '!~': { negated: true, flags: '' },
  '!~*': { negated: true, flags: ", 'i'" },
};

/**
 * Postgres' `~` finds a match anywhere in the string; DuckDB's `~` must match the whole string and
 * it has no `~*`, `!~` or `!~*`. All four become regexp_matches, which searches like Postgres.
 */
export const translateRegexOperators: LevelRewrite = (level, log) => {
  for (let k = 1; k + 1 < level.size; k += 1) {
    const node = level.node(k);
    const operator = node?.type === 'token' && node.token.kind === 'op' ? regexOperators[node.token.text] : undefined;
    if (!operator) continue;
    const operands = operandsOf(level);
    const start = operands.leftOf(k);
    const end = operands.rightOf(k);
    if (start === -1 || end === -1 || !level.canReplace(start, end)) continue;
    const test = `regexp_matches(${level.text(start, k - 1)}, ${level.text(k + 1, end)}${operator.flags})`;
    if (level.replace(start, end, operator.negated ? `(NOT ${test})` : test)) log.add('regex operators ~ ~* !~ !~* → regexp_matches');
  }
};

/**
 * `x [NOT] SIMILAR TO 'pattern'` becomes a full match of the regular expression Postgres would
 * build from the pattern (a function call, so that translating twice changes nothing). A LIKE
 * pattern holding a backslash gets Postgres' default `ESCAPE '\'`, which DuckDB does not assume.
 */
export const translatePatternMatching: LevelRewrite = (level, log) => {
  for (let k = 0; k + 1 < level.size; k += 1) {
    if (level.is(k, 'SIMILAR') && level.is(k + 1, 'TO')) similarTo(level, k, log);
    else if (level.is(k, 'LIKE', 'ILIKE')) likeEscape(level, k + 1, log);
  }
};

function similarTo(level: Level, k: number, log: RewriteLog): void {
  const negated = level.is(k - 1, 'NOT');
  const operator = negated ? k - 1 : k;
  const start = operandsOf(level).leftOf(operator);
  const pattern = level.token(k + 2, 'string') && !level.is(k + 3, 'ESCAPE') ? stringValue(level.text(k + 2, k + 2)) : null;
  if (start === -1 || pattern === null || !level.canReplace(start, k + 2)) return;
  const test = `regexp_full_match(${level.text(start, operator - 1)}, ${sqlString(similarToRegex(pattern))})`;
  if (level.replace(start, k + 2, negated ? `(NOT ${test})` : test)) log.add('SIMILAR TO → regexp_full_match');
}

function likeEscape(level: Level, patternAt: number, log: RewriteLog): void {
  if (!level.token(patternAt, 'string') || level.is(patternAt + 1, 'ESCAPE')) return;
  const pattern = stringValue(level.text(patternAt, patternAt));
  if (pattern === null || !pattern.includes('\\')) return;
  if (level.replace(patternAt, patternAt, `${level.text(patternAt, patternAt)} ESCAPE '\\'`)) log.add("LIKE with backslash → ESCAPE '\\'");
}
