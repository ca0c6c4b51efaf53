import { blockCommentEnd, lineEnd, quotedEnd } from './lexical-runs';

/** Where the scan may stop counting: past any of these the text is refused anyway. */
export interface ScanStops {
  maxTokens: number;
  maxDepth: number;
  maxListItems: number;
}

export interface InputShape {
  length: number;
  tokens: number;
  depth: number;
  listItems: number;
}

const enum Char {
  Tab = 9,
  CarriageReturn = 13,
  Space = 32,
  DoubleQuote = 34,
  Dollar = 36,
  Ampersand = 38,
  Quote = 39,
  OpenParen = 40,
  CloseParen = 41,
  Star = 42,
  Comma = 44,
  Minus = 45,
  Dot = 46,
  Slash = 47,
  Zero = 48,
  Nine = 57,
  Colon = 58,
  Question = 63,
  OpenBracket = 91,
  CloseBracket = 93,
  Underscore = 95,
  OpenBrace = 123,
  CloseBrace = 125,
}

const operatorChars = new Set([...'+-*/<>=~!@#%^&|`?'].map((char) => char.charCodeAt(0)));

/**
 * One pass over the text that builds no tokens, counting tokens, bracket depth and list items. Its
 * lexical rules are the Postgres dialect tokenizer's (strings with their prefixes and escapes,
 * dollar quoting, quoted names, nested comments), so a bracket it does not count is one the
 * translator does not see either. Stops early once a limit is passed: the shape then says only that.
 */
export function measureInput(sql: string, limits: ScanStops): InputShape {
  // The bracket open at each depth: a closer of another kind closes nothing (the tokenizer's rule).
  const open: number[] = [0];
  const commas: number[] = [0];
  let depth = 0;
  let maxDepth = 0;
  let listItems = 1;
  let tokens = 0;
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql.charCodeAt(i);
    if (isSpace(c)) {
      i += 1;
      continue;
    }
    const next = i + 1 < n ? sql.charCodeAt(i + 1) : 0;
    if (c === Char.Minus && next === Char.Minus) {
      i = lineEnd(sql, i);
      continue;
    }
    if (c === Char.Slash && next === Char.Star) {
      i = blockCommentEnd(sql, i);
      continue;
    }
    tokens += 1;
    if (tokens > limits.maxTokens) break;
    if (c === Char.OpenParen || c === Char.OpenBracket || c === Char.OpenBrace) {
      depth += 1;
      if (depth > maxDepth) maxDepth = depth;
      if (depth > limits.maxDepth) break;
      open[depth] = c;
      commas[depth] = 0;
      i += 1;
    } else if (c === Char.CloseParen || c === Char.CloseBracket || c === Char.CloseBrace) {
      if (depth > 0 && open[depth] === opening(c)) depth -= 1;
      i += 1;
    } else if (c === Char.Comma) {
      const count = (commas[depth] ?? 0) + 1;
      commas[depth] = count;
      if (count + 1 > listItems) listItems = count + 1;
      if (listItems > limits.maxListItems) break;
      i += 1;
    } else {
      i = tokenEnd(sql, i, c, next);
    }
  }
  return { length: n, tokens, depth: maxDepth, listItems };
}

/** The end of the token starting at `i` that is no bracket, comma, comment or space. */
function tokenEnd(sql: string, i: number, c: number, next: number): number {
  if (c === Char.Quote) return quotedEnd(sql, i, Char.Quote, false);
  if (c === Char.DoubleQuote) return quotedEnd(sql, i, Char.DoubleQuote, false);
  const prefixed = prefixedStringEnd(sql, i, c, next);
  if (prefixed !== -1) return prefixed;
  if (c === Char.Dollar) return dollarEnd(sql, i, next);
  if (isDigit(c) || (c === Char.Dot && isDigit(next))) return numberEnd(sql, i);
  if (isWordStart(c)) {
    let j = i + 1;
    while (j < sql.length && isWordPart(sql.charCodeAt(j))) j += 1;
    return j;
  }
  if (c === Char.Colon && (next === Char.Colon || next === 61)) return i + 2;
  if (c === Char.Question && !operatorChars.has(next)) return i + 1;
  if (operatorChars.has(c)) return operatorEnd(sql, i);
  return i + 1;
}

function opening(closer: number): number {
  return closer === Char.CloseParen ? Char.OpenParen : closer === Char.CloseBracket ? Char.OpenBracket : Char.OpenBrace;
}

function isSpace(c: number): boolean {
  return (
    c === Char.Space ||
    (c >= Char.Tab && c <= Char.CarriageReturn) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

function isDigit(c: number): boolean {
  return c >= Char.Zero && c <= Char.Nine;
}

function isLetter(c: number): boolean {
  const lower = c | 0x20;
  return lower >= 97 && lower <= 122;
}

function isWordStart(c: number): boolean {
  return isLetter(c) || c === Char.Underscore || c >= 0x80;
}

function isWordPart(c: number): boolean {
  return isWordStart(c) || isDigit(c) || c === Char.Dollar;
}

/** E'…' (backslash escapes), B'…', X'…', N'…', U&'…' and U&"…"; -1 when none starts at `i`. */
function prefixedStringEnd(sql: string, i: number, c: number, next: number): number {
  const upper = c & ~0x20;
  if ((upper === 69 || upper === 66 || upper === 88 || upper === 78) && next === Char.Quote) return quotedEnd(sql, i + 1, Char.Quote, upper === 69);
  if (upper === 85 && next === Char.Ampersand) {
    const quote = sql.charCodeAt(i + 2);
    if (quote === Char.Quote || quote === Char.DoubleQuote) return quotedEnd(sql, i + 2, quote, false);
  }
  return -1;
}

/** `$1` is a parameter; `$$…$$` and `$tag$…$tag$` are dollar-quoted strings; any other `$` stands alone. */
function dollarEnd(sql: string, i: number, next: number): number {
  if (isDigit(next)) {
    let j = i + 1;
    while (j < sql.length && isDigit(sql.charCodeAt(j))) j += 1;
    return j;
  }
  let j = i + 1;
  if (j < sql.length && isWordStart(sql.charCodeAt(j))) {
    j += 1;
    while (j < sql.length && (isWordStart(sql.charCodeAt(j)) || isDigit(sql.charCodeAt(j)))) j += 1;
  }
  // `$name` is a named parameter: one token, as the tokenizer has it.
  if (sql.charCodeAt(j) !== Char.Dollar) return j;
  const tag = sql.slice(i, j + 1);
  const close = sql.indexOf(tag, j + 1);
  return close === -1 ? sql.length : close + tag.length;
}

function numberEnd(sql: string, i: number): number {
  let j = i;
  while (j < sql.length && (isDigit(sql.charCodeAt(j)) || sql.charCodeAt(j) === Char.Underscore)) j += 1;
  if (sql.charCodeAt(j) === Char.Dot && sql.charCodeAt(j + 1) !== Char.Dot) {
    j += 1;
    while (j < sql.length && (isDigit(sql.charCodeAt(j)) || sql.charCodeAt(j) === Char.Underscore)) j += 1;
  }
  const e = sql.charCodeAt(j) | 0x20;
  if (e === 101) {
    let k = j + 1;
    const sign = sql.charCodeAt(k);
    if (sign === 43 || sign === Char.Minus) k += 1;
    if (isDigit(sql.charCodeAt(k))) {
      j = k;
      while (j < sql.length && isDigit(sql.charCodeAt(j))) j += 1;
    }
  }
  return j;
}

/** An operator run, cut before a comment start (the exact Postgres trimming only splits tokens, which need not be counted exactly). */
function operatorEnd(sql: string, i: number): number {
  let j = i;
  while (j < sql.length && operatorChars.has(sql.charCodeAt(j))) {
    if (
      j > i &&
      ((sql.charCodeAt(j) === Char.Minus && sql.charCodeAt(j + 1) === Char.Minus) || (sql.charCodeAt(j) === Char.Slash && sql.charCodeAt(j + 1) === Char.Star))
    )
      break;
    j += 1;
  }
  return j;
}
