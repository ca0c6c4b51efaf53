import { describe, expect, test } from 'bun:test';
import { bindParameters, compileQuery, namedQuery } from '../../src/store/named-query';

describe('named queries', () => {
  const query = namedQuery<{ email: string; since: string }>(
    'users.recent',
    `SELECT id, ':not_a_param' AS label, "weird:col" FROM users -- :comment
     WHERE email = :email AND created_at::date >= :since AND lower(email) = lower(:email)`,
  );

  test('placeholders become positional parameters; a repeated name binds the same one', () => {
    const compiled = compileQuery(query, 'postgres');
    expect(compiled.parameterNames).toEqual(['email', 'since']);
    expect(compiled.text).toContain('email = $1 AND created_at::date >= $2 AND lower(email) = lower($1)');
    expect(compileQuery(query, 'sqlite').text).toContain('email = ?1 AND created_at::date >= ?2');
  });

  test('string literals, quoted identifiers, comments and casts are left alone', () => {
    const text = compileQuery(query, 'postgres').text;
    expect(text).toContain("':not_a_param'");
    expect(text).toContain('"weird:col"');
    expect(text).toContain('-- :comment');
  });

  test('values are bound in order, and a missing value is an error naming the query', () => {
    const compiled = compileQuery(query, 'postgres');
    expect(bindParameters(query, compiled, { email: 'a@b.c', since: '2026-01-01' })).toEqual(['a@b.c', '2026-01-01']);
    expect(() => bindParameters(query, compiled, { email: 'a@b.c' } as never)).toThrow('query users.recent: no value for parameter :since');
  });
});
