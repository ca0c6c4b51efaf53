import type { Level } from './level';
import type { LevelRewrite } from './pass';

/**
 * Words that are plain names in Postgres but keywords of DuckDB's grammar, which then refuses them
 * as bare column names (`SELECT at FROM t` is a syntax error there). LAMBDA is left out: DuckDB's
 * `lambda x: …` cannot be told apart from a column named lambda by the tokens alone.
 */
export const duckdbKeywords = [
  'AT',
  'BY',
  'QUALIFY',
  'GLOB',
  'ASOF',
  'ANTI',
  'SEMI',
  'POSITIONAL',
  'UNPACK',
  'SHOW',
  'DESCRIBE',
  'SUMMARIZE',
  'PIVOT',
  'UNPIVOT',
];
const duckdbKeywordSet = new Set(duckdbKeywords);

/** Words after which an expression (so a column name) starts. */
const expressionStarters = new Set([
  'SELECT',
  'DISTINCT',
  'WHERE',
  'AND',
  'OR',
  'NOT',
  'ON',
  'BY',
  'WHEN',
  'THEN',
  'ELSE',
  'CASE',
  'HAVING',
  'BETWEEN',
  'LIKE',
  'ILIKE',
  'RETURNING',
]);

/** Statements DuckDB starts with these words; at the start of a level they keep their meaning. */
const statementWords = new Set(['SHOW', 'DESCRIBE', 'SUMMARIZE', 'PIVOT', 'UNPIVOT']);

/**
 * Such a word where an expression starts is a column, and is quoted in the lower case Postgres folds
 * it to. Elsewhere it keeps DuckDB's meaning: `AT (TIMESTAMP => …)`, `AT TIME ZONE`, `GROUP BY`,
 * `… QUALIFY …`, `a GLOB 'x*'`, `ASOF JOIN`, `UNPACK(…)`, `DESCRIBE t`.
 */
export const translateKeywordIdentifiers: LevelRewrite = (level, log) => {
  for (let k = 0; k < level.size; k += 1) {
    const word = level.word(k);
    if (word === null || !duckdbKeywordSet.has(word) || !startsExpression(level, k)) continue;
    if (statementWords.has(word) && k === 0) continue;
    // DuckDB syntax follows: a group (`AT (…)`, `UNPACK(…)`, `PIVOT (…)`) or `AT TIME ZONE` / `AT LOCAL`.
    if (level.group(k + 1) || (word === 'AT' && level.is(k + 1, 'TIME', 'LOCAL'))) continue;
    if (level.replace(k, k, `"${word.toLowerCase()}"`)) log.add('column names DuckDB reserves (at, by, qualify…): quoted');
  }
};

function startsExpression(level: Level, k: number): boolean {
  if (k === 0) return true;
  const previous = level.word(k - 1);
  // `x NOT GLOB 'a*'`: NOT after an operand negates the operator that follows.
  if (previous === 'NOT') return k === 1 || !endsOperand(level, k - 2);
  if (previous !== null) return expressionStarters.has(previous);
  return level.punct(k - 1, ',') || (level.token(k - 1, 'op') && !level.op(k - 1, '::'));
}

function endsOperand(level: Level, k: number): boolean {
  const word = level.word(k);
  if (word !== null) return !expressionStarters.has(word) && word !== 'NOT';
  return level.group(k) !== null || level.token(k, 'number') || level.token(k, 'string') || level.token(k, 'quoted-ident');
}
