import { isToken, isWord, meaningful, significant, type SqlNode } from './token-tree';

/**
 * Marks for what only two or three neighbouring tokens tell, which passes look for beside the
 * statement's words and operators (see RewriteLog.learn); a pass whose mark is missing is skipped:
 *
 * - `[` a bracket of a subscript or list; `-'` a text literal or an array subtracted (which removes
 *   jsonb keys); `'±` a text literal beside an arithmetic operator (which Postgres types after the
 *   other operand); `MININT` the number of the smallest integer;
 * - `FROM(` a subquery after FROM, JOIN, LATERAL or a comma (which may be an item of a FROM list);
 * - `THEN'` and `THEN#` a text or number literal after THEN or ELSE (both make `CASE'#`);
 * - `(<` a bracket holding a comma, compared (a row); `SELECT FROM` an empty select list;
 * - `LIMIT-` a negative LIMIT or OFFSET; `DISTINCT ON`; `FRAME-` a negative frame offset;
 *   `DISTINCT OVER` a DISTINCT aggregate over a window;
 * - `ARROW<` a JSON arrow's key followed by a comparison.
 */
export function addMarks(marks: Set<string>, node: SqlNode, previous: SqlNode | undefined, before: SqlNode | undefined): void {
  if (node.type === 'group') {
    addGroupMarks(marks, node.open, node.children, previous);
    return;
  }
  const { kind, text } = node.token;
  if (kind === 'word') {
    const word = (node.token.upper ??= text.toUpperCase());
    if (word === 'FROM' && isWord(previous, 'SELECT')) marks.add('SELECT FROM');
    else if (word === 'ARRAY' && isToken(previous, 'op', '-')) marks.add("-'");
    else if (word === 'ON' && isWord(previous, 'DISTINCT')) marks.add('DISTINCT ON');
    else if ((word === 'PRECEDING' || word === 'FOLLOWING') && isToken(previous, 'number') && isToken(before, 'op', '-')) marks.add('FRAME-');
    else if (word === 'OVER' && previous?.type === 'group' && isWord(meaningful(previous.children)[0], 'DISTINCT')) marks.add('DISTINCT OVER');
  } else if (kind === 'op') {
    if (comparisons.has(text)) {
      if (previous?.type === 'group' && previous.open === '(' && previous.children.some((child) => isToken(child, 'punct', ','))) marks.add('(<');
      if ((isToken(previous, 'string') || isToken(previous, 'number')) && isToken(before, 'op', '->', '->>')) marks.add('ARROW<');
    } else if (arithmetic.has(text)) {
      if (isToken(previous, 'string')) marks.add("'±");
      if (text === '-' && isWord(previous, 'LIMIT', 'OFFSET')) marks.add('LIMIT-');
    }
  } else if (kind === 'string') {
    if (isArithmeticToken(previous)) {
      marks.add("'±");
      if (isToken(previous, 'op', '-')) marks.add("-'");
    }
    if (isWord(previous, 'THEN', 'ELSE')) marks.add("THEN'");
  } else if (kind === 'number') {
    if (text === '2147483648' || text === '9223372036854775808') marks.add('MININT');
    if (isWord(previous, 'THEN', 'ELSE')) marks.add('THEN#');
  }
}

function addGroupMarks(marks: Set<string>, open: '(' | '[', children: readonly SqlNode[], previous: SqlNode | undefined): void {
  if (open === '[') {
    marks.add('[');
    if (isToken(previous, 'op', '-')) marks.add("-'");
  } else if (
    (isWord(previous, 'FROM', 'JOIN', 'LATERAL') || isToken(previous, 'punct', ',')) &&
    isWord(children.find(significant), 'SELECT', 'VALUES', 'WITH', 'TABLE')
  ) {
    marks.add('FROM(');
  }
}

const comparisons = new Set(['=', '<>', '!=', '<', '<=', '>', '>=']);
const arithmetic = new Set(['+', '-', '*', '/', '%']);
const isArithmeticToken = (node: SqlNode | undefined) => node?.type === 'token' && node.token.kind === 'op' && arithmetic.has(node.token.text);
