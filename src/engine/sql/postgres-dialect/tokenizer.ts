import { blockCommentEnd, lineEnd, quotedEnd } from '../lexical-runs';

const singleQuote = 39;
const doubleQuote = 34;

/**
 * A lexer for Postgres-flavoured SQL that keeps every character: concatenating the `text` of all
 * tokens gives the input back exactly. The dialect rewrites work on these tokens so that nothing
 * inside a string literal, a quoted identifier or a comment is ever touched.
 *
 * It never fails: an unterminated string or comment runs to the end of the input and an unknown
 * character becomes a one-character `punct` token. DuckDB's parser judges the result.
 */

export type TokenKind =
  | 'space'
  | 'comment'
  | 'string' // '…', E'…', B'…', X'…', N'…', U&'…' and $tag$…$tag$
  | 'quoted-ident' // "…" and U&"…"
  | 'word' // identifiers and keywords
  | 'number'
  | 'param' // $1, ?
  | 'op' // operator runs such as =, <>, ->>, @>, ::
  | 'punct'; // ( ) [ ] { } , ; . :

export interface Token {
  kind: TokenKind;
  text: string;
  /** Offset of the first character in the input. */
  start: number;
  /** A word's text in upper case, kept once asked for (see wordOf). */
  upper?: string;
}

const operatorChars = new Set('+-*/<>=~!@#%^&|`?');
// Postgres lets a multi-character operator end in + or - only when it also holds one of these.
const operatorSpecials = new Set('~!@#%^&|`?');
const wordStart = /[A-Za-z_\u0080-\uffff]/;
const wordPart = /[A-Za-z0-9_$\u0080-\uffff]/;
const digit = /[0-9]/;

export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  const signs: SignRun = { from: 0, to: 0 };
  let i = 0;
  while (i < sql.length) {
    const end = i >= signs.from && i < signs.to ? { kind: 'op' as const, end: i + 1 } : scanToken(sql, i, signs);
    tokens.push({ kind: end.kind, text: sql.slice(i, end.end), start: i });
    i = end.end;
  }
  return tokens;
}

interface Scanned {
  kind: TokenKind;
  end: number;
}

/**
 * The + and - characters an operator run ended with when Postgres' rule cut them off: each is an
 * operator of its own. Remembering them keeps a long run of signs from being scanned once per sign.
 */
interface SignRun {
  from: number;
  to: number;
}

function scanToken(sql: string, i: number, signs: SignRun): Scanned {
  const char = sql[i]!;
  const next = sql[i + 1] ?? '';
  if (/\s/.test(char)) return { kind: 'space', end: scanWhile(sql, i, (c) => /\s/.test(c)) };
  if (char === '-' && next === '-') return { kind: 'comment', end: lineEnd(sql, i) };
  if (char === '/' && next === '*') return { kind: 'comment', end: blockCommentEnd(sql, i) };
  if (char === "'") return { kind: 'string', end: quotedEnd(sql, i, singleQuote, false) };
  if (char === '"') return { kind: 'quoted-ident', end: quotedEnd(sql, i, doubleQuote, false) };
  const prefixed = scanPrefixedString(sql, i);
  if (prefixed) return prefixed;
  if (char === '$') return scanDollar(sql, i);
  if (digit.test(char) || (char === '.' && digit.test(next))) return { kind: 'number', end: numberEnd(sql, i) };
  if (wordStart.test(char)) return { kind: 'word', end: scanWhile(sql, i, (c) => wordPart.test(c)) };
  if (char === ':' && next === ':') return { kind: 'op', end: i + 2 };
  if (char === ':' && next === '=') return { kind: 'op', end: i + 2 };
  if (char === '?' && !operatorChars.has(next)) return { kind: 'param', end: i + 1 };
  if (operatorChars.has(char)) return { kind: 'op', end: operatorEnd(sql, i, signs) };
  return { kind: 'punct', end: i + 1 };
}

function scanWhile(sql: string, i: number, test: (char: string) => boolean): number {
  let j = i;
  while (j < sql.length && test(sql[j]!)) j += 1;
  return j;
}

function scanPrefixedString(sql: string, i: number): Scanned | null {
  const char = sql[i]!.toUpperCase();
  if ((char === 'E' || char === 'B' || char === 'X' || char === 'N') && sql[i + 1] === "'") {
    return { kind: 'string', end: quotedEnd(sql, i + 1, singleQuote, char === 'E') };
  }
  if (char === 'U' && sql[i + 1] === '&' && (sql[i + 2] === "'" || sql[i + 2] === '"')) {
    const quote = sql[i + 2]!;
    return { kind: quote === "'" ? 'string' : 'quoted-ident', end: quotedEnd(sql, i + 2, quote.charCodeAt(0), false) };
  }
  return null;
}

/** `$1` and `$name` (DuckDB's named marker) are parameters; `$$…$$` and `$tag$…$tag$` are dollar-quoted strings. */
function scanDollar(sql: string, i: number): Scanned {
  if (digit.test(sql[i + 1] ?? '')) return { kind: 'param', end: scanWhile(sql, i + 1, (c) => digit.test(c)) };
  const tag = /^\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/.exec(sql.slice(i));
  if (!tag) {
    const name = /^\$[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*/.exec(sql.slice(i));
    return { kind: name ? 'param' : 'punct', end: i + (name?.[0].length ?? 1) };
  }
  const close = sql.indexOf(tag[0], i + tag[0].length);
  return { kind: 'string', end: close === -1 ? sql.length : close + tag[0].length };
}

function numberEnd(sql: string, i: number): number {
  let j = scanWhile(sql, i, (c) => digit.test(c) || c === '_');
  // `1..2` is not a number followed by `.2`; only take the dot when a digit or exponent may follow.
  if (sql[j] === '.' && sql[j + 1] !== '.') j = scanWhile(sql, j + 1, (c) => digit.test(c) || c === '_');
  const exponent = /^[eE][+-]?[0-9]/.exec(sql.slice(j, j + 3));
  if (exponent) j = scanWhile(sql, j + exponent[0].length, (c) => digit.test(c));
  return j;
}

/**
 * Postgres' operator rule: the longest run of operator characters, cut before `--` or `/*`, then
 * shortened while it ends in + or - and holds none of ~ ! @ # % ^ & | ` ?, so `a=-1` is `=` then `-1`.
 */
function operatorEnd(sql: string, i: number, signs: SignRun): number {
  let j = i;
  let hasSpecial = false;
  while (j < sql.length && operatorChars.has(sql[j]!)) {
    if (j > i && (sql.startsWith('--', j) || sql.startsWith('/*', j))) break;
    if (operatorSpecials.has(sql[j]!)) hasSpecial = true;
    j += 1;
  }
  if (hasSpecial) return j;
  let end = j;
  while (end - i > 1 && (sql[end - 1] === '+' || sql[end - 1] === '-')) end -= 1;
  signs.from = end;
  signs.to = j;
  return end;
}

/** Whether a token carries meaning for the parser (not whitespace, not a comment). */
export function isSignificant(token: Token): boolean {
  return token.kind !== 'space' && token.kind !== 'comment';
}
