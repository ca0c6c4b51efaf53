import { category, perRow, scalars } from './entry';

const texts = ["'hello world'", "'  padded  '", "'Ünïcödé ☕'", "''", "NULL::text", "'O''Brien'", "'a,b,,c'"];
const unary = ['upper', 'lower', 'initcap', 'length', 'char_length', 'octet_length', 'reverse', 'md5', 'trim', 'ltrim', 'rtrim', 'btrim', 'quote_ident', 'quote_literal', 'quote_nullable', 'ascii', 'to_hex(length(%))'];

export const strings = category('strings', [
  ...unary.flatMap((fn) => texts.slice(0, 5).map((text) => (fn.includes('%') ? `SELECT ${fn.replace('%', text)}` : `SELECT ${fn}(${text})`))),
  ...scalars([
    "substr('hello', 2)", "substr('hello', 2, 3)", "substr('hello', 0, 3)", "substr('hello', -1, 3)", "substr('hello', -5, 3)", "substr('hello', 0)", "substr('hello', 10)",
    "substring('hello' FROM 2 FOR 3)", "substring('hello', 2, 3)", "substring('hello' FROM 0 FOR 2)", "substring('hello' FROM -1)", "substring('abc123def' FROM '[0-9]+')",
    "left('hello', 2)", "left('hello', -2)", "right('hello', 2)", "right('hello', -2)", "position('lo' IN 'hello')", "strpos('hello', 'l')", "replace('banana', 'an', 'AN')",
    "split_part('a,b,c', ',', 2)", "split_part('a,b,c', ',', 5)", "split_part('a,b,c', ',', -1)", "repeat('ab', 3)", "lpad('7', 3, '0')", "lpad('hello', 3)", "rpad('ab', 5, '*')",
    "rpad('hello', 2)", "lpad('x', 5)", "concat('a', NULL, 'b', 1)", "concat_ws('-', 'a', NULL, 'b')", "'a' || NULL", "'a' || 1 || true", "chr(65)", "ascii('A')",
    "translate('hello', 'el', 'ip')", "overlay('Txxxxas' PLACING 'hom' FROM 2 FOR 4)", "starts_with('hello', 'he')", "'hello' LIKE 'h%'", "'hello' LIKE 'H%'",
    "'hello' ILIKE 'H%'", "'a_c' LIKE 'a\\_c'", "'abc' SIMILAR TO 'a(b|x)c'", "'hello' ~ 'l+'", "'hello' ~* 'L+'", "'hello' !~ 'z'", "regexp_replace('a1b2c3', '[0-9]', 'X')",
    "regexp_replace('a1b2c3', '[0-9]', 'X', 'g')", "regexp_match('abc123', '([a-z]+)([0-9]+)')", "regexp_split_to_array('a1b2c', '[0-9]')", "string_to_array('a,b,c', ',')",
    "array_to_string(ARRAY['a', NULL, 'c'], ',')", "array_to_string(ARRAY['a', NULL, 'c'], ',', '*')", "format('%s-%s', 'a', 'b')", "format('%5s|%-5s|', 'ab', 'cd')",
    "format('%I', 'my table')", "format('%I', 'simple')", "format('%L', 'it''s')", "format('%L', NULL)", "format('%s', NULL)", "format('%2$s %1$s', 'world', 'hello')",
    "format('%%')", "format('%s items', 3)", "format('%-3s|', 'x')", "format('%3s|', 'abcdef')", "format('INSERT INTO %I VALUES (%L)', 'T', 'O''Reilly')",
    "quote_ident('Hello')", "quote_ident('select')", "quote_ident('a\"b')", "quote_literal(42)", "quote_literal('a\\b')", "quote_nullable(NULL)", "quote_nullable(1.5)",
    "md5('')", "encode('hi'::bytea, 'hex')", "encode('hi'::bytea, 'base64')", "length('hello'::bytea)", "'abc' < 'abd'", "'B' < 'a'", "'a' = 'a '", "'a'::char(3) = 'a'",
    "upper('ß')", "lower('ÀÉÎ')", "initcap('hello WORLD foo-bar')", "length('ö')", "octet_length('ö')", "bit_length('abc')", "string_agg(x, ',') FROM (VALUES ('a'), ('b')) t(x)",
    "left('ab', 0)", "reverse(NULL)", "to_hex(255)", "to_hex(-1)", "'x' || repeat('y', 0)", "trim(BOTH 'x' FROM 'xxaxx')", "trim(LEADING 'x' FROM 'xxaxx')", "trim(TRAILING FROM '  a  ')",
  ]),
  ...perRow('customers', ['upper(name)', 'length(name)', "split_part(email, '@', 2)", "left(name, 3)", "substr(name, -2, 5)", "name || ' <' || email || '>'", "coalesce(email, 'none')", "initcap(name)", "lower(country)", "format('%s (%s)', name, country)", "position('a' IN lower(name))", "replace(name, ' ', '_')", "regexp_replace(name, '[aeiou]', '', 'g')", "length(name) > 10", "name LIKE '%a%'", "name ILIKE 'a%'", "quote_literal(name)", "quote_ident(name)"]),
]);
