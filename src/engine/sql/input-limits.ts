import { AppError } from '../../errors/app-error';
import { measureInput } from './measure-input';

/** How large a query may be before anything else looks at it. */
export interface InputLimits {
  /** Characters of SQL text. */
  maxLength: number;
  /** Tokens: names, literals, operators and punctuation; comments and whitespace are free. */
  maxTokens: number;
  /** Brackets open at once: parentheses (subqueries, calls, expressions), `[…]` and `{…}`. */
  maxDepth: number;
  /** Items of one list: an IN list, VALUES rows, call arguments, select items (commas at one bracket level, plus one). */
  maxListItems: number;
  /**
   * Expressions nested in DuckDB's parse tree (`a || b || c` nests as deeply as `f(g(h()))`):
   * DuckDB's binder takes time cubic in this depth. Checked on the parse tree, before any binding.
   */
  maxExpressionDepth: number;
  /** Subquery expressions (scalar, IN, EXISTS) nested in one another: DuckDB plans them in time exponential in the depth. */
  maxSubqueryDepth: number;
  /**
   * Conditions combined with AND or OR in the whole statement: DuckLake turns pushed-down
   * conditions into scan filters in time quadratic in their number, and DuckDB's planner does not
   * stop for the query timeout meanwhile. A long list of values belongs in an IN list.
   */
  maxConditions: number;
  /**
   * Tables, subqueries and table functions joined in one FROM clause: DuckDB orders joins in time
   * that grows steeply with their number, and its planner does not stop for the query timeout.
   */
  maxJoinedTables: number;
}

/**
 * The limits every query text meets before translation and parsing (see docs/queries.md, "Limits on a
 * query", for why these values). BigQuery and Snowflake take about 1 MB of query text (and so does the HTTP interface's
 * `sql` field); Snowflake takes 16,384 items in one list. The token and depth limits keep the most
 * expensive query that passes compiling in well under a second, and every walk of our own far from
 * the end of the stack.
 */
export const inputLimits: InputLimits = {
  maxLength: 1_000_000,
  maxTokens: 50_000,
  maxDepth: 128,
  maxListItems: 16_384,
  maxExpressionDepth: 128,
  maxSubqueryDepth: 16,
  maxConditions: 1_000,
  maxJoinedTables: 48,
};

/** Refuses a text beyond the limits with QUERY_TOO_COMPLEX, naming the limit it broke. */
export function checkInputLimits(sql: string, limits: InputLimits = inputLimits): void {
  if (sql.length > limits.maxLength) throw tooComplex(`The query is ${sql.length} characters long; at most ${limits.maxLength} are accepted`);
  const shape = measureInput(sql, limits);
  if (shape.tokens > limits.maxTokens) throw tooComplex(`The query has more than ${limits.maxTokens} tokens (names, literals, operators)`);
  if (shape.depth > limits.maxDepth) throw tooComplex(`The query nests brackets more than ${limits.maxDepth} deep`);
  if (shape.listItems > limits.maxListItems) throw tooComplex(`A list in the query has more than ${limits.maxListItems} items`);
}

/** Refuses a parse tree nested beyond the limits (see walkStatement for how nesting is counted). */
export function checkNesting(nesting: { expressions: number; subqueries: number }, limits: InputLimits = inputLimits): void {
  if (nesting.expressions > limits.maxExpressionDepth) throw tooComplex(`The query nests expressions more than ${limits.maxExpressionDepth} deep`);
  if (nesting.subqueries > limits.maxSubqueryDepth) throw tooComplex(`The query nests subqueries in expressions more than ${limits.maxSubqueryDepth} deep`);
}

/** Refuses a statement that combines more conditions with AND or OR than the limit. */
export function checkConditions(conditions: number, limits: InputLimits = inputLimits): void {
  if (conditions > limits.maxConditions)
    throw tooComplex(`The query combines more than ${limits.maxConditions} conditions with AND or OR; a list of values belongs in an IN list`);
}

/** Refuses a FROM clause that joins more tables than the limit. */
export function checkJoinedTables(tables: number, limits: InputLimits = inputLimits): void {
  if (tables > limits.maxJoinedTables) throw tooComplex(`A FROM clause of the query joins more than ${limits.maxJoinedTables} tables`);
}

function tooComplex(message: string): AppError {
  return new AppError('QUERY_TOO_COMPLEX', message, {
    hint: 'Split the query, move long value lists into a table (push them) and join it, group long chains of operators in parentheses, or name nested parts once in a CTE.',
  });
}
