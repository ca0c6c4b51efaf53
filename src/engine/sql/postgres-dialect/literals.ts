/** Reading and writing SQL string literals for rewrites that look inside them (formats, JSON paths). */

const escapes: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * The value of a string literal token: '…' (standard conforming), E'…' with backslash escapes and
 * $tag$…$tag$. Null for bit, hex and Unicode-escape strings, which no rewrite needs to read.
 */
export function stringValue(text: string): string | null {
  if (text.startsWith("'")) return text.slice(1, -1).replaceAll("''", "'");
  if (/^[nN]'/.test(text)) return stringValue(text.slice(1));
  if (/^[eE]'/.test(text)) return unescapeBackslashes(text.slice(2, -1));
  const dollar = /^(\$[^$]*\$)([\s\S]*)\1$/.exec(text);
  if (dollar) return dollar[2]!;
  return null;
}

function unescapeBackslashes(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)|''/g, (_match, escape: string | undefined) => {
    if (escape === undefined) return "'";
    if (escape.startsWith('x')) return String.fromCharCode(parseInt(escape.slice(1), 16));
    if (/^[0-7]/.test(escape)) return String.fromCharCode(parseInt(escape, 8));
    return escapes[escape] ?? escape;
  });
}

/** A standard string literal holding `value`. */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
