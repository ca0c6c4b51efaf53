import { describe, expect, test } from 'bun:test';
import { parseDatetimeFormat, strftimeTemplate } from '../../../src/engine/sql/postgres-dialect/datetime-format';
import { jsonPath, pathKeys } from '../../../src/engine/sql/postgres-dialect/json-path';
import { stringValue, sqlString } from '../../../src/engine/sql/postgres-dialect/literals';
import { numericToChar } from '../../../src/engine/sql/postgres-dialect/numeric-format';
import { arrayTextToList, parseArrayText } from '../../../src/engine/sql/postgres-dialect/pg-array-literal';
import { captureGroups, similarToRegex } from '../../../src/engine/sql/postgres-dialect/regex-pattern';

const strftime = (template: string) => {
  const pieces = parseDatetimeFormat(template);
  return pieces && strftimeTemplate(pieces);
};

describe('datetime templates', () => {
  test('fields map to strftime codes, longest match first, FM removing the padding', () => {
    expect(strftime('YYYY-MM-DD HH24:MI:SS.US')).toBe('%Y-%m-%d %H:%M:%S.%f');
    expect(strftime('FMDD/FMMM/YY HH12:MI AM')).toBe('%-d/%-m/%y %I:%M %p');
    expect(strftime('IYYY-IW DDD MS')).toBe('%G-%V %j %g');
    expect(strftime('yyyy hh24')).toBe('%Y %H');
  });

  test('quoted text is copied and % escaped', () => {
    expect(strftime('"Year "YYYY" 50%"')).toBe('Year %Y 50%%');
  });

  test('fields without a strftime code are expressions; untranslatable ones abandon the template', () => {
    expect(strftime('YYYY-Q')).toBeNull();
    expect(parseDatetimeFormat('YYYY-Q')?.map((piece) => piece.kind)).toEqual(['code', 'text', 'expr']);
    for (const template of ['RM', 'DDTH', 'J', 'TZ', 'Y,YYY', 'YYY', 'FMX']) expect(parseDatetimeFormat(template)).toBeNull();
  });

  test('case matters for names: MONTH, Month, month', () => {
    const built = (template: string) =>
      parseDatetimeFormat(template)!.map((piece) => (piece.kind === 'expr' ? piece.build('v') : piece.kind === 'code' ? piece.code : piece.text));
    expect(built('MONTH')).toEqual(["rpad(upper(strftime(v, '%B')), 9, ' ')"]);
    expect(built('FMMonth')).toEqual(["strftime(v, '%B')"]);
    expect(built('mon')).toEqual(["lower(strftime(v, '%b'))"]);
  });
});

describe('numeric templates', () => {
  test('digit templates translate, others do not', () => {
    for (const template of ['999', 'FM999,990.00', '0000', '9.99', 'FM9999.9', 'S999', '99.9S', '9G999D99'])
      expect(numericToChar('x', template)).not.toBeNull();
    for (const template of ['S99S', '999PR', '9.99EEEE', 'L999', '999MI', ',999', 'YYYY', '99V9']) expect(numericToChar('x', template)).toBeNull();
  });

  test('overflow shows # in the shape of the template', () => {
    expect(numericToChar('x', '99.9')).toContain("THEN ' ##.#'");
    expect(numericToChar('x', 'FM99.9')).toContain("THEN '##.#'");
  });
});

describe('Postgres array text and JSON paths', () => {
  test('array text parses with quotes, escapes, NULL and nesting', () => {
    expect(parseArrayText('{a, "b c" ,NULL,"NULL","q\\"x"}')).toEqual(['a', 'b c', null, 'NULL', 'q"x']);
    expect(parseArrayText('{{1,2},{3}}')).toEqual([['1', '2'], ['3']]);
    expect(parseArrayText('{}')).toEqual([]);
    for (const text of ['', 'a,b', '{a', '{a}}', '{"a}']) expect(parseArrayText(text)).toBeNull();
    expect(arrayTextToList("{it's}")).toBe("['it''s']");
  });

  test('path keys become a JSONPath; whole numbers index arrays', () => {
    expect(jsonPath(pathKeys('{a,b,0,-1}')!)).toBe('$.a.b[0][#-1]');
    expect(jsonPath(['odd key', 'q"uote', '2x'])).toBe('$."odd key"."q\\"uote"."2x"');
    expect(pathKeys('{{a}}')).toBeNull();
  });
});

describe('patterns and literals', () => {
  test('SIMILAR TO patterns', () => {
    expect(similarToRegex('(a|b)%_')).toBe('(a|b).*.');
    expect(similarToRegex('a.b^c$')).toBe('a\\.b\\^c\\$');
    expect(similarToRegex('100\\%')).toBe('100%');
    expect(similarToRegex('a\\.b')).toBe('a\\.b');
  });

  test('capture groups skip escaped brackets, classes and (?…)', () => {
    expect(captureGroups('(a)(?:b)\\(c\\)[(]')).toBe(1);
    expect(captureGroups('no groups')).toBe(0);
  });

  test('string literal values', () => {
    expect(stringValue("'it''s'")).toBe("it's");
    expect(stringValue("E'a\\tb\\'c\\\\'")).toBe("a\tb'c\\");
    expect(stringValue('$q$ $$ x $q$')).toBe(' $$ x ');
    expect(stringValue("X'ff'")).toBeNull();
    expect(sqlString("it's")).toBe("'it''s'");
  });
});
