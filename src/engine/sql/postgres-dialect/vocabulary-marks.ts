import { isToken, isWord, meaningful, type SqlNode } from './token-tree';

/**
 * Marks for what only two or three neighbouring tokens tell, which passes look for beside the
 * statement's words and operators (see RewriteLog.learn); a pass whose mark is missing is skipped:
 *
 * - `[` a bracket of a subscript or list; `-'` a text literal or an array subtracted (which removes
 *   jsonb keys); `'±` a text literal beside an arithmetic operator (which Postgres types after the
 *   other operand); `MININT` the number of the smallest integer;
 * - `FROM(` a bracket after FROM, JOIN, LATERAL or a comma (which may be a subquery in FROM);
 * - `THEN'` and `THEN#` a text or number literal after THEN or ELSE (both make `CASE'#`);
 * - `(<` a bracket holding a comma, compared (a row); `SELECT FROM` an empty select list;
 * - `LIMIT-` a negative LIMIT or OFFSET; `DISTINCT ON`; `FRAME-` a negative frame offset;
 *   `DISTINCT OVER` a DISTINCT aggregate over a window;
 * - `ARROW<` a JSON arrow's key followed by a comparison.
 */
export function marksAt(node: SqlNode, previous: SqlNode | undefined, before: SqlNode | undefined): string[] {
  if (node.type === 'group') return groupMarks(node.open, node.children, previous);
  const { kind, text } = node.token;
  const marks: string[] = [];
  if (kind === 'word') {
    const word = text.toUpperCase();
    if (word === 'FROM' && isWord(previous, 'SELECT')) marks.push('SELECT FROM');
    if (word === 'ARRAY' && isToken(previous, 'op', '-')) marks.push("-'");
    if (word === 'ON' && isWord(previous, 'DISTINCT')) marks.push('DISTINCT ON');
    if ((word === 'PRECEDING' || word === 'FOLLOWING') && isToken(previous, 'number') && isToken(before, 'op', '-')) marks.push('FRAME-');
    if (word === 'OVER' && previous?.type === 'group' && isWord(meaningful(previous.children)[0], 'DISTINCT')) marks.push('DISTINCT OVER');
  } else if (kind === 'op') {
    if (previous?.type === 'group' && previous.open === '(' && comparisons.has(text) && previous.children.some((child) => isToken(child, 'punct', ','))) marks.push('(<');
    if (arithmetic.has(text) && isToken(previous, 'string')) marks.push("'±");
    if (text === '-' && isWord(previous, 'LIMIT', 'OFFSET')) marks.push('LIMIT-');
    if (comparisons.has(text) && (isToken(previous, 'string') || isToken(previous, 'number')) && isToken(before, 'op', '->', '->>')) marks.push('ARROW<');
  } else if (kind === 'string' && isArithmeticToken(previous)) {
    marks.push("'±");
    if (isToken(previous, 'op', '-')) marks.push("-'");
  } else if (kind === 'number' && (text === '2147483648' || text === '9223372036854775808')) {
    marks.push('MININT');
  }
  if ((kind === 'string' || kind === 'number') && isWord(previous, 'THEN', 'ELSE')) marks.push(`THEN${kind === 'string' ? "'" : '#'}`);
  return marks;
}

function groupMarks(open: '(' | '[', children: readonly SqlNode[], previous: SqlNode | undefined): string[] {
  if (open === '[') return isToken(previous, 'op', '-') ? ['[', "-'"] : ['['];
  return isWord(previous, 'FROM', 'JOIN', 'LATERAL') || isToken(previous, 'punct', ',') ? ['FROM('] : [];
}

const comparisons = new Set(['=', '<>', '!=', '<', '<=', '>', '>=']);
const arithmetic = new Set(['+', '-', '*', '/', '%']);
const isArithmeticToken = (node: SqlNode | undefined) => node?.type === 'token' && node.token.kind === 'op' && arithmetic.has(node.token.text);
