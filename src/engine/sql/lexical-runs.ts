/**
 * Where the runs that hide SQL from a scanner end (comments, quoted strings and names), shared by the
 * Postgres translation's tokenizer and the input limits' measure, so that both see the same text as
 * code. Character codes, not strings: both run over every byte of every statement.
 */

const slash = 47;
const star = 42;
const backslash = 92;

/** The end of a `--` comment: the newline (kept) or the end of the text. */
export function lineEnd(sql: string, i: number): number {
  const newline = sql.indexOf('\n', i);
  return newline === -1 ? sql.length : newline;
}

/** Block comments nest in Postgres (and in DuckDB): `/* a /* b *\/ c *\/` is one comment. */
export function blockCommentEnd(sql: string, i: number): number {
  let depth = 0;
  let j = i;
  while (j < sql.length) {
    const c = sql.charCodeAt(j);
    const next = sql.charCodeAt(j + 1);
    if (c === slash && next === star) {
      depth += 1;
      j += 2;
    } else if (c === star && next === slash) {
      depth -= 1;
      j += 2;
      if (depth === 0) return j;
    } else {
      j += 1;
    }
  }
  return sql.length;
}

/** The end of a run quoted by the character `quote` starting at `i`: a doubled quote is an escaped one; E-strings also take `\'`. */
export function quotedEnd(sql: string, i: number, quote: number, backslashEscapes: boolean): number {
  let j = i + 1;
  while (j < sql.length) {
    const c = sql.charCodeAt(j);
    if (backslashEscapes && c === backslash) {
      j += 2;
    } else if (c === quote) {
      if (sql.charCodeAt(j + 1) === quote) j += 2;
      else return j + 1;
    } else {
      j += 1;
    }
  }
  return sql.length;
}
