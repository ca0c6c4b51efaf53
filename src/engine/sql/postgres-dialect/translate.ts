import { arithmeticFunctionRules } from './arithmetic-functions';
import { translateArrayOperators } from './array-operators';
import { rewriteCalls } from './calls';
import { dateFunctionRules } from './date-functions';
import { translateCasts } from './casts';
import { translateDivision } from './division';
import { translateLiteralInputs } from './literal-inputs';
import { jsonEditingRules, translateJsonEditing } from './json-editing';
import { jsonFunctionRules } from './json-functions';
import { jsonPathFunctionRules } from './json-path-functions';
import { duckdbKeywords, translateKeywordIdentifiers } from './keyword-identifiers';
import { translateJsonArrows, translateJsonKeyOperators, translateJsonPathOperators } from './json-operators';
import { translateLateralJoins } from './lateral-joins';
import { expandedSize, macroNames } from './macro-expansion';
import { translateNullOrdering } from './null-ordering';
import { translateNumericOperators } from './numeric-operators';
import { otherFunctionRules } from './other-functions';
import { applyEverywhere, rewriteBudget, RewriteLog, type LevelRewrite } from './pass';
import { translatePredicates } from './predicates';
import { translateRecordOutput } from './record-output';
import { Level } from './level';
import { translatePatternMatching, translateRegexOperators } from './regex-operators';
import { translateRowLimits } from './row-limits';
import { setReturningRules } from './set-returning';
import { checkCaseLiterals, checkDistinctOn, checkRowCounts, checkSubqueryAliases, checkWindows } from './statement-rules';
import { translateEmptySelectLists, translateRowComparisons, translateTimeDifferences } from './row-comparisons';
import { regexFunctionRules } from './regex-functions';
import { stringFunctionRules } from './string-functions';
import { translateTimeTravel } from './time-travel';
import { parseTree, render } from './token-tree';
import { translateTypeNames } from './type-names';
import { translateTypeResolution } from './type-resolution';

export interface Translation {
  sql: string;
  /** What was changed, for logs and tests; empty when the text came through unchanged. */
  rewrites: string[];
}

const callRules = {
  ...arithmeticFunctionRules,
  ...dateFunctionRules,
  ...stringFunctionRules,
  ...regexFunctionRules,
  ...jsonFunctionRules,
  ...jsonPathFunctionRules,
  ...jsonEditingRules,
  ...otherFunctionRules,
  ...setReturningRules,
};

/** A rewrite and the words (upper case) or operators without which it has nothing to do. */
interface Pass {
  rewrite: LevelRewrite;
  needs: readonly string[];
}

/**
 * The passes in order. Column names DuckDB reserves are quoted once time travel has written its own
 * `AT (…)`. Types come before calls and operators, which look for `::json`; divisions
 * before calls, so that only divisions the user wrote change; path operators become arrows before
 * the arrows are parenthesised; sort order comes last. A pass runs only when the statement (or what
 * an earlier pass wrote) holds one of the words or operators it needs.
 */
const passes: readonly Pass[] = [
  // What Postgres refuses as it analyses the statement, read as written.
  { rewrite: checkRowCounts, needs: ['LIMIT-'] },
  { rewrite: checkSubqueryAliases, needs: ['FROM('] },
  { rewrite: checkWindows, needs: ['NTH_VALUE', 'FRAME-', 'DISTINCT OVER'] },
  { rewrite: checkDistinctOn, needs: ['DISTINCT ON'] },
  { rewrite: checkCaseLiterals, needs: ["CASE'#"] },
  { rewrite: translateTimeTravel, needs: ['SYSTEM_TIME'] },
  { rewrite: translateKeywordIdentifiers, needs: duckdbKeywords },
  // Before any literal is rewritten: an untyped literal is found as the user wrote it.
  { rewrite: translateTypeResolution, needs: ['COALESCE', 'GREATEST', 'LEAST', 'NULLIF', 'ARRAY', 'IN', 'CASE'] },
  { rewrite: translateLiteralInputs, needs: ['::', 'CAST', 'ANY', 'ALL', 'SOME', "'±", 'MININT'] },
  { rewrite: translateTypeNames, needs: ['::', 'JSONB', 'CAST', 'TRY_CAST'] },
  { rewrite: translateDivision, needs: ['/', '%'] },
  { rewrite: translateNumericOperators, needs: ['|/', '||/', '#', '^'] },
  { rewrite: translateCasts, needs: ['::', 'CAST', 'DATE', 'TIMESTAMP', 'TIMESTAMPTZ', 'INTERVAL', 'TIME'] },
  { rewrite: rewriteCalls(callRules), needs: Object.keys(callRules).map((name) => name.toUpperCase()) },
  { rewrite: translateJsonPathOperators, needs: ['#>', '#>>'] },
  { rewrite: translateJsonKeyOperators, needs: ['?', '?|', '?&', '@>', '<@'] },
  { rewrite: translateJsonArrows, needs: ['->', '->>', 'ARROW<'] },
  // jsonb that is visible: a cast or literal, an arrow, a function that returns it (as written by now); or a text subtracted.
  {
    rewrite: translateJsonEditing,
    needs: [
      'JSON',
      '->',
      '->>',
      '#-',
      "-'",
      'TO_JSON',
      'JSON_OBJECT',
      'JSON_ARRAY',
      'JSON_EXTRACT',
      'JSON_MERGE_PATCH',
      'PGX_JSONB_PUT',
      'PGX_JSONB_DESCEND',
      'PGX_JSONB_STRIP_NULLS',
    ],
  },
  { rewrite: translateArrayOperators, needs: ['||', '[', 'ANY', 'SOME', 'ALL'] },
  { rewrite: translateRegexOperators, needs: ['~', '~*', '!~', '!~*'] },
  { rewrite: translatePatternMatching, needs: ['SIMILAR', 'LIKE', 'ILIKE'] },
  { rewrite: translatePredicates, needs: ['SYMMETRIC', 'ASYMMETRIC', 'OVERLAPS', 'WHERE'] },
  { rewrite: translateRowComparisons, needs: ['(<'] },
  { rewrite: translateEmptySelectLists, needs: ['SELECT FROM'] },
  { rewrite: translateTimeDifferences, needs: ['TIME'] },
  { rewrite: translateRowLimits, needs: ['FETCH', 'TABLESAMPLE'] },
  { rewrite: translateLateralJoins, needs: ['LEFT', 'RIGHT', 'FULL'] },
  { rewrite: translateNullOrdering, needs: ['DESC', 'USING'] },
];

/**
 * Rewrites Postgres-only syntax into DuckDB SQL. Never rejects SQL for what it says: what it does
 * not recognise passes through for DuckDB's parser to judge, and SQL that DuckDB already reads the
 * way Postgres does comes back unchanged. Its time is linear in the input; only rewrites that would
 * write more than the budget, or macro calls DuckDB would expand beyond it, stop it, with
 * QUERY_TOO_COMPLEX.
 */
/** Nodes the macros a statement calls may add when DuckDB expands them, beyond one a character of the input. */
const expansionBudget = 200_000;

export function translatePostgres(sql: string): Translation {
  const budget = rewriteBudget + sql.length;
  const log = new RewriteLog(budget);
  let nodes = parseTree(sql);
  log.learn(nodes);
  for (const pass of passes) {
    if (log.mentionsAny(pass.needs)) nodes = applyEverywhere(nodes, pass.rewrite, log);
  }
  if (log.mentionsAny(['ROW']) || nodes.some((node) => node.type === 'group')) {
    const root = new Level(nodes, log);
    translateRecordOutput(root, log);
    nodes = root.result();
  }
  // What DuckDB makes of the macros the statement calls (written by a rewrite or by the user) is held
  // to a budget of its own: DuckDB binds 2 to 15 µs a node, so the rewrites' million would take seconds.
  // The vocabulary holds every word the user and the rewrites wrote: a statement naming no macro expands to itself.
  if (log.mentionsAny(macroNames)) expandedSize(nodes, expansionBudget + sql.length);
  const rewrites = log.list();
  return { sql: rewrites.length === 0 ? sql : render(nodes), rewrites };
}
