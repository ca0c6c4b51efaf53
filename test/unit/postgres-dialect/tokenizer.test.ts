import { describe, expect, test } from 'bun:test';
import { tokenize, type TokenKind } from '../../../src/engine/sql/postgres-dialect/tokenizer';
import { parseTree, render } from '../../../src/engine/sql/postgres-dialect/token-tree';

const kinds = (sql: string) =>
  tokenize(sql)
    .filter((t) => t.kind !== 'space')
    .map((t) => [t.kind, t.text] as [TokenKind, string]);

describe('tokenizer', () => {
  test('concatenating the tokens gives the input back, whatever it holds', () => {
    const inputs = [
      "SELECT a::jsonb ->> 'k' FROM t -- done",
      "select $$x$$, $a$ $$ $a$, E'\\'', 'it''s', \"Q\"\"uote\" /* a /* b */ c */",
      "unterminated 'string",
      'unterminated /* comment',
      'weird ` chars \\ and $ and } {',
      '',
    ];
    for (const sql of inputs)
      expect(
        tokenize(sql)
          .map((t) => t.text)
          .join(''),
      ).toBe(sql);
  });

  test('string literals keep doubled quotes, and E-strings backslash-escaped quotes', () => {
    expect(kinds("'it''s' E'it\\'s' e'a\\\\' 'x'")).toEqual([
      ['string', "'it''s'"],
      ['string', "E'it\\'s'"],
      ['string', "e'a\\\\'"],
      ['string', "'x'"],
    ]);
  });

  test('a backslash in a standard string is an ordinary character', () => {
    expect(kinds("'a\\' AS x")).toEqual([
      ['string', "'a\\'"],
      ['word', 'AS'],
      ['word', 'x'],
    ]);
  });

  test('dollar-quoted strings end only at their own tag; $1 is a parameter', () => {
    expect(kinds("$$ it's $x$ $$ $fn$ a $$ b $fn$ $1")).toEqual([
      ['string', "$$ it's $x$ $$"],
      ['string', '$fn$ a $$ b $fn$'],
      ['param', '$1'],
    ]);
  });

  test('block comments nest; line comments end at the newline', () => {
    expect(kinds('a /* x /* y */ z */ b -- c */ d\ne')).toEqual([
      ['word', 'a'],
      ['comment', '/* x /* y */ z */'],
      ['word', 'b'],
      ['comment', '-- c */ d'],
      ['word', 'e'],
    ]);
  });

  test('quoted identifiers, prefixed strings and numbers', () => {
    expect(kinds(`"a ""b""" U&"x" B'101' X'ff' N'n' 1.5e-3 .5 1..2`)).toEqual([
      ['quoted-ident', '"a ""b"""'],
      ['quoted-ident', 'U&"x"'],
      ['string', "B'101'"],
      ['string', "X'ff'"],
      ['string', "N'n'"],
      ['number', '1.5e-3'],
      ['number', '.5'],
      ['number', '1'],
      ['punct', '.'],
      ['number', '.2'],
    ]);
  });

  test("operators follow Postgres' rule: a trailing + or - splits off unless the run has ~ ! @ # % ^ & | ` ?", () => {
    expect(kinds('a=-1 b->>c d!~*e f::int g@>h i<-2 j?|k l?m n#>>o')).toEqual([
      ['word', 'a'],
      ['op', '='],
      ['op', '-'],
      ['number', '1'],
      ['word', 'b'],
      ['op', '->>'],
      ['word', 'c'],
      ['word', 'd'],
      ['op', '!~*'],
      ['word', 'e'],
      ['word', 'f'],
      ['op', '::'],
      ['word', 'int'],
      ['word', 'g'],
      ['op', '@>'],
      ['word', 'h'],
      ['word', 'i'],
      ['op', '<'],
      ['op', '-'],
      ['number', '2'],
      ['word', 'j'],
      ['op', '?|'],
      ['word', 'k'],
      ['word', 'l'],
      ['param', '?'],
      ['word', 'm'],
      ['word', 'n'],
      ['op', '#>>'],
      ['word', 'o'],
    ]);
  });

  test('an operator run stops before a comment', () => {
    expect(kinds('a=--x\nb')).toEqual([
      ['word', 'a'],
      ['op', '='],
      ['comment', '--x'],
      ['word', 'b'],
    ]);
  });

  test('casts inside strings and comments are not tokens of their own', () => {
    const tokens = kinds('SELECT \'a::jsonb\', "b::jsonb" /* c::jsonb */');
    expect(tokens.filter(([kind]) => kind === 'op')).toEqual([]);
  });
});

describe('token tree', () => {
  test('brackets group, and rendering gives the input back, unbalanced input included', () => {
    for (const sql of ['f(a, (b), [c])', 'f(a', 'a)', "f('(')"]) expect(render(parseTree(sql))).toBe(sql);
    const [call, group] = parseTree('f(a, (b))');
    expect(call?.type).toBe('token');
    expect(group?.type === 'group' && group.children.filter((node) => node.type === 'group').length).toBe(1);
  });
});
