import { describe, expect, test } from 'bun:test';
import { checkInputLimits, inputLimits } from '../../src/engine/sql/input-limits';
import { measureInput as measure } from '../../src/engine/sql/measure-input';

const measureInput = (sql: string) => measure(sql, inputLimits);
import { parseTree, type SqlNode } from '../../src/engine/sql/postgres-dialect/token-tree';
import { isSignificant, tokenize } from '../../src/engine/sql/postgres-dialect/tokenizer';
import { AppError } from '../../src/errors/app-error';

/** How deep the translator's own bracket tree goes: what its recursion has to bear. */
function treeDepth(nodes: readonly SqlNode[]): number {
  let deepest = 0;
  const pending: [readonly SqlNode[], number][] = [[nodes, 0]];
  for (let item = pending.pop(); item; item = pending.pop()) {
    const [children, depth] = item;
    deepest = Math.max(deepest, depth);
    for (const node of children) if (node.type === 'group') pending.push([node.children, depth + 1]);
  }
  return deepest;
}

const codeOf = (sql: string) => {
  try {
    checkInputLimits(sql);
    return 'ok';
  } catch (error) {
    return error instanceof AppError ? `${error.status} ${error.code}` : String(error);
  }
};

describe('input limits', () => {
  test('counts tokens, brackets and list items the way the tokenizer reads the text', () => {
    expect(measureInput('SELECT a, b, c FROM t WHERE x IN (1, 2, 3, 4)')).toEqual({ length: 45, tokens: 20, depth: 1, listItems: 4 });
    // Brackets inside strings, quoted names, comments and dollar quotes are text.
    expect(measureInput(`SELECT '(((', "((", $x$ ((( $x$, E'\\'(((' /* ((( /* ((( */ ((( */ -- (((\n`).depth).toBe(0);
    // A closer of another kind closes nothing, as in the tokenizer's tree.
    expect(measureInput('SELECT ((((]]]]').depth).toBe(4);
    expect(measureInput('SELECT [{(1)}]').depth).toBe(3);
    expect(measureInput('SELECT 1 -- a comment\n, 2').listItems).toBe(2);
  });

  test('never counts fewer brackets than the translator nests, whatever the text', () => {
    const alphabet = [
      '(',
      ')',
      '[',
      ']',
      '{',
      '}',
      "'",
      '"',
      '$',
      '$a$',
      'E',
      "e'",
      '\\',
      '-',
      '--',
      '/*',
      '*/',
      '/',
      '*',
      ' ',
      '\n',
      'x',
      '1',
      '.',
      ',',
      '+',
      '?',
      ':',
      'U&',
      '&',
    ];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let run = 0; run < 3000; run++) {
      const sql = Array.from({ length: 5 + Math.floor(random() * 60) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      const measured = measureInput(sql);
      const tokens = tokenize(sql).filter(isSignificant).length;
      if (measured.depth < treeDepth(parseTree(sql)) || measured.tokens > tokens)
        throw new Error(`measured ${JSON.stringify(measured)} for ${JSON.stringify(sql)}`);
    }
  });

  test('refuses each limit with QUERY_TOO_COMPLEX, and passes what stays within', () => {
    expect(codeOf('SELECT 1')).toBe('ok');
    expect(codeOf(`SELECT '${'x'.repeat(inputLimits.maxLength)}'`)).toBe('400 QUERY_TOO_COMPLEX');
    expect(codeOf(`SELECT ${'1 + '.repeat(inputLimits.maxTokens / 2)}1`)).toBe('400 QUERY_TOO_COMPLEX');
    expect(codeOf(`SELECT ${'('.repeat(inputLimits.maxDepth)}1${')'.repeat(inputLimits.maxDepth)}`)).toBe('ok');
    expect(codeOf(`SELECT ${'('.repeat(inputLimits.maxDepth + 1)}1${')'.repeat(inputLimits.maxDepth + 1)}`)).toBe('400 QUERY_TOO_COMPLEX');
    expect(codeOf(`SELECT ${'['.repeat(inputLimits.maxDepth + 1)}`)).toBe('400 QUERY_TOO_COMPLEX');
    const list = (n: number) => `SELECT 1 IN (${Array.from({ length: n }, (_, i) => i).join(', ')})`;
    expect(codeOf(list(inputLimits.maxListItems))).toBe('ok');
    expect(codeOf(list(inputLimits.maxListItems + 1))).toBe('400 QUERY_TOO_COMPLEX');
    // Long string literals and comments are cheap: they count by length only.
    expect(codeOf(`SELECT '${'x'.repeat(500_000)}' /* ${'y '.repeat(200_000)} */`)).toBe('ok');
  });
});
