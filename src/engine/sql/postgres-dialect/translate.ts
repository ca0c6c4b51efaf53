import { rewriteCalls } from './calls';
import { dateFunctionRules } from './date-functions';
import { translateDivision } from './division';
import { jsonFunctionRules } from './json-functions';
import { translateKeywordIdentifiers } from './keyword-identifiers';
import { translateJsonArrows, translateJsonKeyOperators, translateJsonPathOperators } from './json-operators';
import { translateNullOrdering } from './null-ordering';
import { otherFunctionRules } from './other-functions';
import { applyEverywhere, RewriteLog, type LevelRewrite } from './pass';
import { translatePredicates } from './predicates';
import { translatePatternMatching, translateRegexOperators } from './regex-operators';
import { translateRowLimits } from './row-limits';
import { setReturningRules } from './set-returning';
import { stringFunctionRules } from './string-functions';
import { translateTimeTravel } from './time-travel';
import { parseTree, render } from './token-tree';
import { translateTypeNames } from './type-names';

export interface Translation {
  sql: string;
  /** What was changed, for logs and tests; empty when the text came through unchanged. */
  rewrites: string[];
}

const translateCalls = rewriteCalls({ ...dateFunctionRules, ...stringFunctionRules, ...jsonFunctionRules, ...otherFunctionRules, ...setReturningRules });

/**
 * The passes in order. Column names DuckDB reserves are quoted once time travel has written its own
 * `AT (…)`. Types come before calls and operators, which look for `::json`; divisions
 * before calls, so that only divisions the user wrote change; path operators become arrows before
 * the arrows are parenthesised; sort order comes last.
 */
const passes: readonly LevelRewrite[] = [
  translateTimeTravel,
  translateKeywordIdentifiers,
  translateTypeNames,
  translateDivision,
  translateCalls,
  translateJsonPathOperators,
  translateJsonKeyOperators,
  translateJsonArrows,
  translateRegexOperators,
  translatePatternMatching,
  translatePredicates,
  translateRowLimits,
  translateNullOrdering,
];

/**
 * Rewrites Postgres-only syntax into DuckDB SQL. Never rejects anything: what it does not recognise
 * passes through for DuckDB's parser to judge, and SQL that DuckDB already reads the way Postgres
 * does comes back unchanged.
 */
export function translatePostgres(sql: string): Translation {
  const log = new RewriteLog();
  let nodes = parseTree(sql);
  for (const pass of passes) nodes = applyEverywhere(nodes, pass, log);
  const rewrites = log.list();
  return { sql: rewrites.length === 0 ? sql : render(nodes), rewrites };
}
